import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

/// The celebration planner: seed 000's tiers, style mapping, fatigue limits and smart timing.
@Suite struct CelebrationPlannerTests {
    static let newYork = ZoneOffsetTable.named("America/New_York")!
    static let kathmandu = ZoneOffsetTable.named("Asia/Kathmandu")!

    /// An instant given in UTC.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let days = LocalDay(year: year, month: month, day: day)!.number
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60))
    }

    /// 2026-03-10 12:00 UTC, the start of most scenarios.
    static let start = utc(2026, 3, 10, 12)

    /// `seconds` after ``start``.
    static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    static func unlock(
        _ id: String, _ tier: CelebrationTier, category: String = "vacation", achievedAt: Date = start,
        retroactive: Bool = false
    ) -> Unlock {
        Unlock(
            id: id, rule: id, title: id, category: category, tier: tier, milestoneType: "count", value: 1,
            achievedAt: achievedAt, achievedDay: LocalDay(number: 20_522), detectedAt: achievedAt,
            retroactive: retroactive)
    }

    static func planner(
        _ preferences: CelebrationPreferences = .standard, zone: ZoneOffsetTable = newYork, dayStartHour: Int = 0
    ) -> CelebrationPlanner {
        CelebrationPlanner(preferences: preferences, zone: zone, clock: DayClock(dayStartHour: dayStartHour))
    }

    /// Shows whatever is due at `instant`, returning its id.
    static func showNext(_ planner: inout CelebrationPlanner, at instant: Date) -> String? {
        guard let next = planner.next(at: instant) else { return nil }
        let marked = planner.markShown(id: next.id, at: instant)
        #expect(marked)
        return next.id
    }

    // MARK: Tiers and limits

    @Test func acknowledgmentsAreUnlimitedAndShowEvenDuringBurstsAndDoNotDisturb() {
        var planner = Self.planner()
        planner.setDoNotDisturb(true, at: Self.at(0))
        planner.recordActivity(at: Self.at(0))
        planner.enqueue((1...12).map { Self.unlock("ack-\($0)", .acknowledgment) }, at: Self.at(0))

        var shown: [String] = []
        while let id = Self.showNext(&planner, at: Self.at(1)) { shown.append(id) }

        #expect(shown == (1...12).map { "ack-\($0)" })
        #expect(planner.pending.isEmpty)
        #expect(planner.delivered.allSatisfy { $0.presentedTier == .acknowledgment && $0.wasShown })
    }

    @Test func onlyOneCardPerSessionTheSecondWaitsForTheNextSession() {
        var planner = Self.planner()
        planner.startSession(id: "s1", at: Self.at(0))
        // Two moments, a second apart.
        planner.enqueue(
            [Self.unlock("first", .notable), Self.unlock("second", .notable, achievedAt: Self.at(1))], at: Self.at(0))

        #expect(Self.showNext(&planner, at: Self.at(0)) == "first")
        // Long after the spacing, the session's card has been used.
        #expect(planner.next(at: Self.at(3600)) == nil)
        #expect(planner.nextDeliveryDate(at: Self.at(3600)) == nil)
        // Restarting the same session changes nothing.
        planner.startSession(id: "s1", at: Self.at(3600))
        #expect(planner.next(at: Self.at(3600)) == nil)

        planner.startSession(id: "s2", at: Self.at(7200))
        #expect(Self.showNext(&planner, at: Self.at(7200)) == "second")
        #expect(planner.delivered.map(\.sessionID) == ["s1", "s2"])
    }

    @Test func onlyOneFullScreenPerLocalDayTheSecondOnTheNextLocalDay() {
        // Given Kathmandu (UTC+05:45) and a day that starts at 03:00.
        var planner = Self.planner(zone: Self.kathmandu, dayStartHour: 3)
        planner.enqueue(
            [Self.unlock("first", .major), Self.unlock("second", .major, achievedAt: Self.at(1))],
            at: Self.utc(2026, 3, 10, 19))

        // When the first is shown at 01:00 on 11 March local time (still the user's 10 March)…
        let firstShown = Self.utc(2026, 3, 10, 19, 15)
        #expect(Self.showNext(&planner, at: firstShown) == "first")
        #expect(planner.delivered.first?.shownDay == LocalDay(year: 2026, month: 3, day: 10))

        // …then the second waits, even in a new session, until 03:00 local (21:15 UTC).
        planner.startSession(id: "later", at: Self.utc(2026, 3, 10, 20))
        #expect(planner.next(at: Self.utc(2026, 3, 10, 21, 14)) == nil)
        #expect(planner.nextDeliveryDate(at: Self.utc(2026, 3, 10, 20)) == Self.utc(2026, 3, 10, 21, 15))
        #expect(Self.showNext(&planner, at: Self.utc(2026, 3, 10, 21, 15)) == "second")
        #expect(planner.delivered.last?.shownDay == LocalDay(year: 2026, month: 3, day: 11))
    }

    @Test func aHeldCelebrationDoesNotHoldBackOthersThatAreDue() {
        var planner = Self.planner()
        planner.startSession(id: "s1", at: Self.at(0))
        planner.enqueue([Self.unlock("card", .notable)], at: Self.at(0))
        #expect(Self.showNext(&planner, at: Self.at(0)) == "card")
        planner.enqueue(
            [
                Self.unlock("held", .notable), Self.unlock("big", .major, achievedAt: Self.at(1)),
                Self.unlock("ack", .acknowledgment, achievedAt: Self.at(2)),
            ], at: Self.at(10))

        #expect(Self.showNext(&planner, at: Self.at(10)) == "ack")
        #expect(planner.next(at: Self.at(30)) == nil)
        #expect(Self.showNext(&planner, at: Self.at(60)) == "big")
        #expect(planner.pending.map(\.id) == ["held"])
    }

    // MARK: Style

    @Test(arguments: [
        (CelebrationStyle.full, [CelebrationTier.acknowledgment, .notable, .major]),
        (.subtle, [.acknowledgment, .acknowledgment, .notable]),
        (.minimal, [.acknowledgment, .acknowledgment, .acknowledgment]),
    ])
    func styleMapsTheTierWhenShown(style: CelebrationStyle, presented: [CelebrationTier]) throws {
        for (earned, expected) in zip(CelebrationTier.allCases, presented) {
            var planner = Self.planner(CelebrationPreferences(style: style))
            let decision = planner.enqueue([Self.unlock("u", earned)], at: Self.at(0))
            #expect(decision.map(\.presentedTier) == [expected])
            #expect(decision.map(\.createsMemory) == [earned >= .notable])

            let next = try #require(planner.next(at: Self.at(0)))
            #expect(next.originalTier == earned)
            #expect(next.presentedTier == expected)
            #expect(next.config.tier == expected)
        }
    }

    @Test func styleOffShowsNothingButStillFlagsMemories() {
        var planner = Self.planner(CelebrationPreferences(style: .off))
        let decisions = planner.enqueue(
            [Self.unlock("a", .acknowledgment), Self.unlock("b", .notable), Self.unlock("c", .major)], at: Self.at(0))

        #expect(decisions.map(\.unlockID) == ["a", "b", "c"])
        #expect(decisions.map(\.presentedTier) == [nil, nil, nil])
        #expect(decisions.map(\.createsMemory) == [false, true, true])
        #expect(decisions.allSatisfy { $0.disposition == .notShown })
        #expect(planner.pending.isEmpty)
        #expect(planner.next(at: Self.at(3600)) == nil)
        #expect(planner.nextDeliveryDate(at: Self.at(3600)) == nil)
    }

    @Test func turningTheStyleOffHoldsWhatIsQueued() {
        var planner = Self.planner()
        planner.enqueue([Self.unlock("a", .acknowledgment)], at: Self.at(0))
        planner.preferences.style = .off
        #expect(planner.next(at: Self.at(0)) == nil)
        planner.preferences.style = .minimal
        #expect(planner.next(at: Self.at(0))?.id == "a")
    }

    // MARK: Timing

    @Test func noCardDuringALoggingBurstDeliveredAtThePause() {
        var planner = Self.planner()
        planner.recordActivity(at: Self.at(0))
        planner.enqueue(
            [Self.unlock("card", .notable), Self.unlock("big", .major, achievedAt: Self.at(1))], at: Self.at(1))

        // The user keeps logging every 20 seconds for two minutes.
        for second in stride(from: 20.0, through: 120, by: 20) {
            #expect(planner.next(at: Self.at(second - 1)) == nil)
            planner.recordActivity(at: Self.at(second))
        }
        // An action replayed late does not move the pause.
        planner.recordActivity(at: Self.at(60))

        #expect(planner.next(at: Self.at(149)) == nil)
        #expect(planner.nextDeliveryDate(at: Self.at(121)) == Self.at(150))
        #expect(Self.showNext(&planner, at: Self.at(150)) == "card")
    }

    @Test func cardsAreSpacedFromTheEndOfThePreviousOne() {
        var planner = Self.planner()
        planner.enqueue(
            [Self.unlock("card", .notable), Self.unlock("big", .major, achievedAt: Self.at(1))], at: Self.at(0))

        #expect(Self.showNext(&planner, at: Self.at(0)) == "card")
        #expect(planner.next(at: Self.at(59)) == nil)
        let dismissed = planner.dismiss(id: "card", at: Self.at(20))
        #expect(dismissed)

        #expect(planner.nextDeliveryDate(at: Self.at(21)) == Self.at(80))
        #expect(planner.next(at: Self.at(79)) == nil)
        #expect(Self.showNext(&planner, at: Self.at(80)) == "big")
        #expect(planner.delivered.first?.dismissedAt == Self.at(20))
    }

    @Test func doNotDisturbHoldsCardsUntilItIsTurnedOff() {
        var planner = Self.planner()
        planner.setDoNotDisturb(true, at: Self.at(0))
        planner.enqueue(
            [Self.unlock("card", .notable), Self.unlock("big", .major, achievedAt: Self.at(1))], at: Self.at(0))

        #expect(planner.next(at: Self.at(3600)) == nil)
        #expect(planner.nextDeliveryDate(at: Self.at(3600)) == nil)
        // A change replayed out of order is ignored.
        planner.setDoNotDisturb(false, at: Self.at(-10))
        #expect(planner.next(at: Self.at(3600)) == nil)

        planner.setDoNotDisturb(false, at: Self.at(3601))
        #expect(planner.preferences.doNotDisturb == false)
        #expect(Self.showNext(&planner, at: Self.at(3601)) == "card")
        #expect(Self.showNext(&planner, at: Self.at(3661)) == "big")
    }

    // MARK: What is shown

    @Test func reduceMotionGivesAConfigWithoutParticles() throws {
        let unlocks = [Self.unlock("big", .major)]
        var still = Self.planner(CelebrationPreferences(accessibility: CelebrationAccessibility(reduceMotion: true)))
        var moving = Self.planner()
        still.enqueue(unlocks, at: Self.at(0))
        moving.enqueue(unlocks, at: Self.at(0))

        let calm = try #require(still.next(at: Self.at(0))).config
        #expect(calm.particles == nil)
        #expect(calm.accessibility.showsParticles == false)
        #expect(calm.accessibility.fadeOnly)
        #expect(try #require(moving.next(at: Self.at(0))).config.particles != nil)
    }

    @Test func retroactiveFlagIsCarriedToTheCelebrationAndHistory() throws {
        var planner = Self.planner()
        let lastWeek = Self.at(-7 * 86_400)
        planner.enqueue(
            [Self.unlock("streak-7", .notable, achievedAt: lastWeek, retroactive: true)],
            messages: ["streak-7": "Looks like Ollie hit a 7-day streak last week! 🎉"], at: Self.at(0))

        let next = try #require(planner.next(at: Self.at(0)))
        #expect(next.retroactive)
        #expect(next.unlock.achievedAt == lastWeek)
        #expect(next.config.message == "Looks like Ollie hit a 7-day streak last week! 🎉")
        planner.markShown(id: next.id, at: Self.at(0))
        #expect(planner.delivered.map(\.retroactive) == [true])
    }

    @Test func batchesAreOrderedByAchievementAndRetriesChangeNothing() {
        var planner = Self.planner()
        let decisions = planner.enqueue(
            [Self.unlock("later", .notable, achievedAt: Self.at(50)), Self.unlock("earlier", .major)], at: Self.at(0))
        #expect(decisions.map(\.disposition) == [.queued, .queued])
        #expect(planner.pending.map(\.id) == ["earlier", "later"])

        let dismissed = planner.dismiss(id: "earlier", at: Self.at(1))
        #expect(dismissed)
        let retry = planner.enqueue([Self.unlock("earlier", .major), Self.unlock("later", .notable)], at: Self.at(2))
        #expect(retry.map(\.disposition) == [.duplicate, .duplicate])
        #expect(planner.pending.map(\.id) == ["later"])
        #expect(planner.delivered.map(\.wasShown) == [false])
        let dismissedUnknown = planner.dismiss(id: "unknown", at: Self.at(3))
        let shownAgain = planner.markShown(id: "earlier", at: Self.at(3))
        #expect(!dismissedUnknown && !shownAgain)
    }

    // MARK: Determinism and persistence

    /// A random session of a user, from a seed: what was shown when, and the final planner.
    static func simulate(seed: UInt64, steps: Int = 2000) -> (trace: [String], planner: CelebrationPlanner) {
        var random = SplitMix64(seed: seed)
        var planner = Self.planner(zone: Self.newYork, dayStartHour: 4)
        var now = Self.start
        var trace: [String] = []
        var shownCard: String?
        var brokenPromises: [Date] = []
        for step in 0..<steps {
            now += [1.0, 5, 25, 45, 90, 600, 4 * 3600][Int(random.next() % 7)]
            switch random.next() % 10 {
            case 0, 1:
                planner.recordActivity(at: now)
            case 2:
                let tiers = (0..<(random.next() % 3 + 1)).map { _ in CelebrationTier.allCases[Int(random.next() % 3)] }
                let unlocks = tiers.enumerated().map { Self.unlock("u\(step).\($0)", $1, achievedAt: now) }
                planner.enqueue(unlocks, at: now)
            case 3:
                planner.startSession(id: "s\(step)", at: now)
            case 4:
                planner.setDoNotDisturb(random.next() % 3 == 0, at: now)
            case 5:
                if let shownCard { planner.dismiss(id: shownCard, at: now) }
                shownCard = nil
            default:
                if let next = planner.next(at: now) {
                    if next.interrupts { shownCard = next.id }
                    planner.markShown(id: next.id, at: now)
                    trace.append("\(now.timeIntervalSince1970) \(next.id) \(next.presentedTier.rawValue)")
                }
            }
            // `nextDeliveryDate(at:)` keeps its promise.
            if let due = planner.nextDeliveryDate(at: now), due < now || planner.next(at: due) == nil {
                brokenPromises.append(due)
            }
        }
        #expect(brokenPromises.isEmpty)
        return (trace, planner)
    }

    @Test func sameInputsGiveTheSameOutputs() {
        let first = Self.simulate(seed: 42)
        let second = Self.simulate(seed: 42)
        #expect(first.trace == second.trace)
        #expect(first.planner == second.planner)
        #expect(first.trace.count > 100)
    }

    @Test func randomSessionsNeverBreakTheLimits() {
        for seed in UInt64(1)...4 {
            let planner = Self.simulate(seed: seed).planner
            // Lines folded into another celebration count against no limit.
            let shown = planner.delivered.filter { $0.wasShown && $0.foldedInto == nil }
            let cards = shown.filter { ($0.presentedTier ?? .acknowledgment) > .acknowledgment }
            for (previous, card) in zip(cards, cards.dropFirst()) {
                #expect(card.shownAt! >= (previous.dismissedAt ?? previous.shownAt!) + 60)
            }
            let notablesBySession = Dictionary(grouping: shown.filter { $0.presentedTier == .notable }, by: \.sessionID)
            #expect(notablesBySession.values.allSatisfy { $0.count <= 1 })
            // The local day is computed here, not read from the planner.
            let clock = DayClock(dayStartHour: 4)
            let majorsByDay = Dictionary(
                grouping: shown.filter { $0.presentedTier == .major },
                by: { clock.localDay(of: $0.shownAt!, in: Self.newYork) })
            #expect(majorsByDay.values.allSatisfy { $0.count <= 1 })
            #expect(!majorsByDay.isEmpty && !notablesBySession.isEmpty)
        }
    }

    @Test func codableRoundTripKeepsTheQueueAndCounters() throws {
        var planner = Self.planner(
            CelebrationPreferences(style: .subtle, accessibility: CelebrationAccessibility(highContrast: true)),
            zone: Self.kathmandu, dayStartHour: 3)
        planner.startSession(id: "s1", at: Self.at(0))
        planner.recordActivity(at: Self.at(1))
        planner.enqueue(
            [
                Self.unlock("a", .major), Self.unlock("b", .major, achievedAt: Self.at(1), retroactive: true),
                Self.unlock("c", .notable, achievedAt: Self.at(2)),
            ],
            messages: ["b": "Looks like Ollie did it last week!"], at: Self.at(2))
        #expect(Self.showNext(&planner, at: Self.at(40)) == "a")
        planner.setDoNotDisturb(true, at: Self.at(50))

        let data = try JSONEncoder().encode(planner)
        let decoded = try JSONDecoder().decode(CelebrationPlanner.self, from: data)

        #expect(decoded == planner)
        #expect(decoded.pending.map(\.id) == ["b", "c"])
        #expect(decoded.zone.identifier == "Asia/Kathmandu")
        #expect(decoded.clock.dayStartHour == 3)
        #expect(decoded.next(at: Self.at(500)) == planner.next(at: Self.at(500)))
        #expect(decoded.nextDeliveryDate(at: Self.at(500)) == planner.nextDeliveryDate(at: Self.at(500)))
    }
}
