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
                target: "< 1 ms / user", met: perUser < 1e6 && agreeing == engines.count),
            decadesOldAccount(settings, normal: engines[0], now: nows[0], checksum: &checksum),
        ]
    }

    /// A read of an account holding 91 daily habits that started on 1970-01-01 (issue 45:
    /// 1.87 million habit-days), computed and encoded as `GET /v1/analytics` does on a cache
    /// miss, against the same read of a user of 10 habits × 5 years in the same run.
    /// ``EventLimits/analyticsBudget`` bounds what the first reads to 200,000 habit-days.
    static func decadesOldAccount(
        _ settings: Settings, normal: UserEngine, now: Date, checksum: inout UInt64
    ) -> ResultRow {
        var old = UserEngine(pack: .habits)
        let at = RFC3339.format(now.addingTimeInterval(-3_600))
        for n in 0..<91 {
            let json =
                #"{"id":"c\#(n)","type":"habit.created","at":"\#(at)","tz":"UTC","habit":"h\#(n)","name":"Old \#(n)","start":"1970-01-01"}"#
            do {
                try old.append(try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8)))
            } catch {
                fatalError("the decades-old account failed to load: \(error)")
            }
        }
        var engines = [old, normal]
        let rounds = max(1, settings.engineRounds / 3)
        func read(_ index: Int) -> UInt64 {
            let analytics = engines[index].analytics(at: now)
            let bytes = (try? MomentumJSON.encodeBytes(analytics)) ?? []
            return digest(analytics) &+ UInt64(bytes.count)
        }
        let oldRead = Rounds.measure(count: rounds, checksum: &checksum) { read(0) }
        let normalRead = Rounds.measure(count: rounds, checksum: &checksum) { read(1) }
        let days = engines[0].analysedDays(today: engines[0].today(at: now))
        let json = (try? MomentumJSON.encodeBytes(engines[0].analytics(at: now)))?.count ?? 0
        print(
            "  decades-old account (91 habits since 1970): \(days) habit-days analysed, \(json / 1024) KiB of JSON, "
                + "median \(Format.duration(oldRead.median)) / read (\(rounds) rounds)")
        print("  10 habits × 5 years: median \(Format.duration(normalRead.median)) / read")
        return ResultRow(
            benchmark: "analytics", metric: "a read of 91 habits since 1970, with its JSON",
            measured: Format.duration(oldRead.median) + " / read",
            baseline: Format.duration(normalRead.median) + " (10 habits × 5 y)",
            ratio: Format.ratio(oldRead.median / normalRead.median),
            target: "≤ 200,000 habit-days", met: days <= EventLimits.analyticsBudget)
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
