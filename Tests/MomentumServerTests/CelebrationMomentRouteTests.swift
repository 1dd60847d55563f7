import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

/// The contribution that completes a goal over HTTP: the goal's themed celebration is the
/// one to show, right after the push and at the next sign-in, with the goal's first
/// contribution as its line (issue 45).
struct CelebrationMomentRouteTests {
    static func event(_ id: String, at: Date, _ fields: String) -> String {
        #"{"id": "\#(id)", "at": "\#(RFC3339.format(at))", "tz": "UTC", \#(fields)}"#
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aGoalReachedIsTheCelebrationToShowWithItsFirstContributionAsALine(
        _ backend: ServerHarness.Backend
    ) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("saver", zone: "UTC", daysAgo: 1, client: client)
            let profile = try await client.call(.patch, "/v1/profile", token: token, json: #"{"pack": "savings"}"#)
            #expect(profile.status == .ok, "\(profile.text)")
            let now = harness.now
            let pushed = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    Self.event(
                        "g1", at: now.addingTimeInterval(-30),
                        #""type": "goal", "goal": "bali", "name": "Bali", "category": "vacation", "target": 500"#),
                    Self.event(
                        "c1", at: now.addingTimeInterval(-10), #""type": "contribution", "goal": "bali", "amount": 500"#
                    ),
                ]))
            #expect(pushed.status == .ok, "\(pushed.text)")

            // Right after the contribution (the page asks), and at a sign-in (a new session).
            for answer in [
                try await client.call(.get, "/v1/celebrations/next", token: token),
                try await client.call(
                    .post, "/v1/celebrations/sessions", token: token, json: #"{"session": "signed-in"}"#),
            ] {
                #expect(answer.status == .ok, "\(answer.text)")
                let celebration = try #require(answer.json["celebration"] as? [String: Any], "\(answer.text)")
                #expect(celebration["id"] as? String == "goal-completed#bali")
                #expect(celebration["presentedTier"] as? Int == 3)
                let config = try #require(celebration["config"] as? [String: Any])
                #expect((config["particles"] as? [String: Any])?["type"] as? String == "confetti")
                #expect((config["message"] as? String)?.contains("Bon voyage!") == true, "\(answer.text)")
                let folded = try #require(celebration["folded"] as? [[String: Any]], "\(answer.text)")
                #expect(folded.map { $0["id"] as? String } == ["first-contribution"])
                #expect(folded.first?["message"] as? String == "First contribution to Bali! 💰")
                #expect(answer.json["waiting"] as? Int == 2)
            }

            // Shown, the moment leaves the queue whole.
            let id = "goal-completed%23bali"
            #expect(try await client.call(.post, "/v1/celebrations/\(id)/shown", token: token).status == .noContent)
            let after = try await client.call(.get, "/v1/celebrations/next", token: token)
            #expect(after.json["celebration"] == nil, "\(after.text)")
            #expect(after.json["waiting"] as? Int == 0, "\(after.text)")
            #expect(try await client.call(.post, "/v1/celebrations/\(id)/dismissed", token: token).status == .noContent)
        }
    }
}
