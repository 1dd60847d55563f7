import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Incident amnesties over HTTP: declared by an operator, written into every user's log in
/// the background, shown as covered days, lifted again; refused inputs declare nothing; a
/// job whose instance stopped is continued by another; and the events only the server
/// writes are refused from devices.
@Suite(.serialized)
struct AmnestyRouteTests {
    static let owner = ServerHarness.ownerHeaders

    /// The state of a habit's day on `GET /v1/habits/{habit}`.
    static func state(
        of day: LocalDay, habit: String, token: String, client: any TestClientProtocol
    ) async throws -> (state: String?, streak: Int?) {
        let detail = try await client.call(.get, "/v1/habits/\(habit)", token: token)
        #expect(detail.status == .ok, "\(detail.text)")
        let calendar = (detail.json["habit"] as? [String: Any])?["calendar"] as? [[String: Any]] ?? []
        let entry = calendar.first { $0["day"] as? String == day.description }
        let current = (detail.json["habit"] as? [String: Any])?["current"] as? Int
        return (entry?["state"] as? String, current)
    }

    static func declare(_ start: Date, _ end: Date, _ reason: String) -> String {
        #"{"start": "\#(RFC3339.format(start))", "end": "\#(RFC3339.format(end))", "reason": "\#(reason)"}"#
    }

