import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// The operator's user routes: one user looked up (by id, email or an app's user id; a
/// miss is 404), read with each recent day explained, granted rewards; and a review flag
/// confirmed. On both backends.
struct ConsoleUserRouteTests {
    static let admin = ServerHarness.ownerHeaders

    /// An API session for a new operator of `role`, and who they are.
    static func session(_ role: OperatorRole, harness: ServerHarness) async throws -> (HTTPFields, OperatorActor) {
        let actor = try await ConsoleSession.add(role, harness: harness)
        let token = "mop_\(role.rawValue)-\(Tokens.id("").prefix(8))"
        try await harness.state.store.createOperatorSession(
            OperatorSessionRecord(
                tokenHash: Tokens.hash(token), operatorID: actor.id, kind: "api", csrf: "test-csrf",
                createdAt: harness.now, expiresAt: harness.now.addingTimeInterval(365 * 86_400),
                lastSeenAt: harness.now))
        return ([.authorization: "Bearer \(token)"], actor)
    }

    /// The operator's audit entries whose action starts with `action`, newest first.
    static func audit(_ harness: ServerHarness, _ actor: OperatorActor, _ action: String) async throws -> [AuditEntry] {
        try await harness.state.services.operators.auditLog(
            AuditQuery(operatorID: actor.id, actionPrefix: action, limit: 50)
        ).entries
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aUserIsFoundByIdEmailOrAppUserAndNeverByAPrefix(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            let byID = try await client.call(.get, "/v1/admin/users?id=\(ada.id)", headers: Self.admin)
            #expect(byID.status == .ok, "\(byID.text)")
            #expect(byID.json["id"] as? String == ada.id && byID.json["email"] as? String == "ada@example.com")
            #expect(byID.json["displayName"] as? String == "Ada" && byID.json["timeZone"] as? String == "Europe/Berlin")
            // Email as signing in compares it: whatever the case.
            let byEmail = try await client.call(.get, "/v1/admin/users?email=ADA@Example.com", headers: Self.admin)
            #expect(byEmail.json["id"] as? String == ada.id, "\(byEmail.text)")
            // Never a prefix, never a list.
            #expect(try await client.call(.get, "/v1/admin/users?email=ada@", headers: Self.admin).status == .notFound)
            #expect(
                try await client.call(.get, "/v1/admin/users?id=\(ada.id.prefix(4))", headers: Self.admin).status
                    == .notFound)
            #expect(try await client.call(.get, "/v1/admin/users", headers: Self.admin).status == .unprocessableContent)
            #expect(
                try await client.call(.get, "/v1/admin/users?id=\(ada.id)&email=ada@example.com", headers: Self.admin)
                    .status == .unprocessableContent)
            // An app's user by the app's own id.
            let appUser = try await harness.state.store.provisionAppUser(
                AppUser(app: "puppy", appUserID: "42", userID: "u_puppy42"),
                account: Account(id: "u_puppy42", email: nil, passwordHash: nil, createdAt: harness.now),
                profile: Profile(displayName: "Rex's owner", timeZone: "Europe/Lisbon", updatedAt: harness.now))
            let byApp = try await client.call(.get, "/v1/admin/users?app=puppy&appUser=42", headers: Self.admin)
            #expect(byApp.json["id"] as? String == appUser.userID, "\(byApp.text)")
            #expect(byApp.json["appUserID"] as? String == "42" && byApp.json["app"] as? String == "puppy")
            #expect(try await client.call(.get, "/v1/admin/users?appUser=42", headers: Self.admin).status == .notFound)
            // Behind the operator's gate.
            #expect(try await client.call(.get, "/v1/admin/users?id=\(ada.id)").status == .unauthorized)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aUsersReadExplainsEveryRecentDayAndShowsNoToken(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            let created = try await client.call(
                .post, "/v1/habits", token: ada.token, json: #"{"habit": "read", "name": "Read"}"#)
            #expect(created.status == .created, "\(created.text)")
            let done = try await client.call(.post, "/v1/habits/read/check-ins", token: ada.token, json: "{}")
            #expect(done.status == .ok || done.status == .created, "\(done.text)")
            let read = try await client.call(.get, "/v1/admin/users/\(ada.id)", headers: Self.admin)
            #expect(read.status == .ok, "\(read.text)")
            #expect(!read.text.contains(ada.token))
            let habits = read.json["habits"] as? [[String: Any]] ?? []
            #expect(habits.map { $0["id"] as? String } == ["read"])
            let days = habits.first?["days"] as? [[String: Any]] ?? []
            #expect(days.count == 1, "a habit made today has one day: \(days)")
            #expect(days.last?["cause"] as? String == "completion" && days.last?["state"] as? String == "completed")
            #expect((days.last?["events"] as? [String])?.count == 1)
            #expect(habits.first?["current"] as? Int == 1)
            #expect((read.json["devices"] as? [[String: Any]])?.first?["name"] as? String == "phone")
            #expect(read.json["wallet"] is [String: Any])
            #expect(try await client.call(.get, "/v1/admin/users/nobody", headers: Self.admin).status == .notFound)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aGrantAddsToTheWalletOncePerKeyAndRefusesWhatIsOutOfBounds(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { _, client in
            let ada = try await client.person("ada")
            let path = "/v1/admin/users/\(ada.id)/grants"
            for (body, field) in [
                (#"{"diamonds": 5}"#, "reason"),
                (#"{"diamonds": 5, "reason": "   "}"#, "reason"),
                (#"{"diamonds": -1, "reason": "outage"}"#, "diamonds"),
                (#"{"diamonds": 100001, "reason": "outage"}"#, "diamonds"),
                (#"{"freezes": 1001, "reason": "outage"}"#, "freezes"),
                (#"{"reason": "nothing at all"}"#, "diamonds"),
                (#"{"diamonds": 5, "reason": "outage", "user": "bob"}"#, "user"),
            ] {
                let refused = try await client.call(.post, path, json: body, headers: Self.admin)
                #expect(
                    refused.status == .badRequest || refused.status == .unprocessableContent,
                    "\(body): \(refused.text)")
                #expect(refused.text.contains(field), "\(body): \(refused.text)")
            }
            // Nothing was given by the refusals.
            let before = try await client.call(.get, "/v1/admin/users/\(ada.id)", headers: Self.admin)
            #expect((before.json["wallet"] as? [String: Any])?["diamonds"] as? Int == 0, "\(before.text)")

            var keyed = Self.admin
            keyed[.idempotencyKey] = "support-ticket-7"
            let body = #"{"diamonds": 50, "freezes": 2, "reason": "Sync outage on March 14"}"#
            let first = try await client.call(.post, path, json: body, headers: keyed)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.json["replayed"] as? Bool == false)
            let wallet = first.json["wallet"] as? [String: Any]
            #expect(wallet?["diamonds"] as? Int == 50 && wallet?["freezes"] as? Int == 2, "\(first.text)")
            // The same key again gives nothing more.
            let again = try await client.call(.post, path, json: body, headers: keyed)
            #expect(
                again.json["replayed"] as? Bool == true
                    && again.json["event"] as? String == first.json["event"] as? String)
            #expect((again.json["wallet"] as? [String: Any])?["diamonds"] as? Int == 50, "\(again.text)")
            // The same key for another grant is a conflict.
            let other = try await client.call(
                .post, path, json: #"{"diamonds": 60, "reason": "Sync outage on March 14"}"#, headers: keyed)
            #expect(other.status == .conflict, "\(other.text)")
            // Without a key, every call gives.
            _ = try await client.call(.post, path, json: #"{"diamonds": 1, "reason": "Thanks"}"#, headers: Self.admin)
            let after = try await client.call(.get, "/v1/admin/users/\(ada.id)", headers: Self.admin)
            #expect((after.json["wallet"] as? [String: Any])?["diamonds"] as? Int == 51, "\(after.text)")
            let ledger = after.json["ledger"] as? [[String: Any]] ?? []
            #expect(ledger.contains { $0["reason"] as? String == "Sync outage on March 14" }, "\(ledger)")
            // The user's own state says so too.
            let state = try await client.call(.get, "/v1/wallet", token: ada.token)
            #expect((state.json["wallet"] as? [String: Any])?["diamonds"] as? Int == 51, "\(state.text)")
            #expect(
                try await client.call(
                    .post, "/v1/admin/users/nobody/grants", json: #"{"diamonds": 1, "reason": "x"}"#,
                    headers: Self.admin
                ).status == .notFound)
            #expect(try await client.call(.post, path, json: body).status == .unauthorized)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aConfirmedFlagStaysConfirmedAndAClearedOneCannotBeConfirmed(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            for id in ["f1", "f2"] {
                try await harness.state.store.flag(
                    ReviewFlag(
                        user: ada.id, id: id, kind: .backfills, detail: "12 events for earlier days",
                        events: ["e-\(id)"], createdAt: harness.now))
            }
            let confirmed = try await client.call(
                .post, "/v1/admin/review-flags/\(ada.id)/f1/confirm", headers: Self.admin)
            #expect(confirmed.status == .ok, "\(confirmed.text)")
            #expect(
                confirmed.json["status"] as? String == "confirmed" && confirmed.json["confirmedBy"] as? String != nil)
            // Again: the same answer.
            let again = try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/f1/confirm", headers: Self.admin)
            #expect(again.json["status"] as? String == "confirmed")
            // It left the queue; the other one is still there.
            let queue = try await client.call(.get, "/v1/admin/review-flags", headers: Self.admin)
            #expect((queue.json["flags"] as? [[String: Any]])?.map { $0["id"] as? String } == ["f2"], "\(queue.text)")
            #expect(
                try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/f2/clear", headers: Self.admin).status
                    == .ok)
            let cleared = try await client.call(
                .post, "/v1/admin/review-flags/\(ada.id)/f2/confirm", headers: Self.admin)
            #expect(cleared.status == .conflict && cleared.text.contains("flag_cleared"), "\(cleared.text)")
            #expect(
                try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/nope/confirm", headers: Self.admin)
                    .status == .notFound)
            #expect(try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/f1/confirm").status == .unauthorized)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func lookUpsAndGrantsAreAuditedAndAViewerMayNotGrant(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            let (viewer, viewerActor) = try await Self.session(.viewer, harness: harness)
            // A miss is recorded as a look-up without a user; a hit, also as viewing the user.
            #expect(
                try await client.call(.get, "/v1/admin/users?email=nobody@x.org", headers: viewer).status == .notFound)
            #expect(try await client.call(.get, "/v1/admin/users?email=ada@example.com", headers: viewer).status == .ok)
            #expect(try await client.call(.get, "/v1/admin/users/\(ada.id)", headers: viewer).status == .ok)
            let lookups = try await Self.audit(harness, viewerActor, "user.lookup")
            #expect(lookups.count == 2 && lookups.allSatisfy { $0.user == nil }, "\(lookups)")
            let viewed = try await Self.audit(harness, viewerActor, "user.viewed")
            #expect(viewed.map(\.user) == [ada.id, ada.id], "\(viewed)")

            // A viewer may not grant: 403, recorded as denied, nothing given.
            let path = "/v1/admin/users/\(ada.id)/grants"
            let body = #"{"diamonds": 7, "reason": "Goodwill"}"#
            let forbidden = try await client.call(.post, path, json: body, headers: viewer)
            #expect(forbidden.status == .forbidden, "\(forbidden.text)")
            let denied = try await Self.audit(harness, viewerActor, "user.granted")
            #expect(denied.map(\.outcome) == [.denied] && denied.first?.user == ada.id, "\(denied)")
            #expect(
                try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/f/confirm", headers: viewer).status
                    == .forbidden)

            // Support may: recorded as done, with the amounts and the reason.
            let (support, supportActor) = try await Self.session(.support, harness: harness)
            let granted = try await client.call(.post, path, json: body, headers: support)
            #expect(granted.status == .ok, "\(granted.text)")
            let done = try await Self.audit(harness, supportActor, "user.granted")
            #expect(
                done.map(\.outcome) == [.done] && done.first?.detail == "7 diamonds, 0 freezes: Goodwill", "\(done)")
            #expect(try await harness.state.services.userLookup.read(ada.id).wallet.diamonds == 7)
        }
    }
}
