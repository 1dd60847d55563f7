import Foundation
import MomentumCore
import MomentumTestSupport

/// Benchmark 3: the latency of `append(_:)` on an engine holding a 5-year history, one event
/// at a time, against reloading the whole log from scratch (what a server without
/// incremental evaluation would do on every event).
enum AppendBenchmark {
    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        let log = Fixtures.log(user: 1_000)
        let now = Fixtures.now(after: log)
        let split = log.count - settings.appends
        let prefix = Array(log[..<split])
        let tail = Array(log[split...])
        let table = ZoneOffsetTable.named("America/New_York")!
        let clock = DayClock()
        // Which appends are the first of a new local day (they close the previous day).
        var opensDay = [Bool](repeating: false, count: tail.count)
        var previousDay = clock.localDay(of: prefix.last!.at, in: table)
        for (i, event) in tail.enumerated() {
            let day = clock.localDay(of: event.at, in: table)
            opensDay[i] = day > previousDay
            previousDay = max(previousDay, day)
        }
        let overhead = timerOverhead()
        print(
            "  history \(Format.grouped(prefix.count)) events loaded, then \(Format.grouped(tail.count)) appends "
                + "(\(opensDay.filter { $0 }.count) open a new day) × \(settings.appendRounds) rounds; "
                + "timer overhead ≈ \(Format.fixed(overhead, 0)) ns (not subtracted)")

        // Each round reloads the prefix (untimed) so no append pays for copying a shared engine.
        var rounds: [Percentiles] = []
        var newDay: [UInt64] = []
        var sameDay: [UInt64] = []
        var outcomes: [String: Int] = [:]
        var agreeing = true
        for round in 0...settings.appendRounds {
            var engine = EvaluationBenchmark.loaded(prefix, now: now)
            var times = [UInt64](repeating: 0, count: tail.count)
            var results: [AppendResult] = []
            results.reserveCapacity(tail.count)
            for (i, event) in tail.enumerated() {
                let start = Stopwatch.now()
                let result: AppendResult
                do {
                    result = try engine.append(event)
                } catch {
                    fatalError("append of generated event \(event.id) failed: \(error)")
                }
                times[i] = Stopwatch.now() &- start
                results.append(result)
            }
            guard round > 0 else { continue }  // round 0 warms up
            if round == 1 {
                let slowest = times.indices.sorted { times[$0] > times[$1] }.prefix(3).map {
                    "#\($0) \(Format.fixed(Double(times[$0]) / 1000, 1)) µs\(opensDay[$0] ? " (new day)" : "")"
                }
                print("  slowest appends of the first timed round (tail index): \(slowest.joined(separator: ", "))")
            }
            rounds.append(Percentiles(times))
            for (i, time) in times.enumerated() {
                if opensDay[i] { newDay.append(time) } else { sameDay.append(time) }
            }
            for result in results {
                switch result {
                case .applied: outcomes["applied", default: 0] += 1
                case .duplicate: outcomes["duplicate", default: 0] += 1
                case .rejected: outcomes["rejected", default: 0] += 1
                }
            }
            // The incremental state must match a fresh evaluation of the same log.
            var fresh = EvaluationBenchmark.loaded(log, now: now)
            let a = engine.state(at: now, calendarDays: 90)
            let b = fresh.state(at: now, calendarDays: 90)
            agreeing = agreeing && a.habits == b.habits && a.wallet == b.wallet
        }

        var checksum: UInt64 = 0
        let reload = Rounds.measure(count: settings.reloadRounds, checksum: &checksum) {
            UInt64(EvaluationBenchmark.loaded(log, now: now).eventCount)
        }

        let p50 = median(rounds.map { $0.value(at: 50) })
        let p99 = median(rounds.map { $0.value(at: 99) })
        let p999 = median(rounds.map { $0.value(at: 99.9) })
        let maxMedian = median(rounds.map(\.max))
        let maxWorst = rounds.map(\.max).max() ?? 0
        let mean = median(rounds.map(\.mean))
        let us = { (ns: Double) in Format.fixed(ns / 1000, 2) + " µs" }
        print(
            "  append (median over rounds of each round's statistic): p50 \(us(p50)), p99 \(us(p99)), "
                + "p99.9 \(us(p999)), max \(us(maxMedian)) (worst round \(us(maxWorst))), mean \(us(mean))")
        let newDayStats = Percentiles(newDay)
        let sameDayStats = Percentiles(sameDay)
        print(
            "  same-day appends: p50 \(us(sameDayStats.value(at: 50))), p99 \(us(sameDayStats.value(at: 99))), "
                + "max \(us(sameDayStats.max)), mean \(us(sameDayStats.mean)) (\(sameDay.count) samples)")
        print(
            "  new-day appends:  p50 \(us(newDayStats.value(at: 50))), p99 \(us(newDayStats.value(at: 99))), "
                + "max \(us(newDayStats.max)), mean \(us(newDayStats.mean)) (\(newDay.count) samples)")
        print("  outcomes over all timed rounds: \(outcomes.sorted { $0.key < $1.key })")
        print("  incremental state equals a fresh load after the appends: \(agreeing ? "yes" : "NO")")
        print("  full reload of \(Format.grouped(log.count)) events: median \(Format.duration(reload.median))")
        print("  checksum \(checksum)")

        let ratio = reload.median / p50
        return [
            ResultRow(
                benchmark: "append", metric: "p50 per append", measured: us(p50),
                baseline: Format.duration(reload.median) + " (full reload)", ratio: Format.ratio(ratio) + " faster"),
            ResultRow(
                benchmark: "append", metric: "p99 per append", measured: us(p99),
                baseline: Format.duration(reload.median) + " (full reload)",
                ratio: Format.ratio(reload.median / p99) + " faster", target: "p99 < 5 µs", met: p99 < 5000),
            ResultRow(
                benchmark: "append", metric: "max per append", measured: us(maxMedian) + " (worst \(us(maxWorst)))",
                baseline: Format.duration(reload.median) + " (full reload)",
                ratio: Format.ratio(reload.median / maxWorst) + " faster"),
        ]
    }

    /// The median cost of reading the clock twice, which every sample includes.
    static func timerOverhead() -> Double {
        var samples = [UInt64](repeating: 0, count: 10_000)
        for i in samples.indices {
            let start = Stopwatch.now()
            samples[i] = Stopwatch.now() &- start
        }
        return Percentiles(samples).median
    }
}
