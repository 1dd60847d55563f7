import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumTestSupport

/// Benchmark 15: what a what-if costs per user against a plain full evaluation of the same
/// logs, timed in the same run (issue 49: "replaying a candidate pack costs at most 2× a plain
/// full evaluation").
///
/// The users are a mix: half keep habits under the `habits` pack (`LogGenerator`, 2 to 6
/// habits over 4 to 9 months), half keep a puppy journal under the `ollie` pack (the unlock
/// benchmark's journal, its first 4 to 9 months, ≈ 9 activities a day). Each log is a stored
/// log (`StoredEvent`, each received when it happened).
///
/// - Baseline: a plain full evaluation of each log, as the store rebuilds a user: the log
///   replayed under the pack in force (`WhatIfReplay.engine`) and the state read the way the
///   dashboard does (`state(now:profile:days: 90)`).
/// - Measured: what a what-if run does per user (`WhatIfReplays.change(for:candidate:)`):
///   the snapshot of the rewards under the pack in force from the store's engine (built
///   before timing, as the store's cache holds it; each round works on a copy), the
///   candidate's replay of the log and the comparison (`WhatIfReplay.change`).
/// - Also shown (no target): the same with the engine in force rebuilt from the log too
///   (a user the cache does not hold), that is two replays.
///
/// The candidates differ from the packs in force: `habits` without `streak-7` and with its
/// every-10-days reward at 25 diamonds instead of 20; `ollie` without `commands-5` and with
/// `walks` at 20, 50 and 100 walks instead of 25, 50 and 100.
enum WhatIfBenchmark {
    /// One user of the workload.
    struct User {
        var log: [StoredEvent]
        var current: RulePack
        var candidate: RulePack
        var now: Date
    }

    /// Runs the benchmark and returns its summary rows.
    static func run(_ settings: Settings) -> [ResultRow] {
        let users = (0..<settings.whatIfUsers).map(user)
        let events = users.reduce(0) { $0 + $1.log.count }
        let ollie = users.filter { $0.current.name == "ollie" }.count
        print(
            "  \(users.count) users (\(users.count - ollie) habits, \(ollie) ollie), \(Format.grouped(events)) events "
                + "(\(Format.grouped(events / max(users.count, 1))) per user); logs generated before timing")
        let profile = Profile(displayName: "P", updatedAt: Date(timeIntervalSince1970: 0))

        // The store's engines under the packs in force, built before timing.
        let cached = users.map { WhatIfReplay.engine($0.log, pack: $0.current, dayStartHour: profile.dayStartHour) }

        func evaluation() -> UInt64 {
            var sum: UInt64 = 0
            for user in users {
                var engine = WhatIfReplay.engine(user.log, pack: user.current, dayStartHour: profile.dayStartHour)
                let state = engine.state(now: user.now, profile: profile, days: 90)
                sum &+= UInt64(state.habits.count &+ state.ledger.count &+ engine.unlocks.count)
            }
            return sum
        }
        func whatIf() -> UInt64 {
            var sum: UInt64 = 0
            for (user, stored) in zip(users, cached) {
                var engine = stored
                let current = RewardSnapshot(&engine, at: user.now)
                let change = WhatIfReplay.change(
                    user.log, current: current, candidate: user.candidate, profile: profile, now: user.now)
                sum &+= digest(change)
            }
            return sum
        }
        func coldWhatIf() -> UInt64 {
            var sum: UInt64 = 0
            for user in users {
                let change = WhatIfReplay.change(
                    user.log, current: user.current, candidate: user.candidate, profile: profile, now: user.now)
                sum &+= digest(change)
            }
            return sum
        }

        // Interleaved rounds, so that a busy machine slows all three alike.
        var checksum: UInt64 = 0
        var baseline = Rounds()
        var measured = Rounds()
        var cold = Rounds()
        for round in 0...settings.engineRounds {
            let (a, ta) = Stopwatch.time(evaluation)
            let (b, tb) = Stopwatch.time(whatIf)
            let (c, tc) = Stopwatch.time(coldWhatIf)
            checksum = checksum &* 31 &+ a &+ b &* 7 &+ c &* 13
            // Round 0 warms up.
            guard round > 0 else { continue }
            baseline.nanoseconds.append(ta)
            measured.nanoseconds.append(tb)
            cold.nanoseconds.append(tc)
        }

        // What the candidates change (untimed), and that an unchanged pack changes nothing.
        var changed = 0
        var gained = 0
        var lost = 0
        var celebrations = 0
        var diamonds = 0
        var unchangedIsEmpty = true
        for (user, stored) in zip(users, cached) {
            var engine = stored
            let current = RewardSnapshot(&engine, at: user.now)
            let change = WhatIfReplay.change(
                user.log, current: current, candidate: user.candidate, profile: profile, now: user.now)
            if !change.isEmpty { changed += 1 }
            gained += change.gained.count
            lost += change.lost.count
            celebrations += change.celebrations
            diamonds += change.diamonds
            let same = WhatIfReplay.change(
                user.log, current: current, candidate: user.current, profile: profile, now: user.now)
            unchangedIsEmpty = unchangedIsEmpty && same.isEmpty
        }

        let ratio = measured.median / baseline.median
        let coldRatio = cold.median / baseline.median
        let perUser = { (rounds: Rounds) in Format.duration(rounds.median / Double(users.count)) + " / user" }
        let rounds = baseline.nanoseconds.count
        print("  plain evaluation:          median \(perUser(baseline)) (\(rounds) rounds)")
        print("  what-if (engine cached):   median \(perUser(measured)) (\(rounds) rounds) = \(Format.ratio(ratio))")
        print("  what-if (engine rebuilt):  median \(perUser(cold)) (\(rounds) rounds) = \(Format.ratio(coldRatio))")
        print(
            "  the candidates change \(changed) of \(users.count) users: \(gained) unlocks gained, \(lost) lost, "
                + "\(celebrations) celebrations, \(diamonds) diamonds held; "
                + "the pack in force as candidate changes nothing: \(unchangedIsEmpty)")
        print("  checksum \(checksum)")

        func rate(_ rounds: Rounds) -> String {
            Format.fixed(Double(events) / (rounds.median / 1e9) / 1e6, 2) + " M events/s"
        }
        return [
            ResultRow(
                benchmark: "what-if", metric: "per user, engine in force cached, 1 core",
                measured: Format.duration(measured.median / Double(users.count)),
                baseline: Format.duration(baseline.median / Double(users.count)) + " (plain evaluation)",
                ratio: Format.ratio(ratio), target: "≤ 2×", met: ratio <= 2 && changed > 0 && unchangedIsEmpty),
            ResultRow(
                benchmark: "what-if", metric: "per user, engine in force rebuilt",
                measured: Format.duration(cold.median / Double(users.count)),
                baseline: Format.duration(baseline.median / Double(users.count)) + " (plain evaluation)",
                ratio: Format.ratio(coldRatio)),
            ResultRow(
                benchmark: "what-if", metric: "candidate replay rate (cached)", measured: rate(measured),
                baseline: rate(baseline) + " (plain evaluation)", ratio: Format.ratio(baseline.median / measured.median)
            ),
        ]
    }

