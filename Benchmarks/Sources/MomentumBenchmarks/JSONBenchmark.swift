import Foundation
import MomentumCore

/// Benchmark 9: writing the documents the store and the server write on every request —
/// a user's state with a week of calendar (the dashboard), one habit's state (the row a
/// check-in rewrites and answers with) and a batch of events — with `MomentumJSON.encode` against Foundation's `JSONEncoder`
/// configured the same way (the baseline), measured in the same run. Both produce the
/// same bytes; the benchmark checks that too.
enum JSONBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        let log = Fixtures.log(user: 7)
        let now = Fixtures.now(after: log)
        var engine = UserEngine()
        for event in log { _ = try? engine.append(event) }
        let dashboard = engine.state(at: now, calendarDays: 7)
        let events = Array(log.suffix(100))
        let habit = dashboard.habits.max { $0.calendar.count < $1.calendar.count }
        let rounds = settings.quick ? 20 : 300
        var rows: [ResultRow] = []
        for (name, encodeFoundation, encodeCanonical) in [
            (
                "user state, \(dashboard.habits.count) habits × 7 days",
                { try MomentumJSON.encoder().encode(dashboard) } as () throws -> Data,
                { try MomentumJSON.encode(dashboard) } as () throws -> Data
            ),
            (
                "one habit's state × 7 days (a check-in's row)",
                { try MomentumJSON.encoder().encode(habit) } as () throws -> Data,
                { try MomentumJSON.encode(habit) } as () throws -> Data
            ),
            (
                "100 events", { try MomentumJSON.encoder().encode(events) } as () throws -> Data,
                { try MomentumJSON.encode(events) } as () throws -> Data
            ),
        ] {
            do {
                let foundationBytes = try encodeFoundation()
                guard try encodeCanonical() == foundationBytes else {
                    print("  \(name): the encoders disagree")
                    rows.append(ResultRow(benchmark: "json", metric: name, measured: "encoders disagree"))
                    continue
                }
                var checksum: UInt64 = 0
                let baseline = try Rounds.measure(count: rounds, checksum: &checksum) {
                    UInt64(try encodeFoundation().count)
                }
                let canonical = try Rounds.measure(count: rounds, checksum: &checksum) {
                    UInt64(try encodeCanonical().count)
                }
                print(
                    "  \(name): \(Format.bytes(Double(foundationBytes.count))), checksum \(checksum); "
                        + "Foundation \(Format.duration(baseline.median)), canonical \(Format.duration(canonical.median))"
                )
                rows.append(
                    ResultRow(
                        benchmark: "json", metric: "encode \(name) (\(Format.bytes(Double(foundationBytes.count))))",
                        measured: Format.duration(canonical.median), baseline: Format.duration(baseline.median),
                        ratio: Format.ratio(baseline.median / canonical.median) + " faster"))
            } catch {
                print("  \(name) failed: \(error)")
            }
        }
        return rows
    }
}
