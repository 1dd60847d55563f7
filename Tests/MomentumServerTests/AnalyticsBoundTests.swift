import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// What one account can make the server's reads do is bounded: a device cannot create
/// habits that start before its account, analytics read at most
/// ``EventLimits/analyticsBudget`` habit-days however far back an account's history goes
/// and are computed once per version and day, and large reads (analytics, calendars of
/// years) wait for one of a few places while everyone else's reads are answered.
@Suite struct AnalyticsBoundTests {
    static let day: TimeInterval = 86_400

    /// A habit created now that starts on `start`.
    static func habit(_ id: String, at: Date, start: String) -> String {
        #"{"id": "create-\#(id)", "type": "habit.created", "at": "\#(RFC3339.format(at))", "tz": "UTC", "habit": "\#(id)", "name": "Old \#(id)", "start": "\#(start)"}"#
    }

    /// Habits started on 1970-01-01, brought in by the operator's import (the path that
    /// may carry history from before the account).
    static func importAncientHabits(
        _ count: Int, email: String, harness: ServerHarness, client: any TestClientProtocol
    ) async throws {
        let events = (0..<count).map { habit("h\($0)", at: harness.now, start: "1970-01-01") }
        let body = #"{"email": "\#(email)", "events": [\#(events.joined(separator: ","))]}"#
        let imported = try await client.call(
            .post, "/v1/admin/imports", json: body, headers: [.authorization: "Bearer mop_harness-owner"])
        let statuses = (imported.json["results"] as? [[String: Any]])?.map { $0["status"] as? String }
        #expect(statuses == Array(repeating: "applied", count: count), "\(imported.text.prefix(400))")
    }

