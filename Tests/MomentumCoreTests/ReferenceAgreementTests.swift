import Foundation
import MomentumCore
import MomentumTestSupport
import PropertyBased
import Testing

/// The engine must agree with ``NaiveEvaluator``, a straightforward `Calendar`-based
/// implementation of the same streak rules, on wallets, streaks, calendars, ledgers and
/// rejections.
struct ReferenceAgreementTests {
    /// One generated user: the generator's options, plus the user's day boundary.
    struct Scenario: Sendable, CustomStringConvertible {
        var seed: UInt64
        var habits: Int
        var days: Int
        var firstDayOffset: Int
        var completionRate: Double
        var skipRate: Double
        var purchaseRate: Double
        var backfillRate: Double
        var scheduleMix: Int
        var policyMix: Int
        var zone: String
        var dayStartHour: Int

        var options: LogGenerator.Options {
            var options = LogGenerator.Options()
            options.seed = seed
            options.habits = habits
            options.days = days
            options.firstDay = LocalDay(year: 2021, month: 1, day: 4)!.advanced(by: firstDayOffset)
            options.timeZone = zone
            options.completionRate = completionRate
            options.skipRate = skipRate
            options.purchaseRate = purchaseRate
            options.backfillRate = backfillRate
            options.schedules = ReferenceAgreementTests.scheduleMixes[scheduleMix]
            options.policies = ReferenceAgreementTests.policyMixes[policyMix]
            // Two users in three take vacations now and then.
            options.pauseRate = seed % 3 == 0 ? 0 : 0.03
            // One in two is granted diamonds and freezes now and then; one in two lives through
            // outages an operator covers (and sometimes lifts again).
            options.grantRate = seed % 2 == 0 ? 0 : 0.01
            options.amnestyRate = (seed / 2) % 2 == 0 ? 0 : 0.02
            return options
        }

        /// Noon of the day after the last generated day, in the generator's zone.
        var now: Date {
            let (y, m, d) = options.firstDay.advanced(by: days).civil
            return ReferenceAgreementTests.instant(y, m, d, hour: 12, zone: zone)
        }

        var description: String {
            "seed \(seed), \(habits) habits, \(days) days from \(options.firstDay), \(zone), dayStartHour "
                + "\(dayStartHour), completion \(completionRate), skip \(skipRate), purchase \(purchaseRate), "
                + "backfill \(backfillRate), pause \(options.pauseRate), grant \(options.grantRate), amnesty "
                + "\(options.amnestyRate), schedules #\(scheduleMix), policies #\(policyMix)"
        }
    }

    static let scheduleMixes: [[Schedule]] = [
        [.daily],
        [.weekdays([.monday, .wednesday, .friday])],
        [.daily, .weekdays([.saturday, .sunday]), .weekdays(Set(Weekday.allCases).subtracting([.sunday]))],
        [.weekdays([.tuesday]), .daily],
    ]

    static let custom = StreakPolicy(grace: 2, penalty: .decrement(2), freezes: .automatic)

    static let policyMixes: [[StreakPolicy?]] = [
        [nil],
        [.strict],
        [nil, .forgiving, .strict, custom],
        [custom, .strict],
        [StreakPolicy(grace: 0, penalty: .reset, freezes: .never), nil, .strict],
    ]

    static let zones = ["America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham", "UTC"]

    static let scenarios = zip(
        zip(
            Gen.uint64(in: 1...UInt64.max), Gen.int(in: 1...6), Gen.int(in: 20...400), Gen.int(in: 0...1500),
            Gen.int(in: 0...(zones.count - 1)), Gen.int(in: 0...1)),
        zip(
            Gen.double(in: 0.3...0.98), Gen.double(in: 0...0.05), Gen.double(in: 0...0.05), Gen.double(in: 0...0.2),
            Gen.int(in: 0...(scheduleMixes.count - 1)), Gen.int(in: 0...(policyMixes.count - 1)))
    ).map { shape, rates in
        Scenario(
            seed: shape.0, habits: shape.1, days: shape.2, firstDayOffset: shape.3, completionRate: rates.0,
            skipRate: rates.1, purchaseRate: rates.2, backfillRate: rates.3, scheduleMix: rates.4,
            policyMix: rates.5, zone: zones[shape.4], dayStartHour: shape.5 * 4)
    }

    // MARK: - Agreement

    @Test func engineAgreesWithNaiveReferenceOnGeneratedLogs() async throws {
        await propertyCheck(count: 200, input: Self.scenarios) { scenario in
            let events = LogGenerator(scenario.options).events()
            let engine = try UserEngine.evaluate(
                events, now: scenario.now, pack: .habits, dayStartHour: scenario.dayStartHour)
            let naive = NaiveEvaluator(pack: .habits, dayStartHour: scenario.dayStartHour)
                .evaluate(events, now: scenario.now)
            let differences = Self.differences(engine: engine, naive: naive)
            #expect(differences.isEmpty, "\(scenario): \(differences.prefix(5).joined(separator: "; "))")
        }
    }

