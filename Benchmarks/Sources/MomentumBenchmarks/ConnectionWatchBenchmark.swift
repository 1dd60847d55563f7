import Foundation
import Logging
@_spi(Benchmarks) import MomentumPostgres
import MomentumTestSupport
import PostgresNIO

/// Benchmark 17: what watching each operation's connection costs (`ClosedConnectionWatch`:
/// the work in a task of its own, so that a connection that closed under it cannot hold it
/// forever), against the same statement sent directly, timed in the same run.
///
/// One connection to the throwaway cluster; each round sends `SELECT 1` in blocks, a block
/// directly and a block through the watch, the order alternating, so that both meet the
/// same moment of a busy machine. A round trip on loopback is the smallest operation the
/// store makes (a warm reader's version check), so the ratio is the most the watch adds
/// to any store operation; the difference per operation is the watch's own cost.
enum ConnectionWatchBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measure(settings) }
    }

    private static func measure(_ settings: Settings) async -> [ResultRow] {
        let block = settings.quick ? 50 : 500
        let rounds = settings.quick ? 3 : 21
        do {
            let cluster = try PostgresTestCluster.shared
            let connection = try await StorageBenchmark.connect(cluster.url(database: "postgres"))
            let logger = Logger(label: "momentum.bench")
            let watch = ClosedConnectionWatch()
            func direct() async throws -> UInt64 {
                let start = Stopwatch.now()
                for _ in 0..<block { _ = try await connection.query("SELECT 1", logger: logger).collect() }
                return Stopwatch.now() &- start
            }
            func watched() async throws -> UInt64 {
                let start = Stopwatch.now()
                for _ in 0..<block {
                    _ = try await watch.run(on: connection) { connection in
                        try await connection.query("SELECT 1", logger: logger).collect().count
                    }
                }
                return Stopwatch.now() &- start
            }
            var directTimes: [Double] = []
            var watchedTimes: [Double] = []
            var ratios: [Double] = []
            for round in 0..<(rounds + 1) {
                let (plain, guarded): (UInt64, UInt64)
                if round % 2 == 0 {
                    plain = try await direct()
                    guarded = try await watched()
                } else {
                    guarded = try await watched()
                    plain = try await direct()
                }
                // Round 0 warms up and is not counted.
                guard round > 0 else { continue }
                directTimes.append(Double(plain) / Double(block))
                watchedTimes.append(Double(guarded) / Double(block))
                ratios.append(Double(guarded) / Double(plain))
            }
            try await connection.close()
            let base = median(directTimes)
            let measured = median(watchedTimes)
            let ratio = median(ratios)
            print(
                "  \(block) round trips × \(rounds) rounds; per round trip: watched \(Format.duration(measured)), "
                    + "direct \(Format.duration(base)), ratio \(Format.ratio(ratio)), "
                    + "the watch's own \(Format.duration(measured - base))")
            return [
                ResultRow(
                    benchmark: "connection-watch", metric: "SELECT 1 round trip, watched (÷ direct)",
                    measured: Format.duration(measured), baseline: Format.duration(base), ratio: Format.ratio(ratio),
                    target: "≤ 1.10×", met: ratio <= 1.10)
            ]
        } catch {
            print("  failed: \(error)")
            return []
        }
    }
}
