import Foundation
import MomentumCore
import MomentumTestSupport

/// Benchmark 5: every analytic of a user with 10 daily habits over 5 years — rates, week and
/// month history, 30-day series and trend, weekdays, streak runs, habit strength, scores,
/// coaching and profile statistics — against ``NaiveAnalytics`` (Foundation `Calendar`, one
/// pass per figure) on the same engines in the same run. Engines are loaded before timing;
/// the naive side is given the whole-history `state` for free.
enum AnalyticsBenchmark {
    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        let logs = (0..<settings.users).map { Fixtures.log(user: $0) }
        let nows = logs.map(Fixtures.now(after:))
        var engines = zip(logs, nows).map { EvaluationBenchmark.loaded($0, now: $1) }
        let states = engines.indices.map { engines[$0].state(at: nows[$0]) }
        print("  \(settings.users) users × 10 daily habits × 1825 days; engines loaded before timing")

        var checksum: UInt64 = 0
        let fast = Rounds.measure(count: settings.engineRounds, checksum: &checksum) {
            var sum: UInt64 = 0
            for i in engines.indices { sum &+= digest(engines[i].analytics(at: nows[i])) }
            return sum
        }
        let seriesOnly = Rounds.measure(count: settings.engineRounds, checksum: &checksum) {
            var sum: UInt64 = 0
            for i in engines.indices { sum &+= UInt64(engines[i].series(at: nows[i]).count) }
            return sum
        }
        let naive = Rounds.measure(count: settings.naiveRounds, warmup: 0, checksum: &checksum) {
            var sum: UInt64 = 0
            for state in states {
                for habit in state.habits {
                    let stats = NaiveAnalytics(habit, today: state.today)
                    sum = sum &* 31 &+ UInt64(stats.allTime.done &+ stats.weeks.count &+ stats.totalDaysCompleted)
                }
            }
            return sum
        }

        // Do the two agree? (Untimed.)
        var agreeing = 0
        for i in engines.indices {
            let analytics = engines[i].analytics(at: nows[i])
            let same = zip(states[i].habits, analytics.habits).allSatisfy { habit, stats in
                let reference = NaiveAnalytics(habit, today: states[i].today)
                return stats.rates.allTime.done == reference.allTime.done
                    && stats.rates.allTime.due == reference.allTime.due && stats.weeks.count == reference.weeks.count
                    && abs(stats.strength.value - reference.strength) < 1e-9
                    && stats.streaks.longest == reference.longestRun
            }
            if same { agreeing += 1 }
        }

        let users = Double(settings.users)
        let perUser = fast.median / users
        let naivePerUser = naive.median / users
        print("  analytics: median \(Format.duration(perUser)) / user (\(settings.engineRounds) rounds)")
        print("  of which series: median \(Format.duration(seriesOnly.median / users)) / user")
        print("  naive:     median \(Format.duration(naivePerUser)) / user (\(settings.naiveRounds) rounds)")
        print("  analytics and naive agree for \(agreeing) of \(engines.count) users")
        print("  checksum \(checksum)")
        return [
            ResultRow(
                benchmark: "analytics", metric: "every analytic, 10 habits × 5 years",
                measured:
                    Format.duration(perUser) + " / user",
                baseline: Format.duration(naivePerUser) + " (naive)", ratio: Format.ratio(naivePerUser / perUser),
                target: "< 1 ms / user", met: perUser < 1e6 && agreeing == engines.count)
        ]
    }

    /// Folds the figures an app would read into a number.
    static func digest(_ analytics: UserAnalytics) -> UInt64 {
        var sum = UInt64(bitPattern: Int64(analytics.consistency.score ?? -1))
        for habit in analytics.habits {
            sum = sum &* 131 &+ UInt64(habit.rates.allTime.done &+ habit.weeks.count &+ habit.months.count)
            sum = sum &* 131 &+ UInt64(habit.strength.percent &+ habit.streaks.longest)
        }
        return sum
    }
}
