import Foundation
import MomentumCore
import MomentumTestSupport

/// Benchmark 2: evaluating whole 5-year logs on one core, against ``NaiveEvaluator`` on the
/// same logs: `recompute()` of an ingested log (the full evaluation the target is about), and
/// ingest plus evaluation from raw events (`load` + `state(at:calendarDays: 90)`).
enum EvaluationBenchmark {
    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        let logs = (0..<settings.users).map { Fixtures.log(user: $0) }
        let nows = logs.map(Fixtures.now(after:))
        let events = logs.reduce(0) { $0 + $1.count }
        print(
            "  \(settings.users) users × 10 daily habits × 1825 days, \(Format.grouped(events)) events "
                + "(\(Format.grouped(events / settings.users)) per user); logs generated before timing")

        var checksum: UInt64 = 0
        let full = Rounds.measure(count: settings.engineRounds, checksum: &checksum) {
            var sum: UInt64 = 0
            for (log, now) in zip(logs, nows) {
                var engine = loaded(log, now: now)
                sum &+= digest(engine.state(at: now, calendarDays: 90))
            }
            return sum
        }
        let loadOnly = Rounds.measure(count: settings.engineRounds, checksum: &checksum) {
            var sum: UInt64 = 0
            for (log, now) in zip(logs, nows) { sum &+= UInt64(loaded(log, now: now).eventCount) }
            return sum
        }
        // `state` alone, on engines loaded beforehand (each round closes no further days).
        var engines = zip(logs, nows).map { loaded($0, now: $1) }
        let stateOnly = Rounds.measure(count: settings.engineRounds, checksum: &checksum) {
            var sum: UInt64 = 0
            for i in engines.indices { sum &+= digest(engines[i].state(at: nows[i], calendarDays: 90)) }
            return sum
        }
        // Full evaluation of logs already ingested (validated, indexed, days computed): the
        // engine forgets every derived value and sweeps the whole log again.
        let recompute = Rounds.measure(count: settings.engineRounds, checksum: &checksum) {
            var sum: UInt64 = 0
            for i in engines.indices {
                engines[i].recompute()
                sum &+= UInt64(engines[i].eventCount)
            }
            return sum
        }
        let naive = Rounds.measure(count: settings.naiveRounds, warmup: 0, checksum: &checksum) {
            var sum: UInt64 = 0
            for (log, now) in zip(logs, nows) { sum &+= digest(NaiveEvaluator(pack: .habits).evaluate(log, now: now)) }
            return sum
        }

        // Do the two agree on streaks and wallet? (Untimed.)
        var agreeing = 0
        for i in logs.indices {
            let state = engines[i].state(at: nows[i], calendarDays: 90)
            let reference = NaiveEvaluator(pack: .habits).evaluate(logs[i], now: nows[i])
            let same =
                state.wallet.diamonds == reference.diamonds && state.wallet.freezes == reference.freezes
                && state.habits.map(\.current) == reference.habits.map(\.current)
                && state.habits.map(\.best) == reference.habits.map(\.best)
            if same { agreeing += 1 }
        }
        engines.removeAll()

        func rate(_ rounds: Rounds) -> Double { Double(events) / (rounds.median / 1e9) }
        let fullRate = rate(full)
        let naiveRate = rate(naive)
        let recomputeRate = rate(recompute)
        let ratio = recomputeRate / naiveRate
        let perUser = { (rounds: Rounds) in Format.duration(rounds.median / Double(settings.users)) + " / user" }
        print("  load + state: median \(perUser(full)) (\(settings.engineRounds) rounds)")
        print("  load only:    median \(perUser(loadOnly)) (\(settings.engineRounds) rounds)")
        print("  state only:   median \(perUser(stateOnly)) (\(settings.engineRounds) rounds, engines preloaded)")
        print("  recompute:    median \(perUser(recompute)) (\(settings.engineRounds) rounds, engines preloaded)")
        print("  naive:        median \(perUser(naive)) (\(settings.naiveRounds) rounds)")
        print("  engine and naive agree on wallet and streaks for \(agreeing) of \(logs.count) users")
        print("  checksum \(checksum)")

        func millions(_ value: Double) -> String { Format.fixed(value / 1e6, 2) + " M events/s" }
        return [
            ResultRow(
                benchmark: "full evaluation", metric: "recompute(), 1 core", measured: millions(recomputeRate),
                baseline: millions(naiveRate) + " (naive)", ratio: Format.ratio(ratio), target: "≥ 20 M events/s",
                met: recomputeRate >= 20e6),
            ResultRow(
                benchmark: "full evaluation", metric: "recompute() vs naive", measured: Format.ratio(ratio),
                baseline: millions(naiveRate), ratio: Format.ratio(ratio), target: "≥ 100×", met: ratio >= 100),
            ResultRow(
                benchmark: "full evaluation", metric: "load + state(90 d), 1 core", measured: millions(fullRate),
                baseline: millions(naiveRate) + " (naive)", ratio: Format.ratio(fullRate / naiveRate)),
            ResultRow(
                benchmark: "full evaluation", metric: "load only, 1 core", measured: millions(rate(loadOnly)),
                baseline: millions(naiveRate) + " (naive)", ratio: Format.ratio(rate(loadOnly) / naiveRate)),
            ResultRow(
                benchmark: "full evaluation", metric: "per user (load + state)",
                measured: Format.duration(full.median / Double(settings.users)),
                baseline: Format.duration(naive.median / Double(settings.users)) + " (naive)",
                ratio: Format.ratio(naive.median / full.median)),
        ]
    }

    /// A freshly loaded engine; the generated logs are valid, so a failure is a bug.
    static func loaded(_ events: [Event], now: Date) -> UserEngine {
        var engine = UserEngine(pack: .habits)
        do {
            try engine.load(events, now: now)
        } catch {
            fatalError("generated log failed to load: \(error)")
        }
        return engine
    }

    /// Folds what the apps would read from a state into a number.
    static func digest(_ state: UserState) -> UInt64 {
        var sum = UInt64(bitPattern: Int64(state.wallet.diamonds &* 31 &+ state.wallet.freezes &+ state.ledger.count))
        for habit in state.habits {
            sum = sum &* 131 &+ UInt64(bitPattern: Int64(habit.current &+ habit.best &* 7 &+ habit.calendar.count))
        }
        return sum
    }

    /// The same for the naive reference's result.
    static func digest(_ result: NaiveResult) -> UInt64 {
        var sum = UInt64(bitPattern: Int64(result.diamonds &* 31 &+ result.freezes &+ result.ledger.count))
        for habit in result.habits { sum = sum &* 131 &+ UInt64(bitPattern: Int64(habit.current &+ habit.best &* 7)) }
        return sum
    }
}