    /// Given a user who did their habit every day but the day of an outage, when an
    /// operator declares the outage, then that day is covered with the reason and the
    /// streak runs through it; lifting the amnesty brings the miss back.
    @Test(arguments: ServerHarness.Backend.allCases)
    func aMissedOutageDayIsCoveredAndLiftingRestoresTheMiss(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("ada", daysAgo: 8, client: client)
            let now = harness.now
            let day = 86_400.0
            var events = [habitCreated("run", at: now.addingTimeInterval(-6 * day))]
            events += [6, 5, 4, 2, 1].map { completion("c\($0)", habit: "run", at: now.addingTimeInterval(-$0 * day)) }
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(push.status == .ok, "\(push.text)")
            let outage = now.addingTimeInterval(-3 * day)
            let missed = PauseRouteTests.berlinDay(outage)
            let before = try await Self.state(of: missed, habit: "run", token: token, client: client)
            #expect(before.state != "covered" && before.state != "completed")

            let declared = try await client.call(
                .post, "/v1/admin/amnesties", json: Self.declare(outage - 3_600, outage + 3_600, "Sync was down"),
                headers: Self.owner)
            #expect(declared.status == .accepted, "\(declared.text)")
            let id = try #require(declared.json["id"] as? String)
            #expect(declared.json["status"] as? String == "declaring")
            for instance in [harness.state] + harness.others { await instance.services.amnesties.drain() }

            let covered = try await Self.state(of: missed, habit: "run", token: token, client: client)
            #expect(covered.state == "covered")
            #expect(covered.streak == 5)
            let today = try await client.call(.get, "/v1/today", token: token)
            let amnesties = today.json["amnesties"] as? [[String: Any]] ?? []
            #expect(amnesties.map { $0["reason"] as? String } == ["Sync was down"], "\(today.text)")
            let list = try await client.call(.get, "/v1/admin/amnesties", headers: Self.owner)
            let listed = try #require((list.json["amnesties"] as? [[String: Any]])?.first)
            #expect(listed["status"] as? String == "active")
            #expect(listed["usersDone"] as? Int == 1 && listed["usersTotal"] as? Int == 1)

            let lifted = try await client.call(.post, "/v1/admin/amnesties/\(id)/lift", headers: Self.owner)
            #expect(lifted.status == .accepted, "\(lifted.text)")
            for instance in [harness.state] + harness.others { await instance.services.amnesties.drain() }
            let after = try await Self.state(of: missed, habit: "run", token: token, client: client)
            #expect(after.state == before.state && after.streak == before.streak)
            let again = try await client.call(.post, "/v1/admin/amnesties/\(id)/lift", headers: Self.owner)
            #expect(again.status == .conflict && again.errorCode == "amnesty_not_active")
            let unknown = try await client.call(.post, "/v1/admin/amnesties/am_nope/lift", headers: Self.owner)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func refusedWindowsAndReasonsDeclareNothing() async throws {
        try await ServerHarness.with { harness, client in
            let now = harness.now
            for (body, field) in [
                (Self.declare(now - 3_600, now - 7_200, "Down"), "end"),
                (Self.declare(now - 40 * 86_400, now - 60, "Down"), "end"),
                (Self.declare(now - 7_200, now - 3_600, "   "), "reason"),
                (Self.declare(now - 7_200, now + 3_600, "Down"), "end"),
            ] {
                let refused = try await client.call(.post, "/v1/admin/amnesties", json: body, headers: Self.owner)
                #expect(refused.status == .unprocessableContent, "\(refused.text)")
                #expect(refused.errorFields.contains(field), "\(refused.text)")
            }
            let empty = try await client.call(
                .post, "/v1/admin/amnesties",
                json: #"{"start": "2026-07-13T00:00:00Z", "end": "2026-07-13T01:00:00Z", "reason": ""}"#,
                headers: Self.owner)
            #expect(empty.status == .unprocessableContent || empty.status == .badRequest, "\(empty.text)")
            let list = try await client.call(.get, "/v1/admin/amnesties", headers: Self.owner)
            #expect((list.json["amnesties"] as? [[String: Any]])?.isEmpty == true, "\(list.text)")
            let anonymous = try await client.call(.get, "/v1/admin/amnesties")
            #expect(anonymous.status == .unauthorized)
        }
    }

    /// A job whose instance stopped after the first user (its lease run out) is continued
    /// by another instance from the next user: every account gets the amnesty once.
    @Test(arguments: ServerHarness.Backend.allCases)
    func anotherInstanceContinuesAnInterruptedJob(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            var tokens: [String] = []
            for name in ["amy", "ben", "cat"] {
                tokens.append(try await harness.register(name, daysAgo: 5, client: client))
            }
            let store = harness.state.store
            let users = try await store.amnestyUsers(createdBefore: harness.now, after: nil, limit: 10)
            #expect(users.count == 3)
            let now = harness.now
            let stopped = AmnestyRecord(
                id: "am_stopped", start: now - 2 * 86_400, end: now - 86_400, reason: "Push was down",
                declaredBy: "op_1", declaredAt: now - 600, usersDone: 1, usersTotal: 3, cursor: users[0].user,
                leaseUntil: now - 1)
            try await store.declareAmnesty(stopped)
            // The stopped instance wrote the first user's event before it stopped.
            _ = try await harness.state.services.ingest.appendServerAuthored(
                [Amnesties.event(for: stopped, status: .declaring, zone: users[0].timeZone)], for: users[0].user)
            // Another instance (its own use case over the same database) takes it over.
            let other = Amnesties(
                store: store, ingest: harness.state.services.ingest, now: { harness.now },
                logger: ServerHarness.quietLogger, pageSize: 1)
            try await other.resumeStale()
            let record = try #require(try await store.amnesty(id: "am_stopped"))
            #expect(record.status == .active && record.usersDone == 3 && record.cursor == users[2].user)
            for token in tokens {
                let today = try await client.call(.get, "/v1/today", token: token)
                #expect((today.json["amnesties"] as? [[String: Any]])?.count == 1, "\(today.text)")
            }
            // Nothing is left to resume.
            try await other.resumeStale()
            #expect(try await store.claimStaleAmnesty(now: now + 3_600, leaseUntil: now + 7_200) == nil)
        }
    }

    /// A device (or a server key) cannot write what only the server writes: the push is
    /// refused as a whole with `server_only_event`, nothing stored.
    @Test func devicesCannotSendServerOnlyEvents() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("ada", daysAgo: 2, client: client)
            let at = RFC3339.format(harness.now)
            let grant =
                #"{"id": "g1", "type": "grant", "at": "\#(at)", "tz": "UTC", "diamonds": 500, "reason": "free"}"#
            let amnesty =
                #"{"id": "a1", "type": "amnesty", "at": "\#(at)", "tz": "UTC", "amnesty": "am_x", "start": "2026-07-12T00:00:00Z", "end": "2026-07-12T01:00:00Z", "reason": "x"}"#
            let push = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([habitCreated("run", at: harness.now), grant, amnesty]))
            #expect(push.status == .forbidden, "\(push.text)")
            #expect(push.errorCode == "server_only_event")
            #expect(push.errorFields == ["events[1].type", "events[2].type"])
            let wallet = try await client.call(.get, "/v1/today", token: token)
            #expect((wallet.json["habits"] as? [[String: Any]])?.isEmpty == true, "\(wallet.text)")
        }
    }
}