    @Test func aPushCannotCreateHabitsThatStartBeforeTheAccount() async throws {
        try await ServerHarness.with { harness, client in
            // Given a fresh account, pushing 30 habits that start on 1970-01-01 as the
            // issue did (27 of them used to be stored, then 11, 8, 7, … per push),
            let token = try await client.register("ancient", zone: "UTC")
            let now = harness.now
            let events = (0..<30).map { Self.habit("h\($0)", at: now, start: "1970-01-01") }
            let push = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            #expect(push.status == .ok, "\(push.text)")
            // then every one is refused for its start, and nothing is stored.
            let results = try #require(push.json["results"] as? [[String: Any]])
            #expect(results.count == 30)
            let errors = results.compactMap { $0["error"] as? [String: Any] }
            #expect(errors.count == 30)
            #expect(Set(errors.compactMap { $0["code"] as? String }) == ["past_timestamp"])
            #expect(Set(errors.compactMap { $0["field"] as? String }) == ["start"])
            let message = errors.first?["message"] as? String ?? ""
            #expect(message.contains("before this account was created"), "\(message)")
            #expect((try await client.call(.get, "/v1/events", token: token).json["events"] as? [Any])?.isEmpty == true)
            // A habit that starts on the account's first day, or later, is stored.
            let today = DayClock().localDay(of: now, in: ZoneOffsetTable.named("UTC")!)
            let fine = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([Self.habit("walk", at: now, start: today.description)]))
            #expect((fine.json["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
        }
    }

    @Test func aHabitMayStartWithinTheOfflineWeekOfAnOlderAccount() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("older", zone: "UTC", daysAgo: 60, client: client)
            let now = harness.now
            let today = DayClock().localDay(of: now, in: ZoneOffsetTable.named("UTC")!)
            // Started six days ago (a phone offline for a week): stored. Started 30 days
            // ago: further back than the offline window (14 days for the habits pack).
            let push = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    Self.habit("recent", at: now, start: today.advanced(by: -6).description),
                    Self.habit("month", at: now, start: today.advanced(by: -30).description),
                ]))
            let results = try #require(push.json["results"] as? [[String: Any]])
            #expect(results.first?["status"] as? String == "applied", "\(push.text)")
            let error = try #require(results.last?["error"] as? [String: Any])
            #expect(error["code"] as? String == "past_timestamp")
            #expect(error["field"] as? String == "start")
            #expect((error["message"] as? String)?.contains("more than 14 days ago") == true, "\(error)")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func analyticsOfDecadesOfHabitsReadAtMostTheBudgetOncePerVersion(
        _ backend: ServerHarness.Backend
    )
        async throws
    {
        try await ServerHarness.with(backend: backend) { harness, client in
            // Given an account holding 12 habits that started in 1970 (about 246,000
            // habit-days by now, more than the budget),
            let token = try await client.register("historian", zone: "UTC")
            try await Self.importAncientHabits(12, email: "historian@example.com", harness: harness, client: client)
            let states = [harness.state] + harness.others
            func statistics() -> AnalyticsCache.Statistics {
                states.map { $0.services.dashboard.analyticsCache.statistics }.reduce(into: AnalyticsCache.Statistics())
                {
                    $0.hits += $1.hits
                    $0.computed += $1.computed
                    $0.analysedDays += $1.analysedDays
                    $0.largestAnalysis = max($0.largestAnalysis, $1.largestAnalysis)
                }
            }
            // when its analytics are read,
            let first = try await client.call(.get, "/v1/analytics", token: token)
            #expect(first.status == .ok)
            // then what the read analysed is bounded for the whole account: each habit's
            // last 200,000 / 12 days,
            let computed = statistics()
            #expect(computed.computed == 1)
            #expect(computed.largestAnalysis <= EventLimits.analyticsBudget)
            #expect(computed.largestAnalysis > EventLimits.analyticsBudget - 12)
            let window = EventLimits.analyticsBudget / 12
            let today = try #require((first.json["today"] as? String).flatMap(LocalDay.init(iso8601:)))
            let habits = try #require(first.json["habits"] as? [[String: Any]])
            #expect(habits.count == 12)
            for habit in habits {
                let weeks = habit["weeks"] as? [[String: Any]] ?? []
                let firstWeek = (weeks.first?["start"] as? String).flatMap(LocalDay.init(iso8601:))
                #expect(weeks.count <= window / 7 + 2, "\(weeks.count) weeks")
                #expect(firstWeek.map { $0 >= today.advanced(by: -window - 6) } == true)
            }
            // and reading it again, on every instance, computes nothing: the same answer
            // comes from the cache.
            for _ in states { _ = try await client.call(.get, "/v1/analytics", token: token) }
            let again = try await client.call(.get, "/v1/analytics", token: token)
            #expect(again.body == first.body)
            #expect(statistics().computed == states.count)
            #expect(statistics().hits == 2)
            // The statistics and a habit's detail read the same analytics.
            #expect(try await client.call(.get, "/v1/stats", token: token).status == .ok)
            #expect(try await client.call(.get, "/v1/habits/h0", token: token).status == .ok)
            #expect(statistics().computed == states.count)
            // A write makes a new version: the next read computes again.
            let renamed = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    #"{"id": "rename", "type": "habit.updated", "at": "\#(RFC3339.format(harness.now))", "tz": "UTC", "habit": "h0", "name": "Older"}"#
                ]))
            #expect((renamed.json["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
            let after = try await client.call(.get, "/v1/analytics", token: token)
            #expect(after.status == .ok)
            #expect(after.text.contains("Older"))
            #expect(statistics().computed == states.count + 1)
        }
    }

    @Test(.enabled(if: ServerHarness.instances == 1, "the places are per instance"))
    func largeReadsWaitForAPlaceWhileOtherReadsAreAnswered() async throws {
        try await ServerHarness.with(configure: {
            $0.largeReadConcurrency = 1
            $0.largeReadQueueWait = .milliseconds(50)
        }) { harness, client in
            // Given an account with seven habits from 1970 (143,000 habit-days of history)
            // and one with a habit of today,
            let large = try await client.register("large", zone: "UTC")
            try await Self.importAncientHabits(7, email: "large@example.com", harness: harness, client: client)
            let small = try await client.register("small", zone: "UTC")
            _ = try await client.call(
                .post, "/v1/events", token: small, json: eventsJSON([habitCreated("walk", at: harness.now)]))
            // while the only place for large reads is taken,
            let dashboard = harness.state.services.dashboard
            #expect(await dashboard.largeReads.acquire(waitingAtMost: .zero))
            // the large account's analytics, and its habits with ten years of calendar
            // (25,550 habit-days), wait, then are refused with Retry-After,
            for path in ["/v1/analytics", "/v1/habits?days=3650", "/v1/habits/h0?days=3650"] {
                let busy = try await client.call(.get, path, token: large)
                #expect(busy.status == .tooManyRequests, "\(path)")
                #expect((busy.json["error"] as? [String: Any])?["code"] as? String == "read_busy")
                #expect(busy.headers[.retryAfter] != nil)
            }
            #expect(dashboard.analyticsCache.statistics.busy == 3)
            // while its small reads and everyone else's are answered.
            #expect(try await client.call(.get, "/v1/analytics", token: small).status == .ok)
            #expect(try await client.call(.get, "/v1/habits?days=3650", token: small).status == .ok)
            #expect(try await client.call(.get, "/v1/today", token: small).status == .ok)
            #expect(try await client.call(.get, "/v1/today", token: large).status == .ok)
            #expect(try await client.call(.get, "/v1/habits?days=90", token: large).status == .ok)
            // Once the place is free, the large reads are answered.
            dashboard.largeReads.release()
            #expect(try await client.call(.get, "/v1/analytics", token: large).status == .ok)
            #expect(try await client.call(.get, "/v1/habits?days=3650", token: large).status == .ok)
            #expect(dashboard.analyticsCache.statistics.computed == 2)
        }
    }
}
