import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic nanosecond clock (`clock_gettime(CLOCK_MONOTONIC)`), cheap enough to read
/// around a single call of a few hundred nanoseconds.
enum Stopwatch {
    /// Nanoseconds since an arbitrary, fixed point.
    @inline(__always)
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Runs `body` once and returns its result with the elapsed nanoseconds.
    @inline(__always)
    static func time<T>(_ body: () throws -> T) rethrows -> (result: T, nanoseconds: UInt64) {
        let start = now()
        let result = try body()
        return (result, now() &- start)
    }
}

/// Wall-clock durations of repeated rounds of the same work, and their order statistics.
struct Rounds {
    /// Nanoseconds per round, in the order they ran.
    var nanoseconds: [UInt64] = []

    /// Runs `warmup` untimed rounds, then `count` timed rounds of `body`.
    ///
    /// Each round's result is folded into `checksum` so that the optimiser cannot drop the
    /// work; print the checksum.
    static func measure(
        count: Int, warmup: Int = 1, checksum: inout UInt64, _ body: () throws -> UInt64
    ) rethrows -> Rounds {
        for _ in 0..<warmup { checksum = checksum &* 31 &+ (try body()) }
        var rounds = Rounds()
        for _ in 0..<count {
            let (value, elapsed) = try Stopwatch.time(body)
            checksum = checksum &* 31 &+ value
            rounds.nanoseconds.append(elapsed)
        }
        return rounds
    }

    /// The median round, in nanoseconds.
    var median: Double { Percentiles(nanoseconds).median }
    /// The fastest round, in nanoseconds.
    var fastest: Double { Double(nanoseconds.min() ?? 0) }
    /// The slowest round, in nanoseconds.
    var slowest: Double { Double(nanoseconds.max() ?? 0) }
}

/// Order statistics of a sample (nearest-rank percentiles).
struct Percentiles {
    /// The sample, sorted ascending.
    let sorted: [UInt64]

    /// Sorts a sample.
    init(_ sample: [UInt64]) { sorted = sample.sorted() }

    /// The `p`-th percentile (0…100) by the nearest-rank method; 0 for an empty sample.
    func value(at p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return Double(sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1])
    }

    /// The median: the mean of the two middle values for an even count.
    var median: Double {
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1
            ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
    }

    /// The largest value.
    var max: Double { Double(sorted.last ?? 0) }
    /// The arithmetic mean.
    var mean: Double { sorted.isEmpty ? 0 : Double(sorted.reduce(0, &+)) / Double(sorted.count) }
}

/// The median of a sample of doubles.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

// MARK: - Formatting

/// Number formatting without Foundation's locale machinery.
enum Format {
    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int(rounded - Double(whole) * scale)
        let sign = value < 0 && rounded != 0 ? "-" : ""
        guard digits > 0 else { return sign + grouped(whole) }
        let text = String(fraction)
        return sign + grouped(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }

    /// An integer with thin thousands separators (`1,234,567`).
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// A ratio such as `123.4×`.
    static func ratio(_ value: Double) -> String {
        value >= 100 ? fixed(value, 0) + "×" : value >= 10 ? fixed(value, 1) + "×" : fixed(value, 2) + "×"
    }

    /// A duration given in nanoseconds, in the most readable unit.
    static func duration(_ nanoseconds: Double) -> String {
        if nanoseconds >= 1e9 { return fixed(nanoseconds / 1e9, 2) + " s" }
        if nanoseconds >= 1e6 { return fixed(nanoseconds / 1e6, 2) + " ms" }
        if nanoseconds >= 1e3 { return fixed(nanoseconds / 1e3, 2) + " µs" }
        return fixed(nanoseconds, 1) + " ns"
    }

    /// A byte count in bytes, KiB or MiB.
    static func bytes(_ value: Double) -> String {
        if value >= 1_048_576 { return fixed(value / 1_048_576, 2) + " MiB" }
        if value >= 1024 { return fixed(value / 1024, 1) + " KiB" }
        return fixed(value, 0) + " B"
    }

    /// Pads `text` on the right (or on the left when `right` is false) to `width` characters.
    static func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? text + padding : padding + text
    }
}

// MARK: - Results

/// One line of the summary table: a measured figure, its baseline from the same run, and
/// the target it is judged against.
struct ResultRow {
    /// The benchmark's name.
    var benchmark: String
    /// What was measured.
    var metric: String
    /// The measured figure, formatted.
    var measured: String
    /// The baseline figure from the same run, formatted (or `—`).
    var baseline: String = "—"
    /// Measured against baseline, formatted (or `—`).
    var ratio: String = "—"
    /// The target, in words (or `—` when there is none).
    var target: String = "—"
    /// Whether the target is met; `nil` when there is no target.
    var met: Bool?
}

/// Prints rows as an aligned plain-text table.
func printTable(_ rows: [ResultRow]) {
    let header = ["benchmark", "metric", "measured", "baseline", "ratio", "target", "met"]
    let cells = rows.map {
        [
            $0.benchmark, $0.metric, $0.measured, $0.baseline, $0.ratio, $0.target,
            $0.met.map { $0 ? "yes" : "NO" } ?? "—",
        ]
    }
    var widths = header.map(\.count)
    for row in cells { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    func line(_ row: [String]) -> String {
        row.enumerated().map { Format.pad($0.element, widths[$0.offset]) }.joined(separator: " | ")
    }
    print(line(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-"))
    for row in cells { print(line(row)) }
}

/// Runs async work to completion from synchronous benchmark code.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