    // MARK: - The reference on its own

    @Test func naiveReferenceForgivesOneMissThenDecrements() throws {
        var log = ExampleLog(zone: "UTC")
        log.add(.habitCreated(HabitDefinition(id: "h", name: "H")), 2026, 3, 2, hour: 8)
        for d in 2...4 { log.add(.completion(habit: "h", day: nil, value: 1, note: nil), 2026, 3, d) }
        let now = Self.instant(2026, 3, 8, hour: 12, zone: "UTC")

        let result = NaiveEvaluator().evaluate(log.events, now: now)

        let habit = NaiveHabitResult(
            id: "h", current: 1, best: 3, highest: 3,
            states: [.completed, .completed, .completed, .grace, .missed, .missed], streaks: [1, 2, 3, 3, 2, 1])
        #expect(result == NaiveResult(diamonds: 0, freezes: 0, habits: [habit], ledger: [], rejectedEventIDs: []))
        #expect(Self.differences(engine: try UserEngine.evaluate(log.events, now: now), naive: result) == [])
    }

    @Test func naiveReferencePaysRewardsSellsFreezesAndSpendsThemBeforeResetting() throws {
        let pack = RulePack(
            name: "test", defaultPolicy: .strict, rewards: [StreakReward(every: 3, diamonds: .fixed(20))],
            earnedFreezeEvery: 4)
        var log = ExampleLog(zone: "UTC")
        log.add(.habitCreated(HabitDefinition(id: "h", name: "H")), 2026, 3, 2, hour: 8)
        for d in 2...5 { log.add(.completion(habit: "h", day: nil, value: 1, note: nil), 2026, 3, d) }
        let tooDear = log.add(.purchase(item: "freeze-5", days: nil), 2026, 3, 4, hour: 22)
        log.add(.purchase(item: nil, days: 2), 2026, 3, 4, hour: 23)
        let now = Self.instant(2026, 3, 10, hour: 12, zone: "UTC")

        let result = NaiveEvaluator(pack: pack).evaluate(log.events, now: now)

        func day(_ d: Int) -> LocalDay { LocalDay(year: 2026, month: 3, day: d)! }
        let habit = NaiveHabitResult(
            id: "h", current: 0, best: 4, highest: 4,
            states: [.completed, .completed, .completed, .completed, .frozen, .frozen, .frozen, .missed],
            streaks: [1, 2, 3, 4, 4, 4, 4, 0])
        let ledger = [
            NaiveLedgerLine(day: day(4), source: .reward, diamonds: 20, freezes: 0),
            NaiveLedgerLine(day: day(4), source: .purchase, diamonds: -20, freezes: 2),
            NaiveLedgerLine(day: day(5), source: .earnedFreeze, diamonds: 0, freezes: 1),
            NaiveLedgerLine(day: day(6), source: .freezeUsed, diamonds: 0, freezes: -1),
            NaiveLedgerLine(day: day(7), source: .freezeUsed, diamonds: 0, freezes: -1),
            NaiveLedgerLine(day: day(8), source: .freezeUsed, diamonds: 0, freezes: -1),
        ]
        let expected = NaiveResult(
            diamonds: 0, freezes: 0, habits: [habit], ledger: ledger, rejectedEventIDs: [tooDear])
        #expect(result == expected)
        let engine = try UserEngine.evaluate(log.events, now: now, pack: pack)
        #expect(Self.differences(engine: engine, naive: result) == [])
    }

