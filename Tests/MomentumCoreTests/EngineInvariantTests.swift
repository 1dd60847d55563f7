import Foundation
import MomentumCore
import MomentumTestSupport
import PropertyBased
import Testing

/// Properties that hold for every log: incremental evaluation equals full evaluation,
/// arrival order does not matter, nothing goes negative, rewards are paid once.
struct EngineInvariantTests {
    /// Random generator options: mixed schedules and policies, backfills, rest days, purchases.
    static let scenarios = Gen.int(in: 0...Int.max - 1).map { seed -> LogGenerator.Options in
        var rng = SplitMix64(seed: UInt64(seed))
        var options = LogGenerator.Options()
        options.seed = rng.next()
        options.habits = Int(rng.next() % 5) + 1
        options.days = Int(rng.next() % 200) + 20
        options.firstDay = LocalDay(year: 2024, month: 1, day: 1)!.advanced(by: Int(rng.next() % 700))
        options.completionRate = 0.4 + Double(rng.next() % 55) / 100
        options.skipRate = Double(rng.next() % 4) / 100
        options.purchaseRate = Double(rng.next() % 5) / 100
        options.backfillRate = Double(rng.next() % 20) / 100
        options.timeZone = ["America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"][Int(rng.next() % 4)]
        options.schedules = [
            .daily, .weekdays([.monday, .tuesday, .thursday]), .timesPerWeek(3), .everyNDays(2), .timesPerMonth(12),
        ]
        .shuffled(using: &rng)
        options.policies = [
            nil, .strict, .forgiving, StreakPolicy(grace: 2, penalty: .decrement(2), freezes: .automatic),
        ]
        .shuffled(using: &rng)
        options.pauseRate = Double(rng.next() % 4) / 100
        return options
    }

    static func now(after options: LogGenerator.Options) -> Date {
        let table = ZoneOffsetTable.named(options.timeZone)!
        let day = options.firstDay.advanced(by: options.days)
        let noon = Int64(day.number) * 86_400 + 12 * 3600
        return Date(timeIntervalSince1970: Double(noon - Int64(table.offset(atSecond: noon))))
    }

    @Test func incrementalAppendsEqualFullRecomputation() async {
        await propertyCheck(count: 60, input: Self.scenarios) { options in
            let events = LogGenerator(options).events()
            let now = Self.now(after: options)
            let full = try! UserEngine.evaluate(events, now: now)

            var engine = UserEngine()
            var refused: [String] = []
            var lastDay = 0
            for event in events {
                // The app opens every day or so: advance the clock, closing days, before the event.
                if Int(event.at.timeIntervalSince1970) / 86_400 != lastDay {
                    engine.advance(to: event.at)
                    lastDay = Int(event.at.timeIntervalSince1970) / 86_400
                }
                if case .rejected = try! engine.append(event) { refused.append(event.id) }
            }
            var incremental = engine.state(at: now)
            #expect(refused == full.rejected.map(\.event))
            incremental.rejected = full.rejected
            #expect(incremental == full)
            engine.recompute()
            var recomputed = engine.state(at: now)
            recomputed.rejected = full.rejected
            #expect(recomputed == full)
        }
    }

    @Test func arrivalOrderDoesNotChangeTheState() async {
        await propertyCheck(count: 40, input: Self.scenarios, Gen.int(in: 0...1_000_000)) { options, shuffleSeed in
            var noPurchases = options
            noPurchases.purchaseRate = 0  // purchases are judged at arrival, so their order matters
            let events = LogGenerator(noPurchases).events()
            let now = Self.now(after: options)
            let full = try! UserEngine.evaluate(events, now: now)

            var rng = SplitMix64(seed: UInt64(shuffleSeed))
            let creations = events.filter { if case .habitCreated = $0.payload { true } else { false } }
            let others = events.filter { if case .habitCreated = $0.payload { false } else { true } }.shuffled(
                using: &rng)
            #expect(try! UserEngine.evaluate((creations + others).shuffled(using: &rng), now: now) == full)

            var engine = UserEngine()
            for event in creations + others { try! engine.append(event) }
            #expect(engine.state(at: now) == full)
        }
    }

