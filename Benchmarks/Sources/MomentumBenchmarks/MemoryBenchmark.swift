import Foundation
import MomentumCore
import MomentumTestSupport

/// Benchmark 4: heap bytes per loaded 5-year user engine, read from glibc's allocator
/// statistics around building many engines and keeping them alive.
enum MemoryBenchmark {
    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        guard Heap.snapshot() != nil else {
            print("  mallinfo2() is unavailable on this platform; skipped")
            return [ResultRow(benchmark: "memory", metric: "heap per user", measured: "n/a")]
        }
        let count = settings.engines
        calibrate()

        // Warm up the caches a first engine fills (zone tables, Foundation, the generator).
        do {
            let log = Fixtures.log(user: 9_999)
            var engine = EvaluationBenchmark.loaded(log, now: Fixtures.now(after: log))
            blackHole(engine.state(at: Fixtures.now(after: log), calendarDays: 90))
        }

        let s0 = Heap.snapshot()!
        var logs = (0..<count).map { Fixtures.log(user: 2_000 + $0) }
        let nows = logs.map(Fixtures.now(after:))
        let events = logs.reduce(0) { $0 + $1.count }
        let s1 = Heap.snapshot()!
        var engines: [UserEngine] = []
        engines.reserveCapacity(count)
        for (log, now) in zip(logs, nows) { engines.append(EvaluationBenchmark.loaded(log, now: now)) }
        // Swift may end a value's lifetime at its last use: pin the logs until after the reading.
        let s2 = withExtendedLifetime(logs) { Heap.snapshot()! }
        logs.removeAll()
        let s3 = withExtendedLifetime(engines) { Heap.snapshot()! }
        let kept = engines.reduce(0) { $0 + $1.eventCount }
        blackHole(engines)

        let perUserLog = Double(s1.total - s0.total) / Double(count)
        let perUserAlone = Double(s3.total - s0.total) / Double(count)
        let eventsPerUser = Double(events) / Double(count)
        func line(_ label: String, _ from: Heap.Snapshot, _ to: Heap.Snapshot) {
            let arena = Format.bytes(Double(to.arenaInUse - from.arenaInUse) / Double(count))
            let mapped = Format.bytes(Double(to.mmapped - from.mmapped) / Double(count))
            let total = Double(to.total - from.total) / Double(count)
            print(
                "  \(Format.pad(label, 34)) \(Format.pad(Format.bytes(total), 10, right: false)) per user "
                    + "(arena \(arena), mmap \(mapped)); \(Format.fixed(total / eventsPerUser, 1)) B per event")
        }
        print(
            "  \(count) users, \(Format.grouped(events)) events (\(Format.fixed(eventsPerUser, 0)) per user), "
                + "\(Format.grouped(kept)) kept by the engines")
        print(
            "  inline sizes: Event \(MemoryLayout<Event>.stride) B, UserEngine \(MemoryLayout<UserEngine>.stride) B, "
                + "HabitDefinition \(MemoryLayout<HabitDefinition>.stride) B")
        line("[Event] logs alone", s0, s1)
        line("engines, logs still alive", s1, s2)
        line("engines alone, logs freed", s0, s3)
        engines.removeAll()

        return [
            ResultRow(
                benchmark: "memory", metric: "heap per loaded user", measured: Format.bytes(perUserAlone),
                baseline: Format.bytes(perUserLog) + " ([Event] log)", ratio: Format.ratio(perUserAlone / perUserLog)),
            ResultRow(
                benchmark: "memory", metric: "heap per event",
                measured: Format.fixed(perUserAlone / eventsPerUser, 1) + " B",
                baseline: Format.fixed(perUserLog / eventsPerUser, 1) + " B ([Event] log)"),
        ]
    }

    /// Checks the reading against known allocations: many small buffers and one large one.
    static func calibrate() {
        let before = Heap.snapshot()!
        var small: [[UInt8]] = []
        small.reserveCapacity(1_000)
        let afterArray = Heap.snapshot()!
        for _ in 0..<1_000 { small.append([UInt8](repeating: 1, count: 1_000)) }
        let afterSmall = Heap.snapshot()!
        let large = [UInt8](repeating: 1, count: 8 << 20)
        let afterLarge = Heap.snapshot()!
        print(
            "  calibration: 1,000 × 1,000-byte arrays read as "
                + "\(Format.grouped(afterSmall.total - afterArray.total)) B; "
                + "one 8 MiB array as \(Format.grouped(afterLarge.total - afterSmall.total)) B "
                + "(Swift array header 32 B + malloc chunk overhead)")
        blackHole((before, small, large))
    }
}
