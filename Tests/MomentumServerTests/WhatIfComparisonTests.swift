import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServices

/// The comparison of one user's log under the pack in force and under a candidate: pure,
/// on generated logs.
struct WhatIfComparisonTests {
    /// Generated logs of 1 to 4 habits over 40 to 200 days, one per seed.
    static func scenarios(_ count: Int) -> [(log: [StoredEvent], now: Date)] {
        var rng = SplitMix64(seed: 49)
        return (0..<count).map { _ in
            var options = LogGenerator.Options()
            options.habits = Int(rng.next() % 4) + 1
            options.days = Int(rng.next() % 160) + 40
            options.completionRate = 0.6 + Double(rng.next() % 40) / 100
            options.purchaseRate = 0
            options.seed = rng.next()
            let events = LogGenerator(options).events()
            let log = events.enumerated().map { StoredEvent(seq: Int64($0 + 1), event: $1, receivedAt: $1.at) }
            return (log, (events.last?.at ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(86_400))
        }
    }

    static let profile = Profile(displayName: "P", updatedAt: Date(timeIntervalSince1970: 0))

    @Test func aCandidateEqualToThePackInForceChangesNothing() {
        for (log, now) in Self.scenarios(16) {
            let change = WhatIfReplay.change(log, current: .habits, candidate: .habits, profile: Self.profile, now: now)
            #expect(change.isEmpty, "\(change)")
            #expect(!change.takesRewards)
        }
    }

    @Test func aCandidateWithoutARuleLosesExactlyThatRulesUnlocks() {
        let rules = RulePack.habits.achievements.map(\.id)
        var checked = 0
        for (index, (log, now)) in Self.scenarios(16).enumerated() {
            let removed = rules[index % rules.count]
            var candidate = RulePack.habits
            candidate.achievements.removeAll { $0.id == removed }
            var current = WhatIfReplay.engine(log, pack: .habits, dayStartHour: 0)
            let before = RewardSnapshot(&current, at: now)
            let change = WhatIfReplay.change(
                log, current: before, candidate: candidate, profile: Self.profile, now: now)
            let expected = Set(before.unlocks.values.filter { $0.rule == removed }.map(\.id))
            #expect(Set(change.lost.map(\.id)) == expected, "rule \(removed)")
            #expect(change.gained.isEmpty)
            #expect(change.diamonds == 0 && change.freezes == 0 && change.diamondsEarned == 0)
            #expect(change.takesRewards == !expected.isEmpty)
            if !expected.isEmpty { checked += 1 }
        }
        // The property was held where it says something: rules that had fired.
        #expect(checked >= 8)
    }

    @Test func aCandidateWithoutRewardsMovesTheDiamondsAndFreezesRewardsEarned() throws {
        var candidate = RulePack.habits
        candidate.rewards = []
        candidate.earnedFreezeEvery = nil
        let (log, now) = try #require(Self.scenarios(16).max { $0.log.count < $1.log.count })
        var current = WhatIfReplay.engine(log, pack: .habits, dayStartHour: 0)
        let before = RewardSnapshot(&current, at: now)
        #expect(before.diamondsEarned > 0)
        let change = WhatIfReplay.change(log, current: before, candidate: candidate, profile: Self.profile, now: now)
        #expect(change.diamondsEarned == -before.diamondsEarned)
        #expect(change.freezesEarned == -before.freezesEarned)
        #expect(change.diamonds < 0)
        #expect(change.takesRewards && change.lost.isEmpty)
    }

    @Test func gainsAreCelebratedOnlyWhereTheUsersStyleShowsThem() throws {
        var current = RulePack.habits
        current.achievements.removeAll { $0.id == "streak-7" }
        let (log, now) = try #require(Self.scenarios(16).max { $0.log.count < $1.log.count })
        let shown = WhatIfReplay.change(log, current: current, candidate: .habits, profile: Self.profile, now: now)
        #expect(!shown.gained.isEmpty && shown.gained.allSatisfy { $0.rule == "streak-7" })
        #expect(shown.celebrations == shown.gained.count)
        var quiet = Self.profile
        quiet.preferences.style = .off
        let hidden = WhatIfReplay.change(log, current: current, candidate: .habits, profile: quiet, now: now)
        #expect(hidden.gained == shown.gained && hidden.celebrations == 0)
    }

    @Test func aReportCountsUsersPerRuleAndNamesAtMostFiveOfThem() {
        let day = Date(timeIntervalSince1970: 1_784_000_000)
        func unlock(_ rule: String, _ key: String) -> RewardUnlock {
            RewardUnlock(
                Unlock(
                    id: key, rule: rule, title: "T \(rule)", category: "streaks", tier: .notable,
                    milestoneType: "streak", achievedAt: day, achievedDay: LocalDay(year: 2026, month: 7, day: 14)!,
                    detectedAt: day, retroactive: false))
        }
        var report = WhatIfReport()
        for index in 0..<8 {
            // Two unlocks of one rule lost: one user losing it, counted once.
            let change = RewardChange(
                gained: [unlock("new", "new")], lost: [unlock("old", "old#1"), unlock("old", "old#2")],
                celebrations: 1, diamonds: -20, freezes: 0, diamondsEarned: -20, freezesEarned: 0)
            report.add(change, of: "u_\(index)")
        }
        report.add(
            RewardChange(
                gained: [], lost: [], celebrations: 0, diamonds: 0, freezes: 0, diamondsEarned: 0, freezesEarned: 0),
            of: "u_same")
        #expect(report.users == 9 && report.changed == 8)
        #expect(report.rules["old"]?.losing == 8 && report.rules["new"]?.gaining == 8)
        #expect(report.rules["old"]?.losingExamples.map(\.user) == ["u_0", "u_1", "u_2", "u_3", "u_4"])
        #expect(report.rules["old"]?.title == "T old")
        #expect(report.celebrations.sum == 8 && report.celebrations.users == 8)
        #expect(report.diamonds.sum == -160 && report.diamonds.examples.count == 5)
        #expect(report.kept.users == 8 && report.kept.unlocks == 16 && report.kept.diamonds == 160)
    }

    @Test func aRandomSampleRanksUsersTheSameWayEveryTime() throws {
        let sample = WhatIfSample(count: 3, seed: 7)
        #expect(sample.rank(of: "u_a") == WhatIfSample(count: 9, seed: 7).rank(of: "u_a"))
        #expect(sample.rank(of: "u_a") != WhatIfSample(count: 3, seed: 8).rank(of: "u_a"))
        #expect(WhatIfSample.stored(sample.json) == sample)
        #expect(throws: ServiceError.self) { try WhatIfSample(count: 3, users: ["u_a"]).validate() }
        #expect(throws: ServiceError.self) { try WhatIfSample(count: 0).validate() }
        #expect(throws: ServiceError.self) { try WhatIfSample(count: 1_001).validate() }
        #expect(throws: ServiceError.self) { try WhatIfSample(seed: 4).validate() }
        #expect(throws: ServiceError.self) { try WhatIfSample(users: []).validate() }
        #expect(throws: ServiceError.self) { try WhatIfSample(users: [""]).validate() }
        try WhatIfSample(count: 1_000, seed: -3).validate()
        try WhatIfSample.all.validate()
    }
}
