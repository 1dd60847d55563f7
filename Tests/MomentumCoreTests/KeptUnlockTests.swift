import Foundation
import MomentumCore
import Testing

/// `rewards.kept`'s unlocks: earned under a pack's earlier version, kept when a new version
/// no longer earns them, and never celebrated again.
struct KeptUnlockTests {
    static let zone = "Europe/Berlin"
    static let start = Date(timeIntervalSince1970: 1_771_059_600)  // 2026-02-14 09:00 UTC

    static func event(_ id: String, hours: Double, _ payload: Event.Payload) -> Event {
        Event(id: id, at: start.addingTimeInterval(hours * 3600), timeZone: zone, payload: payload)
    }

    static let journal: [Event] = [
        event(
            "s", hours: 0,
            .subject(
                Subject(
                    id: "ollie", name: "Ollie", kind: "puppy",
                    dates: ["born": LocalDay(year: 2025, month: 12, day: 20)!]))),
        event("p1", hours: 1, .activity(Activity(kind: "potty", item: "outdoor", subject: "ollie"))),
    ]

    /// The `ollie` pack without its first-outdoor-potty rule: a version that no longer earns it.
    static var withoutFirstOutdoor: RulePack {
        var pack = RulePack.ollie
        pack.achievements.removeAll { $0.id == "potty-first-outdoor" }
        return pack
    }

    static func unlocks(_ pack: RulePack, _ events: [Event]) -> [Unlock] {
        var user = MomentumUser(pack: pack)
        return user.replay(events, now: start.addingTimeInterval(48 * 3600))
    }

    static func kept(from earned: [Unlock]) -> Event {
        event(
            "kept", hours: 2,
            .rewardsKept(
                KeptRewards(
                    pack: "ollie", version: "1.1.0",
                    unlocks: earned.map { .init(rule: $0.rule, key: $0.id, title: $0.title, at: $0.achievedAt) },
                    diamondsEarned: 0, freezesEarned: 0)))
    }

    @Test func anUnlockANewVersionNoLongerEarnsIsKept() throws {
        let earned = Self.unlocks(.ollie, Self.journal)
        let first = try #require(earned.first { $0.rule == "potty-first-outdoor" })
        #expect(!Self.unlocks(Self.withoutFirstOutdoor, Self.journal).contains { $0.id == first.id })

        let after = Self.unlocks(Self.withoutFirstOutdoor, Self.journal + [Self.kept(from: earned)])
        let kept = try #require(after.first { $0.id == first.id })
        #expect(kept.title == first.title)
        #expect(kept.achievedAt == first.achievedAt)
        #expect(kept.milestoneType == AchievementEngine.keptMilestoneType)
        #expect(kept.retroactive)
        #expect(after.filter { $0.id == first.id }.count == 1)
    }

    @Test func underTheRulesThatEarnedThemKeptUnlocksChangeNothing() {
        let earned = Self.unlocks(.ollie, Self.journal)
        #expect(Self.unlocks(.ollie, Self.journal + [Self.kept(from: earned)]) == earned)
    }

    @Test func aKeptUnlockIsNeverAnnouncedAsNew() throws {
        let earned = Self.unlocks(.ollie, Self.journal)
        var user = MomentumUser(pack: Self.withoutFirstOutdoor)
        for event in Self.journal { _ = try user.append(event, now: Self.start.addingTimeInterval(3 * 3600)) }
        let (result, announced) = try user.append(
            Self.kept(from: earned), now: Self.start.addingTimeInterval(3 * 3600))
        #expect(result == .applied)
        #expect(announced.isEmpty)
        #expect(user.unlocks.contains { $0.rule == "potty-first-outdoor" })
    }
}
