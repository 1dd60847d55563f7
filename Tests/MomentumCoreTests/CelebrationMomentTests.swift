import Foundation
import MomentumCore
import Testing

/// Moments: what one input unlocks at once is celebrated most significant first, the rest
/// folded into it or following it (issue 45, seed 002's "Vacation goal at 100%: confetti
/// burst appears").
@Suite struct CelebrationMomentTests {
    static let now = RFC3339.parse("2026-03-10T12:00:00Z")!
    static let newYork = ZoneOffsetTable.named("America/New_York")!

    /// A new saver's goal and the contribution that completes it, through the savings pack,
    /// queued as the server queues them: with the catalog's messages, at `now`.
    static func goalCompleted(
        target: Double, _ preferences: CelebrationPreferences = .standard
    ) throws -> (planner: CelebrationPlanner, unlocks: [Unlock]) {
        var user = MomentumUser(pack: .savings)
        _ = try user.append(
            Event(
                id: "g", at: now.addingTimeInterval(-60), timeZone: "UTC",
                payload: .goal(SavingsGoal(id: "bali", name: "Bali", category: "vacation", target: target))),
            now: now)
        let (_, unlocks) = try user.append(
            Event(
                id: "c1", at: now.addingTimeInterval(-1), timeZone: "UTC",
                payload: .contribution(goal: "bali", amount: target, day: nil, note: nil)),
            now: now)
        var recent: [String] = []
        let messages = MessageCatalog.standard.messages(
            for: unlocks, subjects: [:], clock: DayClock(dayStartHour: 0), zone: newYork, recentTemplateIDs: &recent)
        var planner = CelebrationPlanner(preferences: preferences, zone: newYork, clock: DayClock(dayStartHour: 0))
        planner.startSession(id: "s1", at: now)
        planner.enqueue(unlocks, messages: messages.mapValues(\.text), at: now)
        return (planner, unlocks)
    }

    @Test(arguments: [500.0, 1_000])
    func aGoalReachedByItsFirstContributionCelebratesTheTripFirstWithTheRestAsLines(target: Double) throws {
        // Given Bali (Vacation) completed by its first contribution; at $1,000 it also crosses
        // the first savings milestone.
        var (planner, unlocks) = try Self.goalCompleted(target: target)
        let expectedLines =
            target >= 1_000 ? ["savings-small#1000", "first-contribution"] : ["first-contribution"]
        #expect(Set(unlocks.map(\.id)) == Set(expectedLines + ["goal-completed#bali"]))

        // When the page asks right after the contribution…
        let next = try #require(planner.next(at: Self.now))

        // …then the goal's full-screen trip celebration comes first, the rest as its lines.
        #expect(next.id == "goal-completed#bali")
        #expect(next.presentedTier == .major)
        #expect(next.config.particles?.type == .confetti)
        #expect(next.config.message?.contains("Bon voyage!") == true)
        #expect(next.folded.map(\.id) == expectedLines)
        #expect(next.folded.last?.message == "First contribution to Bali! 💰")
        #expect(next.folded.last?.badge == "🪙")

        // Shown, the whole moment leaves the queue; the lines count against no limit.
        let shown = planner.markShown(id: next.id, at: Self.now)
        #expect(shown)
        #expect(planner.pending.isEmpty)
        #expect(planner.notablesShownThisSession == 0)
        #expect(planner.majorsShownOnMajorDay == 1)
        #expect(
            planner.delivered.filter { $0.foldedInto == next.id }.map(\.unlockID).sorted() == expectedLines.sorted())
        // Done closes the lines with it.
        let dismissed = planner.dismiss(id: next.id, at: Self.now + 5)
        #expect(dismissed)
        #expect(planner.delivered.allSatisfy { $0.dismissedAt == Self.now + 5 })
    }

    @Test func aHeldGoalStillAcknowledgesItsFirstContributionAtOnce() throws {
        // Given Do Not Disturb on when the $1,000 goal is completed.
        var (planner, _) = try Self.goalCompleted(
            target: 1_000, CelebrationPreferences(doNotDisturb: true))

        // The acknowledgment is not an interruption: it shows alone, folding nothing.
        let ack = try #require(planner.next(at: Self.now))
        #expect(ack.id == "first-contribution")
        #expect(ack.folded.isEmpty)
        let shown = planner.markShown(id: ack.id, at: Self.now)
        #expect(shown)
        #expect(planner.next(at: Self.now) == nil)

        // Once Do Not Disturb ends, the trip comes with the milestone as its line.
        planner.setDoNotDisturb(false, at: Self.now + 60)
        let goal = try #require(planner.next(at: Self.now + 60))
        #expect(goal.id == "goal-completed#bali")
        #expect(goal.folded.map(\.id) == ["savings-small#1000"])
    }

    @Test func underTheMinimalStyleTheMomentFollowsItsMostSignificantAcknowledgment() throws {
        var (planner, _) = try Self.goalCompleted(target: 1_000, CelebrationPreferences(style: .minimal))
        var shown: [String] = []
        while let next = planner.next(at: Self.now) {
            #expect(next.presentedTier == .acknowledgment)
            #expect(next.folded.isEmpty)
            #expect(next.config.particles == nil)
            shown.append(next.id)
            planner.markShown(id: next.id, at: Self.now)
        }
        #expect(shown == ["goal-completed#bali", "savings-small#1000", "first-contribution"])
    }

    @Test func underTheSubtleStyleTheGoalsCardCarriesTheRestAndReduceMotionDropsOnlyParticles() throws {
        let preferences = CelebrationPreferences(
            style: .subtle, accessibility: CelebrationAccessibility(reduceMotion: true))
        var (planner, _) = try Self.goalCompleted(target: 1_000, preferences)
        let next = try #require(planner.next(at: Self.now))
        #expect(next.id == "goal-completed#bali")
        #expect(next.presentedTier == .notable)
        #expect(next.config.particles == nil)
        #expect(next.folded.map(\.id) == ["savings-small#1000", "first-contribution"])
        let shown = planner.markShown(id: next.id, at: Self.now)
        #expect(shown)
        #expect(planner.notablesShownThisSession == 1)
        #expect(planner.pending.isEmpty)
    }

    @Test func aThemedCelebrationLeadsAnUnthemedOneOfTheSameTier() {
        // Two tier-3 unlocks of one check-in: the category with a theme of its own leads,
        // whatever the queue order.
        var planner = CelebrationPlanner(zone: Self.newYork, clock: DayClock(dayStartHour: 0))
        func unlock(_ id: String, _ category: String) -> Unlock {
            Unlock(
                id: id, rule: id, title: id, category: category, tier: .major, milestoneType: "amount",
                value: 50_000, achievedAt: Self.now, achievedDay: LocalDay(year: 2026, month: 3, day: 10)!,
                detectedAt: Self.now, retroactive: false, event: "c9")
        }
        planner.enqueue([unlock("epic", "savings"), unlock("wedding", "wedding")], at: Self.now)
        let next = planner.next(at: Self.now)
        #expect(next?.id == "wedding")
        #expect(next?.folded.map(\.id) == ["epic"])
    }

    @Test func plannedCelebrationsWrittenBeforeMomentsStillDecode() throws {
        var (planner, _) = try Self.goalCompleted(target: 500)
        let next = try #require(planner.next(at: Self.now))
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(next)) as? [String: Any])
        object["folded"] = nil
        let decoded = try JSONDecoder().decode(
            PlannedCelebration.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.folded.isEmpty)
        #expect(decoded.id == next.id)
        planner.markShown(id: next.id, at: Self.now)
    }
}
