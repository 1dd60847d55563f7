import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumServer
import MomentumServices
import Testing

/// Notifications end to end, on a clock the test moves: the scheduler's runs, milestones at
/// once, preferences, a downtime, and the inbox API.
@Suite struct NotificationRouteTests {
    /// Sets the harness clock to a local time in Berlin (CEST in July: UTC+2).
    func set(_ harness: ServerHarness, day: Int, hour: Int, minute: Int = 0) {
        let utc = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "Europe/Berlin"), year: 2026,
            month: 7, day: day, hour: hour, minute: minute
        ).date!
        harness.clock.value.withLock { $0 = utc }
    }

    func inbox(_ client: some TestClientProtocol, _ token: String, query: String = "") async throws -> JSONResponse {
        try await client.call(.get, "/v1/notifications\(query)", token: token)
    }

    func keys(_ response: JSONResponse) -> [String] {
        (response.json["notifications"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
    }

    @Test func remindersAtRiskMilestonesPreferencesAndADowntime() async throws {
        try await ServerHarness.with { harness, client in
            // Registered on July 9 at 08:00; "Read" checked in at 09:00 on the 9th to the 13th.
            set(harness, day: 9, hour: 8)
            let token = try await client.register("reader", zone: "Europe/Berlin")
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
            #expect(created.status == .created, "\(created.text)")
            for day in 9...13 {
                set(harness, day: day, hour: 9)
                let done = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}")
                #expect(done.status == .ok, "\(done.text)")
                _ = try await harness.state.runDueNotifications()
            }
            // The first check-in was a milestone: in the inbox at once.
            var listed = try await inbox(client, token)
            #expect(keys(listed).contains { $0.hasPrefix("milestone:") }, "\(listed.text)")
            let milestones = keys(listed).count

            // July 14: at 08:59 nothing; at 09:00 (the time of every check-in) the reminder.
            set(harness, day: 14, hour: 8, minute: 59)
            #expect(try await harness.state.runDueNotifications().sent == 0)
            set(harness, day: 14, hour: 9)
            #expect(try await harness.state.runDueNotifications().sent == 1)
            listed = try await inbox(client, token)
            let reminder = try #require((listed.json["notifications"] as? [[String: Any]])?.first)
            #expect(reminder["key"] as? String == "reminder:2026-07-14:read")
            #expect(reminder["kind"] as? String == "reminder")
            #expect(reminder["title"] as? String == "Time for Read")
            #expect(reminder["body"] as? String == "Keep your 5-day streak going.")
            #expect(reminder["url"] as? String == "/habits/read")
            #expect(listed.json["unread"] as? Int == milestones + 1)

            // 22:00, two hours before midnight: the streak is at risk. Once only.
            set(harness, day: 14, hour: 22)
            #expect(try await harness.state.runDueNotifications().sent == 1)
            #expect(try await harness.state.runDueNotifications().sent == 0)
            listed = try await inbox(client, token)
            let atRisk = try #require((listed.json["notifications"] as? [[String: Any]])?.first)
            #expect(atRisk["key"] as? String == "streak-at-risk:2026-07-14")
            #expect(atRisk["title"] as? String == "Your 5-day Read streak ends in 2 hours")

            // Done at 22:30. Preferences for the 15th: no at-risk warning, reminder at 20:15.
            set(harness, day: 14, hour: 22, minute: 30)
            _ = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}")
            let patched = try await client.call(
                .patch, "/v1/profile", token: token,
                json: #"{"notifications": {"streakAtRisk": false, "reminderTimes": {"read": "20:15"}}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            let preferences = try #require(patched.json["notifications"] as? [String: Any])
            #expect(preferences["reminderTimes"] as? [String: String] == ["read": "20:15"])
            set(harness, day: 15, hour: 20, minute: 14)
            #expect(try await harness.state.runDueNotifications().sent == 0)
            set(harness, day: 15, hour: 20, minute: 15)
            #expect(try await harness.state.runDueNotifications().sent == 1)
            #expect(keys(try await inbox(client, token)).first == "reminder:2026-07-15:read")

            // The server is down from 20:16 on the 15th to 08:00 on the 17th, and nothing
            // was done on the 16th: the reminder of the 16th no longer makes sense (dropped
            // and counted), and neither does its at-risk warning (turned off anyway).
            _ = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"streakAtRisk": true}}"#)
            set(harness, day: 15, hour: 21)
            _ = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: "{}")
            set(harness, day: 17, hour: 8)
            let pass = try await harness.state.runDueNotifications()
            #expect(pass.dropped == 2, "the reminder and the at-risk warning of the 16th")
            let metrics = try await client.call(.get, "/metrics").text.split(separator: "\n")
            let dropped = metrics.filter {
                $0.hasPrefix("momentum_notifications_total{") && $0.contains(#"kind="reminder""#)
                    && $0.contains(#"outcome="dropped""#) && $0.contains(#"channel="inbox""#)
            }
            #expect(dropped.count == 1 && dropped.first?.hasSuffix(" 1") == true, "\(dropped)")
        }
    }

    @Test func aUserWhoFliesToNewYorkIsWarnedByNewYorksEveningNotBerlins() async throws {
        try await ServerHarness.with { harness, client in
            // Checked in in Berlin on July 9 to 13 at 09:00 (07:00 UTC).
            set(harness, day: 9, hour: 8)
            let token = try await client.register("traveller", zone: "Europe/Berlin")
            let created = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON([habitCreated("read", at: harness.now)]))
            #expect(created.status == .ok, "\(created.text)")
            _ = try await client.call(
                .patch, "/v1/profile", token: token,
                json: #"{"notifications": {"reminders": false, "streakBroken": false, "freezes": false}}"#)
            for day in 9...13 {
                set(harness, day: day, hour: 9)
                let done = try await client.call(
                    .post, "/v1/events", token: token,
                    json: eventsJSON([completion("c\(day)", habit: "read", at: harness.now)]))
                #expect(done.status == .ok, "\(done.text)")
            }
            _ = try await harness.state.runDueNotifications()
            let before = Set(keys(try await inbox(client, token)))
            // July 14: she flies to New York and checks in there on the 14th (New York time).
            // Berlin's 22:00 passes without a warning: her day now ends at New York's midnight.
            let landed = Date(timeIntervalSince1970: 1_784_044_800)  // 2026-07-14T16:00Z, 12:00 in New York
            harness.clock.value.withLock { $0 = landed }
            let there = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([completion("c14", habit: "read", at: landed, zone: "America/New_York")]))
            #expect(there.status == .ok, "\(there.text)")
            _ = try await harness.state.runDueNotifications()
            // July 15, 22:00 in Berlin (20:00 UTC): still afternoon in New York; nothing.
            harness.clock.value.withLock { $0 = Date(timeIntervalSince1970: 1_784_145_600) }  // 2026-07-15T20:00Z
            _ = try await harness.state.runDueNotifications()
            #expect(Set(keys(try await inbox(client, token))) == before)
            // 22:00 in New York (02:00 UTC on the 16th): two hours before her day ends.
            harness.clock.value.withLock { $0 = Date(timeIntervalSince1970: 1_784_167_200) }  // 2026-07-16T02:00Z
            #expect(try await harness.state.runDueNotifications().sent == 1)
            let listed = try await inbox(client, token)
            let warning = try #require((listed.json["notifications"] as? [[String: Any]])?.first)
            #expect(warning["key"] as? String == "streak-at-risk:2026-07-15", "\(listed.text)")
            #expect(warning["at"] as? String == "2026-07-16T02:00:00Z")
        }
    }

    @Test func aHistoryBroughtInMakesOneNotificationForItsManyMilestones() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("mover", zone: "UTC")
            let now = harness.now
            let history =
                [habitCreated("walk", at: now - 40 * 86_400, zone: "UTC")]
                + (1...39).map { completion("h\($0)", habit: "walk", at: now - Double($0) * 86_400, zone: "UTC") }
            let imported = try await client.call(
                .post, "/v1/admin/imports",
                json: #"{"email": "mover@example.com", "events": [\#(history.joined(separator: ","))]}"#,
                headers: [.authorization: "Bearer mop_harness-owner"])
            #expect(imported.status == .ok)
            let unlocked = (imported.json["unlocks"] as? [Any])?.count ?? 0
            #expect(unlocked > 3, "\(imported.text.prefix(300))")
            let listed = try await inbox(client, token)
            let notifications = try #require(listed.json["notifications"] as? [[String: Any]])
            #expect(notifications.count == 1, "\(listed.text)")
            #expect(notifications.first?["title"] as? String == "\(unlocked) milestones reached")
            #expect((notifications.first?["body"] as? String)?.hasSuffix("See them all on your Journey.") == true)
            #expect(notifications.first?["url"] as? String == "/journey")
        }
    }

    @Test func theInboxPagesMarksReadAndIsNobodyElses() async throws {
        try await ServerHarness.with { harness, client in
            set(harness, day: 14, hour: 8)
            let token = try await client.register("reader", zone: "Europe/Berlin")
            let other = try await client.register("other", zone: "Europe/Berlin")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read"}"#)
            _ = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"reminderTimes": {"read": "08:30"}}}"#)
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"habit": "walk", "name": "Walk"}"#)
            _ = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"reminderTimes": {"walk": "08:45"}}}"#)
            set(harness, day: 14, hour: 9)
            #expect(try await harness.state.runDueNotifications().sent == 2)

            let first = try await inbox(client, token, query: "?limit=1")
            #expect(keys(first) == ["reminder:2026-07-14:walk"])
            let next = try #require(first.json["next"] as? String)
            let escaped = next.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["&", "+"]))!
            let second = try await inbox(client, token, query: "?limit=1&before=\(escaped)")
            #expect(keys(second) == ["reminder:2026-07-14:read"], "\(second.text)")
            let bad = try await inbox(client, token, query: "?before=yesterday")
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorFields == ["before"])
            #expect(try await inbox(client, token, query: "?limit=0").status == .unprocessableContent)

            let one = try await client.call(
                .post, "/v1/notifications/read", token: token, json: #"{"keys": ["reminder:2026-07-14:walk"]}"#)
            #expect(one.json["unread"] as? Int == 1)
            #expect(
                (try await inbox(client, token).json["notifications"] as? [[String: Any]])?.first?["readAt"] != nil)
            let all = try await client.call(.post, "/v1/notifications/read", token: token)
            #expect(all.status == .ok, "\(all.text)")
            #expect(all.json["unread"] as? Int == 0)
            let unknown = try await client.call(
                .post, "/v1/notifications/read", token: token, json: #"{"key": ["x"]}"#)
            #expect(unknown.status == .unprocessableContent)

            // Another user's inbox is empty, and they cannot mark these.
            #expect(keys(try await inbox(client, other)).isEmpty)
            #expect(try await client.call(.get, "/v1/notifications").status == .unauthorized)
            let badTime = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"notifications": {"reminderTimes": {"read": "25:00"}}}"#)
            #expect(badTime.status == .unprocessableContent)
            #expect(badTime.errorFields == ["notifications.reminderTimes"], "\(badTime.text)")
        }
    }
}