    /// The workload's user `index`: even users keep habits, odd users a puppy journal.
    static func user(_ index: Int) -> User {
        var rng = SplitMix64Lite(seed: 0x7768_6174_6966_0000 &+ UInt64(index))
        let days = 120 + Int(rng.next() % 150)
        let events: [Event]
        let current: RulePack
        if index % 2 == 0 {
            var options = LogGenerator.Options()
            options.habits = 2 + Int(rng.next() % 5)
            options.days = days
            options.completionRate = 0.7 + Double(rng.next() % 28) / 100
            options.seed = rng.next()
            events = LogGenerator(options).events()
            current = .habits
        } else {
            let journal = UnlockBenchmark.journal(user: index)
            let end = (journal.first?.at ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(Double(days) * 86_400)
            events = journal.filter { $0.at < end }
            current = .ollie
        }
        let log = events.enumerated().map { StoredEvent(seq: Int64($0 + 1), event: $1, receivedAt: $1.at) }
        let now = (events.last?.at ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(60)
        return User(log: log, current: current, candidate: candidate(of: current), now: now)
    }

    /// The candidate for a pack in force: one rule removed, one reward or threshold changed.
    static func candidate(of pack: RulePack) -> RulePack {
        var candidate = pack
        if pack.name == "ollie" {
            candidate.achievements.removeAll { $0.id == "commands-5" }
            if let walks = candidate.achievements.firstIndex(where: { $0.id == "walks" }) {
                candidate.achievements[walks].at = [20, 50, 100]
            }
        } else {
            candidate.achievements.removeAll { $0.id == "streak-7" }
            if let first = candidate.rewards.indices.first {
                candidate.rewards[first].diamonds = .fixed(25)
            }
        }
        return candidate
    }

    /// Folds a change into a number.
    static func digest(_ change: RewardChange) -> UInt64 {
        UInt64(bitPattern: Int64(change.gained.count &* 131 &+ change.lost.count &* 17 &+ change.celebrations))
            &+ UInt64(bitPattern: Int64(change.diamonds &* 7 &+ change.freezes &+ change.diamondsEarned &* 3))
    }
}
