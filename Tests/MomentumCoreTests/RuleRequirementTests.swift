import Foundation
import MomentumCore
import Testing

/// Rules that require others (`requires`): held until every required rule has unlocked, then
/// released right after the unlock that completes them.
struct RuleRequirementTests {
    static let zone = "UTC"
    static let start = Date(timeIntervalSince1970: 1_779_840_000)

    static func rule(
        _ id: String, _ kind: AchievementRule.Kind = .first, match: String, at: [Double]? = nil,
        requires: [String]? = nil
    ) -> AchievementRule {
        AchievementRule(
            id: id, kind: kind, title: kind == .count ? "{value} \(match)s" : id, category: "c", tier: .acknowledgment,
            badge: "b", match: AchievementRule.Match(kind: match), at: at, requires: requires)
    }

    /// An event `kind` at noon of day `day` (day 0 is ``start``).
    static func event(_ id: String, _ kind: String, day: Int) -> Event {
        Event(
            id: id, at: start.addingTimeInterval(Double(day) * 86_400 + 43_200), timeZone: zone,
            payload: .activity(Activity(kind: kind)))
    }

    /// "Puppy pro": a swim, once the first walk and a three-day walking streak have unlocked.
    static let puppy = [
        rule("first-walk", match: "walk"), rule("walk-streak-3", .streak, match: "walk", at: [3]),
        rule("puppy-pro", match: "swim", requires: ["first-walk", "walk-streak-3"]),
    ]

    static func process(_ engine: inout AchievementEngine, _ event: Event) -> [Unlock] {
        engine.process(event, detectedAt: event.at)
    }

    @Test func anUnlockIsHeldUntilItsRequirementsUnlockThenReleasedRightAfterTheLast() {
        var engine = AchievementEngine(rules: Self.puppy)
        // Given a swim before any walk: its condition is met, its requirements are not.
        #expect(Self.process(&engine, Self.event("s1", "swim", day: 0)).isEmpty)
        // When the first walk unlocks, one requirement of two is met: still held.
        #expect(Self.process(&engine, Self.event("w1", "walk", day: 0)).map(\.rule) == ["first-walk"])
        #expect(Self.process(&engine, Self.event("w2", "walk", day: 1)).isEmpty)
        // Then the streak's unlock releases it, on the same event, right after it.
        let third = Self.event("w3", "walk", day: 2)
        let released = Self.process(&engine, third)
        #expect(released.map(\.rule) == ["walk-streak-3", "puppy-pro"])
        #expect(released.last?.achievedAt == third.at)
        #expect(released.last?.achievedDay == released.first?.achievedDay)
        #expect(released.last?.event == "w3")
        #expect(released.last?.retroactive == false)
        #expect(engine.unlocks.map(\.rule) == ["first-walk", "walk-streak-3", "puppy-pro"])
        // A rule unlocks once, requirements or not.
        #expect(Self.process(&engine, Self.event("s2", "swim", day: 3)).isEmpty)
    }

    @Test func requirementsAlreadyMetUnlockAsBefore() {
        var engine = AchievementEngine(rules: Self.puppy)
        for day in 0..<3 { _ = Self.process(&engine, Self.event("w\(day)", "walk", day: day)) }
        let swim = Self.event("s1", "swim", day: 3)
        let unlocked = Self.process(&engine, swim)
        #expect(unlocked.map(\.rule) == ["puppy-pro"])
        #expect(unlocked.first?.achievedAt == swim.at)
        #expect(unlocked.first?.event == "s1")
    }

    @Test func aChainOfThreeIsReleasedInOrderByTheFirst() {
        let rules = [
            Self.rule("c", match: "swim", requires: ["b"]), Self.rule("b", match: "run", requires: ["a"]),
            Self.rule("a", match: "walk"),
        ]
        var engine = AchievementEngine(rules: rules)
        #expect(Self.process(&engine, Self.event("s", "swim", day: 0)).isEmpty)
        #expect(Self.process(&engine, Self.event("r", "run", day: 1)).isEmpty)
        let walk = Self.event("w", "walk", day: 2)
        let unlocked = Self.process(&engine, walk)
        #expect(unlocked.map(\.rule) == ["a", "b", "c"])
        #expect(unlocked.allSatisfy { $0.achievedAt == walk.at && $0.event == "w" })
    }

    @Test func eachOccurrenceOfARepeatedRuleIsHeldWithItsOwnValue() {
        let rules = [
            Self.rule("first-walk", match: "walk"),
            Self.rule("swims", .count, match: "swim", at: [2, 4], requires: ["first-walk"]),
        ]
        var engine = AchievementEngine(rules: rules)
        for n in 0..<5 { #expect(Self.process(&engine, Self.event("s\(n)", "swim", day: n)).isEmpty) }
        let unlocked = Self.process(&engine, Self.event("w", "walk", day: 5))
        #expect(unlocked.map(\.rule) == ["first-walk", "swims", "swims"])
        #expect(unlocked.dropFirst().map(\.value) == [2, 4])
        #expect(unlocked.dropFirst().map(\.title) == ["2 swims", "4 swims"])
        // Later occurrences are not held any more.
        engine = AchievementEngine(
            rules: [Self.rule("first-walk", match: "walk")]
                + [Self.rule("swims", .count, match: "swim", at: [1, 2], requires: ["first-walk"])])
        _ = Self.process(&engine, Self.event("w", "walk", day: 0))
        #expect(Self.process(&engine, Self.event("s1", "swim", day: 1)).map(\.value) == [1])
        #expect(Self.process(&engine, Self.event("s2", "swim", day: 2)).map(\.value) == [2])
    }

    @Test func aRequirementFoundByAReplayReleasesAtTheHeldUnlocksOwnLaterMoment() {
        var engine = AchievementEngine(rules: [
            Self.rule("first-walk", match: "walk"), Self.rule("pro", match: "swim", requires: ["first-walk"]),
        ])
        let swim = Self.event("s", "swim", day: 5)
        #expect(Self.process(&engine, swim).isEmpty)
        // A walk that happened on day 1 arrives on day 6: the engine replays.
        let walk = Self.event("w", "walk", day: 1)
        let unlocked = engine.process(walk, detectedAt: Self.start.addingTimeInterval(6 * 86_400))
        #expect(unlocked.map(\.rule) == ["first-walk", "pro"])
        // The swim met its condition after the walk: it keeps its own moment and event.
        #expect(unlocked.last?.achievedAt == swim.at)
        #expect(unlocked.last?.event == "s")
        #expect(unlocked.allSatisfy { $0.retroactive })
    }

    @Test func aPackWithRequirementsDecodesAndOneWithoutComputesAsBefore() throws {
        let json = #"""
            {"name": "puppy", "achievements": [
              {"id": "first-walk", "kind": "first", "title": "W", "category": "c", "tier": 1, "match": {"kind": "walk"}},
              {"id": "pro", "kind": "first", "title": "P", "category": "c", "tier": 3, "match": {"kind": "swim"},
               "requires": ["first-walk"]}]}
            """#
        let pack = try RulePack.decode(Data(json.utf8), source: "test")
        #expect(pack.achievements.map(\.requires) == [nil, ["first-walk"]])
        let encoded = try JSONEncoder().encode(pack)
        let decoded = try JSONDecoder().decode(RulePack.self, from: encoded)
        #expect(decoded.achievements[1].requires == ["first-walk"])
    }
}