    @Test func valuesNeverGoNegativeAndRewardsArePaidOnce() async {
        await propertyCheck(count: 60, input: Self.scenarios) { options in
            let state = try! UserEngine.evaluate(LogGenerator(options).events(), now: Self.now(after: options))
            #expect(state.wallet.diamonds >= 0 && state.wallet.freezes >= 0)
            #expect(state.ledger.allSatisfy { $0.diamondBalance >= 0 && $0.freezeBalance >= 0 })
            for habit in state.habits {
                #expect(habit.current >= 0)
                #expect(habit.best >= habit.current)
                #expect(habit.highestStreakAchieved >= habit.current)
                #expect(habit.calendar.allSatisfy { $0.streak >= 0 && $0.streak <= habit.best })
            }
            let rewards = state.ledger.filter { $0.source != .purchase && $0.source != .freezeUsed }
                .map { "\($0.habit!)/\($0.streak!)/\($0.source)/\($0.diamonds)" }
            #expect(Set(rewards).count == rewards.count)
        }
    }

    @Test func appendingTheSameEventTwiceStoresItOnce() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", on: day(1))
        var engine = UserEngine()
        for event in log.events { try engine.append(event) }
        #expect(try engine.append(log.events[1]) == .duplicate)
        #expect(engine.eventCount == 2)
        var changed = log.events[1]
        changed.payload = .completion(habit: "read", day: nil, value: 2, note: nil)
        #expect {
            try engine.append(changed)
        } throws: { ($0 as? MomentumError)?.code == .conflictingEventID }
    }

    @Test func removingAPastCompletionRecomputesFromThatDay() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...12)
        var engine = UserEngine()
        for event in log.events { try engine.append(event) }
        #expect(engine.state(at: log.instant(day(13)))[habit: "read"].current == 12)
        let removal = Event(
            id: "undo", at: log.instant(day(13), hour: 13), timeZone: "UTC", payload: .removal(event: log.events[3].id))
        try engine.append(removal)
        let state = engine.state(at: log.instant(day(13), hour: 14))
        #expect(state[habit: "read"][day(3)].state == .grace)
        #expect(state[habit: "read"].current == 11)
        var withRemoval = log
        withRemoval.add(.removal(event: log.events[3].id), on: day(13), hour: 13)
        #expect(try withRemoval.state(on: day(13), hour: 14) == state)
    }

    @Test func aRemovalThatArrivesBeforeItsEventWins() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", on: day(1))
        var engine = UserEngine()
        try engine.append(log.events[0])
        try engine.append(
            Event(id: "undo", at: log.instant(day(1), hour: 10), timeZone: "UTC", payload: .removal(event: "e2")))
        #expect(try engine.append(log.events[1]) == .duplicate)
        #expect(engine.state(at: log.instant(day(1), hour: 11))[habit: "read"].today.state == .pending)
    }

    @Test func habitsAndRemovalsCannotBeRemoved() throws {
        var log = Log()
        log.habit("read")
        log.add(.removal(event: "e1"), on: day(2))
        #expect(throws: EventLogError.self) { try log.state(on: day(3)) }
        var twice = Log()
        twice.habit("read")
        twice.complete("read", on: day(1))
        twice.add(.removal(event: "e2"), on: day(2))
        twice.add(.removal(event: "e3"), on: day(2), hour: 10)
        #expect(throws: EventLogError.self) { try twice.state(on: day(3)) }
    }

    @Test func archivedHabitsStopBeingJudged() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...3)
        log.add(.habitArchived(habit: "read"), on: day(4))
        log.complete("read", on: day(5))
        let state = try log.state(on: day(10))
        #expect(state[habit: "read"].archivedDay == day(4))
        #expect(state[habit: "read"].calendar.count == 3)
        #expect(state[habit: "read"].current == 3)
        #expect(state.rejected.map(\.code) == [.habitArchived])
    }

    @Test func updatesChangeTheHabitFromThatDayOn() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...3)
        log.add(
            .habitUpdated(HabitChanges(habit: "read", name: "Read a chapter", difficulty: .hard, policy: .strict)),
            on: day(4))
        log.complete("read", on: day(6))
        let read = try log.state(on: day(7))[habit: "read"]
        #expect(read.definition.name == "Read a chapter")
        #expect(read.definition.difficulty == .hard)
        #expect(read.states(from: day(4), through: day(6)) == [.missed, .missed, .completed])
        #expect(read.current == 1)
    }
}
