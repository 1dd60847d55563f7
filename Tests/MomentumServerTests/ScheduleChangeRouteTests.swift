import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// A schedule changed over HTTP and from the habit's page.
struct ScheduleChangeRouteTests {
    @Test(arguments: ServerHarness.Backend.allCases)
    func aPatchChangesTheScheduleFromTodayOn(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("ada", daysAgo: 3, client: client)
            let now = harness.now
            let events =
                [habitCreated("run", at: now.addingTimeInterval(-2 * 86_400))]
                + (1...2).map { completion("c\($0)", habit: "run", at: now.addingTimeInterval(Double(-$0) * 86_400)) }
            #expect(try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events)).status == .ok)
            let patched = try await client.call(
                .patch, "/v1/habits/run", token: token, json: #"{"schedule": {"kind": "timesPerWeek", "count": 3}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            let definition = try #require(patched.json["definition"] as? [String: Any])
            #expect((definition["schedule"] as? [String: Any])?["kind"] as? String == "timesPerWeek")
            #expect(patched.json["current"] as? Int == 2)
            let bad = try await client.call(
                .patch, "/v1/habits/run", token: token, json: #"{"schedule": {"kind": "timesPerWeek", "count": 12}}"#)
            #expect(bad.status == .unprocessableContent || bad.status == .badRequest, "\(bad.text)")
            #expect(bad.text.contains("timesPerWeek count must be 1…7"))

            let cookie = try await client.signInCookie("ada")
            let page = try await client.call(.get, "/habits/run", headers: [.cookie: cookie])
            #expect(page.text.contains(#"<option value="3" selected>3 times a week</option>"#))
            #expect(page.text.contains("A new schedule holds from today"))
        }
    }
}
