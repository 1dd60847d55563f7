import Foundation
import MomentumCore
import MomentumTestSupport

/// Benchmark 1: instant → local day with ``DayClock`` and a cached ``ZoneOffsetTable``,
/// against Foundation's `Calendar.dateComponents` (``CalendarDayReference``) on the very
/// same instants, which also counts every disagreement between the two.
enum DayConversionBenchmark {
    /// The zones, each with the day-start hour its users get: DST in both hemispheres,
    /// 30- and 45-minute offsets, Lord Howe's 30-minute DST shift, Apia's skipped date,
    /// Casablanca's Ramadan transitions.
    static let zones: [(name: String, dayStartHour: Int)] = [
        ("Asia/Kathmandu", 0), ("Australia/Lord_Howe", 4), ("America/New_York", 0), ("Pacific/Apia", 4),
        ("Europe/London", 0), ("America/Sao_Paulo", 3), ("Asia/Kolkata", 0), ("Africa/Casablanca", 2),
        ("Pacific/Chatham", 0), ("America/St_Johns", 4),
    ]

    /// One zone's share of the instants.
    struct Input {
        var name: String
        var clock: DayClock
        var table: ZoneOffsetTable
        var reference: CalendarDayReference
        var seconds: [Int64]
        var dates: [Date]
    }

    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        // Inputs, built before anything is timed: uniform random whole seconds in 1970–2099.
        var rng = SplitMix64(seed: 0x0DA7_C10C)
        let perZone = settings.instants / zones.count
        let inputs: [Input] = zones.map { zone in
            let seconds = (0..<perZone).map { _ in Int64(rng.next() % 4_102_444_800) }
            return Input(
                name: zone.name, clock: DayClock(dayStartHour: zone.dayStartHour),
                table: ZoneOffsetTable.named(zone.name)!,
                reference: CalendarDayReference(
                    zone: TimeZone(identifier: zone.name)!, dayStartHour: zone.dayStartHour),
                seconds: seconds, dates: seconds.map { Date(timeIntervalSince1970: Double($0)) })
        }
        let total = perZone * inputs.count
        print("  \(Format.grouped(total)) instants 1970–2099, \(inputs.count) zones, grouped by zone")

        // Fast path.
        var fastChecksum: UInt64 = 0
        let fast = Rounds.measure(count: settings.conversionRounds, warmup: 1, checksum: &fastChecksum) {
            var sum: UInt64 = 0
            for input in inputs {
                let clock = input.clock
                let table = input.table
                for second in input.seconds {
                    sum &+= UInt64(bitPattern: Int64(clock.localDay(ofSecond: second, in: table).number))
                }
            }
            return sum
        }

        // Foundation baseline; it also keeps its answers for the mismatch count.
        var referenceDays = inputs.map { [Int](repeating: 0, count: $0.dates.count) }
        for input in inputs { for date in input.dates.prefix(2_000) { blackHole(input.reference.localDay(of: date)) } }
        var slowChecksum: UInt64 = 0
        let slow = Rounds.measure(count: settings.calendarRounds, warmup: 0, checksum: &slowChecksum) {
            var sum: UInt64 = 0
            for (z, input) in inputs.enumerated() {
                let reference = input.reference
                for (i, date) in input.dates.enumerated() {
                    let day = reference.localDay(of: date).number
                    referenceDays[z][i] = day
                    sum &+= UInt64(bitPattern: Int64(day))
                }
            }
            return sum
        }

        // Every instant, both ways.
        var mismatches = 0
        var examples: [String] = []
        for (z, input) in inputs.enumerated() {
            for (i, second) in input.seconds.enumerated() {
                let day = input.clock.localDay(ofSecond: second, in: input.table).number
                if day != referenceDays[z][i] {
                    mismatches += 1
                    if examples.count < 5 {
                        examples.append(
                            "\(input.name) \(second) h\(input.clock.dayStartHour): DayClock \(LocalDay(number: day)), "
                                + "Calendar \(LocalDay(number: referenceDays[z][i]))")
                    }
                }
            }
        }

        let fastPer = fast.median / Double(total)
        let slowPer = slow.median / Double(total)
        let speedup = slowPer / fastPer
        print(
            "  DayClock: median \(Format.duration(fast.median)) per pass of \(settings.conversionRounds) "
                + "(min \(Format.duration(fast.fastest)), max \(Format.duration(fast.slowest)))")
        print(
            "  Calendar: median \(Format.duration(slow.median)) per pass of \(settings.calendarRounds) "
                + "(min \(Format.duration(slow.fastest)), max \(Format.duration(slow.slowest)))")
        print("  checksums: DayClock \(fastChecksum), Calendar \(slowChecksum)")
        for example in examples { print("  mismatch: \(example)") }

        return [
            ResultRow(
                benchmark: "day conversion", metric: "ns / conversion", measured: Format.fixed(fastPer, 2) + " ns",
                baseline: Format.fixed(slowPer, 1) + " ns (Calendar)", ratio: Format.ratio(speedup),
                target: "≥ 20× faster", met: speedup >= 20),
            ResultRow(
                benchmark: "day conversion", metric: "mismatches",
                measured: "\(mismatches) of \(Format.grouped(total))", target: "0", met: mismatches == 0),
        ]
    }
}