    @Test func naiveReferenceHonoursWeekdaysRestDaysBackfillsAndTheDayStartHour() throws {
        var log = ExampleLog(zone: "Asia/Kathmandu")
        let mwf = Schedule.weekdays([.monday, .wednesday, .friday])
        // 2026-03-02 is a Monday.
        log.add(.habitCreated(HabitDefinition(id: "w", name: "W", schedule: mwf)), 2026, 3, 2, hour: 8)
        log.add(.habitCreated(HabitDefinition(id: "r", name: "R")), 2026, 3, 2, hour: 8)
        log.add(.completion(habit: "w", day: nil, value: 1, note: nil), 2026, 3, 2)
        log.add(.completion(habit: "r", day: nil, value: 1, note: nil), 2026, 3, 2)
        log.add(.skip(habit: "r", day: nil, note: nil), 2026, 3, 3)
        // 02:00 on Thursday is still Wednesday when days start at 04:00.
        log.add(.completion(habit: "w", day: nil, value: 1, note: nil), 2026, 3, 5, hour: 2)
        // A completion on a day that is not due shows, but does not extend the streak.
        log.add(.completion(habit: "w", day: nil, value: 1, note: nil), 2026, 3, 5, hour: 10)
        // Friday's completion, logged on Saturday morning.
        let friday = LocalDay(year: 2026, month: 3, day: 6)!
        log.add(.completion(habit: "w", day: friday, value: 1, note: nil), 2026, 3, 7, hour: 7)
        log.add(.skip(habit: "w", day: nil, note: nil), 2026, 3, 9)
        let now = Self.instant(2026, 3, 10, hour: 12, zone: "Asia/Kathmandu")

        let result = NaiveEvaluator(dayStartHour: 4).evaluate(log.events, now: now)

        let w = NaiveHabitResult(
            id: "w", current: 3, best: 3, highest: 3,
            states: [.completed, .notDue, .completed, .completed, .completed, .notDue, .notDue, .skipped],
            streaks: [1, 1, 2, 2, 3, 3, 3, 3])
        let r = NaiveHabitResult(
            id: "r", current: 0, best: 1, highest: 1,
            states: [.completed, .skipped, .grace, .missed, .missed, .missed, .missed, .missed],
            streaks: [1, 1, 1, 0, 0, 0, 0, 0])
        #expect(result == NaiveResult(diamonds: 0, freezes: 0, habits: [w, r], ledger: [], rejectedEventIDs: []))
        let engine = try UserEngine.evaluate(log.events, now: now, dayStartHour: 4)
        #expect(Self.differences(engine: engine, naive: result) == [])
    }

    // MARK: - Helpers

    /// Every way the engine's state differs from the reference's result.
    static func differences(engine: UserState, naive: NaiveResult) -> [String] {
        var out: [String] = []
        if engine.wallet != Wallet(diamonds: naive.diamonds, freezes: naive.freezes) {
            out.append("wallet \(engine.wallet) vs \(naive.diamonds) diamonds, \(naive.freezes) freezes")
        }
        let engineIDs = engine.habits.map(\.definition.id)
        let naiveIDs = naive.habits.map(\.id)
        if engineIDs != naiveIDs { out.append("habits \(engineIDs) vs \(naiveIDs)") }
        for (mine, theirs) in zip(engine.habits, naive.habits) {
            let id = mine.definition.id
            let ours = (mine.current, mine.best, mine.highestStreakAchieved)
            if ours != (theirs.current, theirs.best, theirs.highest) {
                out.append("\(id) current/best/highest \(ours) vs \((theirs.current, theirs.best, theirs.highest))")
            }
            let closed = mine.archivedDay == nil ? Array(mine.calendar.dropLast()) : mine.calendar
            if mine.archivedDay == nil, mine.calendar.last?.day != engine.today {
                out.append("\(id) calendar ends on \(String(describing: mine.calendar.last?.day)), not today")
            }
            if let first = closed.first?.day, first != mine.startDay {
                out.append("\(id) calendar starts on \(first), not on \(mine.startDay)")
            }
            if closed.count != theirs.states.count {
                out.append("\(id) has \(closed.count) closed days vs \(theirs.states.count)")
            }
            for (i, (day, state)) in zip(closed, zip(theirs.states, theirs.streaks)).enumerated()
            where day.state != state.0 || day.streak != state.1 || day.day != mine.startDay.advanced(by: i) {
                out.append("\(id) \(day.day): \(day.state)/\(day.streak) vs \(state.0)/\(state.1)")
            }
        }
        let ledger = engine.ledger.map {
            NaiveLedgerLine(day: $0.day, source: $0.source, diamonds: $0.diamonds, freezes: $0.freezes)
        }
        if ledger != naive.ledger {
            let i =
                zip(ledger, naive.ledger).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(ledger.count, naive.ledger.count)
            let a = i < ledger.count ? "\(ledger[i])" : "end"
            let b = i < naive.ledger.count ? "\(naive.ledger[i])" : "end"
            out.append("ledger (\(ledger.count) vs \(naive.ledger.count) lines) differs at line \(i): \(a) vs \(b)")
        }
        let rejected = engine.rejected.map(\.event)
        if rejected != naive.rejectedEventIDs { out.append("rejected \(rejected) vs \(naive.rejectedEventIDs)") }
        return out
    }

    /// An instant at a local hour of a civil date in a zone.
    static func instant(_ year: Int, _ month: Int, _ day: Int, hour: Int, zone: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
    }

    /// A hand-written log in one zone, with sequential ids.
    struct ExampleLog {
        var zone: String
        var events: [Event] = []

        /// Adds an event at a local hour and returns its id.
        @discardableResult
        mutating func add(_ payload: Event.Payload, _ year: Int, _ month: Int, _ day: Int, hour: Int = 9) -> String {
            let id = "e\(events.count + 1)"
            let at = ReferenceAgreementTests.instant(year, month, day, hour: hour, zone: zone)
            events.append(Event(id: id, at: at, timeZone: zone, payload: payload))
            return id
        }
    }
}
