import Foundation
@_spi(Benchmarks) import MomentumCore

/// Benchmark 6: unlock evaluation per event with the `ollie` pack over 5 years of a puppy
/// journal (≈ 9 activities a day: potty breaks with accidents, meals, walks, commands,
/// socialization, vaccinations), processed in order with `AchievementEngine.process`. The
/// baseline is the same evaluation checking every rule against every event, without the
/// engine's index of rules by activity kind, in the same run.
enum UnlockBenchmark {
    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        let journals = (0..<settings.users).map { journal(user: $0) }
        let events = journals.reduce(0) { $0 + $1.count }
        print(
            "  \(settings.users) puppies × 1826 days, \(Format.grouped(events)) events "
                + "(\(Format.grouped(events / settings.users)) per puppy), \(RulePack.ollie.achievements.count) rules")
        var checksum: UInt64 = 0
        func measure(everyRule: Bool, rounds: Int) -> Rounds {
            Rounds.measure(count: rounds, checksum: &checksum) {
                var sum: UInt64 = 0
                for journal in journals {
                    var engine = AchievementEngine(rules: RulePack.ollie.achievements)
                    engine.checksEveryRule = everyRule
                    for event in journal { engine.process(event, detectedAt: event.at) }
                    sum &+= UInt64(engine.unlocks.count)
                }
                return sum
            }
        }
        let indexed = measure(everyRule: false, rounds: settings.engineRounds)
        let naive = measure(everyRule: true, rounds: settings.naiveRounds)
        var sample = AchievementEngine(rules: RulePack.ollie.achievements)
        for event in journals[0] { sample.process(event, detectedAt: event.at) }
        var reference = AchievementEngine(rules: RulePack.ollie.achievements)
        reference.checksEveryRule = true
        for event in journals[0] { reference.process(event, detectedAt: event.at) }
        let agree = sample.unlocks == reference.unlocks
        let rate = Double(events) / (indexed.median / 1e9)
        let naiveRate = Double(events) / (naive.median / 1e9)
        print("  indexed: median \(Format.duration(indexed.median / Double(events))) / event")
        print("  every rule: median \(Format.duration(naive.median / Double(events))) / event")
        print("  \(sample.unlocks.count) unlocks for puppy 0; both evaluations agree: \(agree)")
        print("  checksum \(checksum)")
        func millions(_ value: Double) -> String { Format.fixed(value / 1e6, 2) + " M events/s" }
        return [
            ResultRow(
                benchmark: "unlocks", metric: "ollie pack, 5 years, 1 core", measured: millions(rate),
                baseline: millions(naiveRate) + " (every rule)", ratio: Format.ratio(rate / naiveRate),
                target: "≥ 1 M events/s", met: rate >= 1e6 && agree)
        ]
    }

    /// A deterministic 5-year journal for one puppy, in the order it was logged.
    static func journal(user: Int) -> [Event] {
        var rng = SplitMix64Lite(seed: 0x6F6C_6C69_6500 &+ UInt64(user))
        let zone = "Europe/Berlin"
        let table = ZoneOffsetTable.named(zone)!
        let first = LocalDay(year: 2021, month: 3, day: 1)!
        var events: [Event] = []
        var serial = 0
        func add(_ day: LocalDay, _ hour: Int, _ payload: Event.Payload) {
            serial += 1
            let local = Int64(day.number) * 86_400 + Int64(hour) * 3600 + Int64(serial % 60)
            let at = Date(timeIntervalSince1970: Double(local - Int64(table.offset(atSecond: local))))
            events.append(Event(id: "p\(user)-\(serial)", at: at, timeZone: zone, payload: payload))
        }
        add(
            first, 8,
            .subject(
                Subject(
                    id: "pup", name: "Pup", kind: "puppy",
                    dates: ["born": first.advanced(by: -56), "gotcha": first])))
        let commands = ["sit", "down", "come", "stay", "leave-it", "paw", "wait", "heel", "spin", "place", "roll"]
        let groups = ["dogs", "vehicles", "surfaces", "people", "sounds"]
        for n in 0..<1826 {
            let day = first.advanced(by: n)
            for hour in [7, 11, 15, 19, 22] {
                let accident = rng.next() % 100 < (n < 60 ? 15 : 2)
                add(
                    day, hour, .activity(Activity(kind: "potty", item: accident ? "indoor" : "outdoor", subject: "pup"))
                )
            }
            for hour in [8, 18] { add(day, hour, .activity(Activity(kind: "meal", subject: "pup"))) }
            if rng.next() % 10 < 9 { add(day, 17, .activity(Activity(kind: "walk", subject: "pup"))) }
            if n % 9 == 0 {
                let command = commands[Int(rng.next() % UInt64(commands.count))]
                add(day, 16, .activity(Activity(kind: "command", item: command, subject: "pup")))
            }
            if n % 3 == 0 {
                let group = groups[Int(rng.next() % UInt64(groups.count))]
                let item = "\(group)-\(rng.next() % 40)"
                add(day, 12, .activity(Activity(kind: "social", item: item, group: group, subject: "pup")))
            }
            if [6, 27, 48, 69].contains(n) {
                let shot = ["dhpp-1", "dhpp-2", "dhpp-3", "rabies"][[6, 27, 48, 69].firstIndex(of: n)!]
                add(day, 10, .activity(Activity(kind: "vaccination", item: shot, subject: "pup")))
            }
        }
        // Logged as they happen: in order of their instants.
        return events.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }
}

/// A tiny deterministic generator (SplitMix64), local to the benchmark.
struct SplitMix64Lite {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
