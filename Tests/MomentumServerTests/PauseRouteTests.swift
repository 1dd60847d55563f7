import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Pauses over HTTP: pushed as events, listed on `/v1/today`, refused past the backfill
/// window, ended by a resume; and the web app's Today and habit pages that make them.
struct PauseRouteTests {
    static func event(_ id: String, _ type: String, at: Date, _ fields: String) -> String {
        #"{"id": "\#(id)", "type": "\#(type)", "at": "\#(RFC3339.format(at))", "tz": "Europe/Berlin", \#(fields)}"#
    }

    static func berlinDay(_ instant: Date) -> LocalDay {
        DayClock().localDay(of: instant, in: ZoneOffsetTable.named("Europe/Berlin")!)
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func pausesArePushedListedRefusedAndEnded(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("ada", daysAgo: 4, client: client)
            let now = harness.now
            let today = Self.berlinDay(now)
            var events = [habitCreated("run", at: now.addingTimeInterval(-3 * 86_400))]
            events += (1...3).map {
                completion("c\($0)", habit: "run", at: now.addingTimeInterval(Double(-$0) * 86_400))
            }
            events += [
                Self.event(
                    "p1", "pause", at: now,
                    #""habit": "run", "from": "\#(today)", "until": "\#(today.advanced(by: 6))", "note": "Lisbon""#),
                Self.event("p2", "pause", at: now, #""from": "\#(today.advanced(by: -3))", "until": "\#(today)""#),
                Self.event("p3", "pause", at: now, #""habit": "nope", "from": "\#(today)", "until": "\#(today)""#),
                Self.event("r1", "resume", at: now, #""pause": "nothing-here""#),
                Self.event(
                    "p4", "pause", at: now,
                    #""from": "\#(today.advanced(by: 20))", "until": "\#(today.advanced(by: 25))""#),
            ]
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(push.status == .ok, "\(push.text)")
            let results = try #require(push.json["results"] as? [[String: Any]])
            #expect(
                results.map { $0["status"] as? String } == [
                    "applied", "applied", "applied", "applied", "applied", "invalid", "invalid", "invalid", "applied",
                ])
            let fromError = try #require(results[5]["error"] as? [String: Any])
            #expect(fromError["code"] as? String == "outside_backfill_window")
            #expect(fromError["field"] as? String == "from")
            #expect((results[6]["error"] as? [String: Any])?["code"] as? String == "unknown_habit")
            #expect((results[7]["error"] as? [String: Any])?["field"] as? String == "pause")

            var dashboard = try await client.call(.get, "/v1/today", token: token)
            let pauses = try #require(dashboard.json["pauses"] as? [[String: Any]])
            #expect(pauses.map { $0["id"] as? String } == ["p1", "p4"])
            #expect(pauses.first?["note"] as? String == "Lisbon")
            var habit = try #require((dashboard.json["habits"] as? [[String: Any]])?.first)
            #expect((habit["today"] as? [String: Any])?["state"] as? String == "paused")
            #expect(habit["current"] as? Int == 3)

            let resume = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([Self.event("r2", "resume", at: now.addingTimeInterval(60), #""pause": "p1""#)]))
            #expect((resume.json["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
            dashboard = try await client.call(.get, "/v1/today", token: token)
            #expect((dashboard.json["pauses"] as? [[String: Any]])?.map { $0["id"] as? String } == ["p4"])
            habit = try #require((dashboard.json["habits"] as? [[String: Any]])?.first)
            #expect((habit["today"] as? [String: Any])?["state"] as? String == "pending")

            // A bad range is refused where it is decoded, naming the field.
            let backwards = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    Self.event("p5", "pause", at: now, #""from": "\#(today)", "until": "\#(today.advanced(by: -1))""#)
                ]))
            #expect(backwards.status == .unprocessableContent || backwards.status == .badRequest, "\(backwards.text)")
            #expect(backwards.errorFields.contains { $0.hasSuffix("until") }, "\(backwards.text)")
            #expect(backwards.text.contains("is before from"), "\(backwards.text)")
        }
    }

    @Test func theWebPagesShowAndMakePauses() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("bea")
            let cookie = try await client.signInCookie("bea")
            let made = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "run", "name": "Run"}"#)
            #expect(made.status == .created)
            var today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            let day = Self.berlinDay(harness.now)
            #expect(today.text.contains("Vacation: pause every habit"))
            #expect(today.text.contains(#"name="from" value="\#(day)" min="\#(day.advanced(by: -1))""#))
            #expect(!today.text.contains("On vacation until"))
            let pause = Self.event(
                "p1", "pause", at: harness.now,
                #""from": "\#(day)", "until": "\#(day.advanced(by: 2))", "note": "Porto""#)
            let pushed = try await client.call(.post, "/v1/events", token: token, json: eventsJSON([pause]))
            #expect(pushed.status == .ok)
            today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            #expect(
                today.text.contains(
                    "🏖️ On vacation until \(day.advanced(by: 2).readable) (Porto): every streak is paused."))
            #expect(today.text.contains(#"data-action="resume" data-pause="p1""#))
            #expect(today.text.contains("dot state-paused"))
            let page = try await client.call(.get, "/habits/run", headers: [.cookie: cookie])
            #expect(page.text.contains("Pause this habit"))
            #expect(page.text.contains(#"data-action="pause" data-habit="run""#))
            #expect(page.text.contains("Paused (vacation)"))
            #expect(page.text.contains("<strong>Every habit</strong>"))
        }
    }
}
