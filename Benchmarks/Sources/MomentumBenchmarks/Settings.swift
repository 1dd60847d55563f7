import Foundation
import MomentumCore
import MomentumTestSupport

/// Sizes and round counts for one run: the full run, or a short smoke run with `--quick`.
struct Settings: Sendable {
    /// Whether this is the short smoke run.
    var quick: Bool

    /// Random instants for the day-conversion benchmark, over all zones together.
    var instants: Int { quick ? 100_000 : 1_500_000 }
    /// Timed rounds of the fast path (day conversion).
    var conversionRounds: Int { quick ? 3 : 11 }
    /// Timed rounds of the Foundation baseline (day conversion).
    var calendarRounds: Int { quick ? 1 : 5 }

    /// Users (distinct seeds) whose 5-year logs the evaluation benchmark evaluates.
    var users: Int { quick ? 2 : 8 }
    /// Timed rounds of the engine over all users.
    var engineRounds: Int { quick ? 3 : 15 }
    /// Timed rounds of the naive reference over all users.
    var naiveRounds: Int { quick ? 1 : 5 }

    /// Events appended one at a time to an engine loaded with the rest of the log.
    var appends: Int { quick ? 1_000 : 5_000 }
    /// Rounds of the append benchmark (each reloads the prefix, untimed).
    var appendRounds: Int { quick ? 2 : 7 }
    /// Timed full reloads, the append benchmark's baseline.
    var reloadRounds: Int { quick ? 3 : 15 }

    /// Users (half habits, half puppy journals, 4 to 9 months each) the what-if benchmark
    /// replays.
    var whatIfUsers: Int { quick ? 4 : 200 }

    /// Engines kept alive at once by the memory benchmark.
    var engines: Int { quick ? 10 : 50 }

    /// The latency `Scripts/with-flush-latency` adds to every flush to disk, in
    /// microseconds; 0 without it.
    var flushLatencyMicros: Int {
        let environment = ProcessInfo.processInfo.environment
        guard environment["LD_PRELOAD"]?.contains("libflushlatency") == true else { return 0 }
        return Int(environment["MOMENTUM_FLUSH_LATENCY_US"] ?? "") ?? 0
    }

    /// The flush latency as the storage benchmarks name it: `""`, or ` (+1 ms per flush)`.
    var flushLabel: String {
        let micros = flushLatencyMicros
        guard micros > 0 else { return "" }
        return micros % 1000 == 0 ? " (+\(micros / 1000) ms per flush)" : " (+\(micros) µs per flush)"
    }
}

/// Generated 5-year user logs, built before anything is timed.
enum Fixtures {
    /// `LogGenerator`'s default options (10 daily habits, 1825 days, completion 0.9, skips,
    /// purchases, America/New_York) with a per-user seed.
    static func log(user: Int) -> [Event] {
        var options = LogGenerator.Options()
        options.seed = 0x6D6F_6D65_6E74_0000 &+ UInt64(user)
        return LogGenerator(options).events()
    }

    /// An instant one minute after the log's last event: "now" for evaluating it.
    static func now(after events: [Event]) -> Date {
        (events.map(\.at).max() ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(60)
    }
}
