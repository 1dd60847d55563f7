import Foundation

/// The benchmark runner: `momentum-benchmarks [--quick] [filter…]`.
///
/// Each benchmark measures Momentum against a baseline timed in the same run and judges the
/// result against the target from the issue. Filters select benchmarks whose name contains
/// any of them (`day-conversion`, `evaluation`, `append`, `memory`, `analytics`, `unlocks`, `storage`,
/// `server`, `json`, `requests`, `notifications`, `social`, `server-keys`, `what-if`, `tracing`, `connection-watch`, and `scale`, which a full run leaves out
/// unless it is named).
@main
struct MomentumBenchmarks {
    /// A benchmark's name and entry point.
    struct Benchmark: Sendable {
        var name: String
        var title: String
        var run: @Sendable (Settings) -> [ResultRow]
        /// Whether a full run leaves it out unless it is named (it takes many minutes);
        /// a quick run includes it.
        var onlyWhenNamed = false
    }

    static let all: [Benchmark] = [
        Benchmark(name: "day-conversion", title: "1. Day conversion", run: DayConversionBenchmark.run),
        Benchmark(name: "evaluation", title: "2. Full evaluation", run: EvaluationBenchmark.run),
        Benchmark(name: "append", title: "3. Append", run: AppendBenchmark.run),
        Benchmark(name: "memory", title: "4. Memory per user state", run: MemoryBenchmark.run),
        Benchmark(name: "analytics", title: "5. Analytics", run: AnalyticsBenchmark.run),
        Benchmark(name: "unlocks", title: "6. Unlock evaluation", run: UnlockBenchmark.run),
        Benchmark(name: "storage", title: "7. Durable appends (SQLite, PostgreSQL)", run: StorageBenchmark.run),
        Benchmark(name: "server", title: "8. Server under load (HTTP, loopback)", run: ServerLoadBenchmark.run),
        Benchmark(name: "json", title: "9. Canonical JSON", run: JSONBenchmark.run),
        Benchmark(name: "requests", title: "10. Request decoding", run: RequestDecodingBenchmark.run),
        Benchmark(name: "notifications", title: "11. Notifications at scale", run: NotificationBenchmark.run),
        Benchmark(name: "social", title: "12. Feeds and fan-out", run: SocialBenchmark.run),
        Benchmark(
            name: "scale", title: "13. Many users on one machine", run: ScaleBenchmark.run, onlyWhenNamed: true),
        Benchmark(
            name: "server-keys", title: "14. Server keys beside devices (HTTP, loopback)", run: ServerKeyBenchmark.run),
        Benchmark(name: "what-if", title: "15. What-if against a plain evaluation", run: WhatIfBenchmark.run),
        Benchmark(
            name: "tracing", title: "16. Tracing off against no tracing middleware", run: TracingBenchmark.run),
        Benchmark(
            name: "connection-watch", title: "17. A watched connection against a bare one (PostgreSQL)",
            run: ConnectionWatchBenchmark.run),
    ]

    static func main() {
        var quick = false
        var filters: [String] = []
        for argument in CommandLine.arguments.dropFirst() {
            switch argument {
            case "--quick": quick = true
            case "-h", "--help":
                print("usage: momentum-benchmarks [--quick] [filter…]")
                print("  --quick   a short smoke run (smaller inputs, fewer rounds)")
                let names = all.map(\.name).joined(separator: ", ")
                print("  filter    run only benchmarks whose name contains it: \(names)")
                return
            default:
                if argument.hasPrefix("-") {
                    print("unknown option \(argument); see --help")
                    exit(2)
                }
                filters.append(argument)
            }
        }
        let selected = all.filter { benchmark in
            filters.isEmpty ? quick || !benchmark.onlyWhenNamed : filters.contains { benchmark.name.contains($0) }
        }
        guard !selected.isEmpty else {
            print("no benchmark matches \(filters); names: \(all.map(\.name).joined(separator: ", "))")
            exit(2)
        }
        let settings = Settings(quick: quick)

        #if DEBUG
            print("WARNING: debug build; run with -c release for meaningful figures")
        #endif
        print(
            "momentum-benchmarks\(quick ? " --quick" : ""): \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + "single-threaded; figures are medians of repeated rounds; baselines measured in this run")
        var rows: [ResultRow] = []
        for benchmark in selected {
            print("\n\(benchmark.title) [\(benchmark.name)]")
            let start = Stopwatch.now()
            rows += benchmark.run(settings)
            print("  (\(Format.duration(Double(Stopwatch.now() &- start))) including setup)")
        }
        print("\nSummary")
        printTable(rows)
        let judged = rows.compactMap(\.met)
        print("\ntargets met: \(judged.filter { $0 }.count) of \(judged.count)")
    }
}
