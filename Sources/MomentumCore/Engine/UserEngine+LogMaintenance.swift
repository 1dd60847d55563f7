import Foundation

extension UserEngine {
    // MARK: - Log maintenance

    mutating func bulkLoad(_ events: [Event], lines: [Int]?, now: Date?) throws(EventLogError) {
        var errors: [MomentumError] = []
        func line(_ index: Int) -> Int { lines?[index] ?? index + 1 }
        // The caller's array becomes the log: no event is copied.
        log = events
        indexByID.reserveCapacity(events.count)
        entries.reserveCapacity(events.count)
        // Habits first, so references resolve whatever the order of lines.
        for index in events.indices {
            guard case .habitCreated = events[index].payload else { continue }
            guard habitMeta.count < EventLimits.maximumHabits else {
                errors.append(Self.tooManyHabits.at(line: line(index)))
                continue
            }
            do { try registerHabit(events[index]) } catch { errors.append(error.at(line: line(index))) }
        }
        var removals: [(line: Int, target: String)] = []
        for index in events.indices {
            if let existing = indexByID.updateValue(Int32(index), forKey: events[index].id) {
                indexByID[events[index].id] = existing
                if events[Int(existing)] != events[index] {
                    errors.append(
                        MomentumError(
                            .conflictingEventID, "event id '\(events[index].id)' is used twice for different events",
                            line: line(index), field: "id"))
                }
                continue
            }
            do {
                let entry = try validate(events[index], index: Int32(index), now: now)
                if entry.operation == .decision, case .removal(let target) = events[index].payload {
                    removals.append((line(index), target))
                } else {
                    entries.append(entry)
                }
            } catch {
                errors.append(error.at(line: line(index)))
            }
            if errors.count >= EventLog.errorLimit { break }
        }
        for (line, target) in removals {
            do { try checkRemovable(target) } catch { errors.append(error.at(line: line)) }
        }
        guard errors.isEmpty else {
            // One error per line, the first found: a line that creates a habit twice with a
            // reused id is reported once.
            var seen: Set<Int> = []
            let unique = errors.filter { seen.insert($0.line ?? -1).inserted }
            throw EventLogError(errors: unique.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        if !removals.isEmpty {
            tombstones = Set(removals.map(\.target))
            entries.removeAll { tombstones.contains(log[Int($0.event)].id) }
        }
        sortEntries()
        for entry in entries where entry.operation == .decision {
            if case .freezeDecision(let habit, let day, let accepted) = log[Int(entry.event)].payload {
                decisions[FreezeOffer(habit: habit, day: day)] = accepted
            }
        }
        recomputeTravel()
        recomputePauses()
        recomputeAmnesties()
        sweep(from: 0)
        // Decisions that answer no offer change nothing; report them.
        for entry in entries where entry.operation == .decision {
            guard case .freezeDecision(let habit, let day, _) = log[Int(entry.event)].payload else { continue }
            let offer = FreezeOffer(habit: habit, day: day)
            if !offers.contains(offer) {
                decisions[offer] = nil
                rejected.append(
                    Rejection(
                        event: log[Int(entry.event)].id, code: .noFreezeOffer,
                        message: "there was no freeze offer for '\(habit)' on \(day)"))
            }
        }
        if !rejected.isEmpty {
            // Refused events leave the log for good; evaluate once more without them so that
            // checkpoints never remember them.
            refused = rejected
            let ids = Set(refused.map(\.event))
            entries.removeAll { ids.contains(log[Int($0.event)].id) }
            for id in ids { indexByID[id] = nil }
            recompute()
        }
    }

    /// Habits are archived, not removed; a removal cannot itself be removed.
    func checkRemovable(_ target: String) throws(MomentumError) {
        switch indexByID[target].map({ log[Int($0)].payload }) {
        case .habitCreated:
            throw MomentumError(.invalidEvent, "a habit cannot be removed; archive it instead", field: "event")
        case .removal:
            throw MomentumError(.invalidEvent, "a removal cannot be removed", field: "event")
        case .some(let payload) where payload.isServerAuthored:
            throw MomentumError(.invalidEvent, "an event the server wrote cannot be removed", field: "event")
        default: break
        }
    }

    /// Withdraws an event (or remembers the tombstone if it has not arrived yet).
    mutating func remove(_ target: String) {
        tombstones.insert(target)
        guard let index = indexByID[target], let position = entries.firstIndex(where: { $0.event == index }) else {
            return
        }
        let removed = entries.remove(at: position)
        if removed.operation == .pause || removed.operation == .resume {
            let changed = recomputePauseChanges() ?? removed.day
            rewind(to: min(changed, removed.day))
        } else if removed.operation == .amnesty || removed.operation == .amnestyLifted {
            let changed = recomputeAmnestyChanges() ?? removed.day
            rewind(to: min(changed, removed.day))
        } else if case .freezeDecision(let habit, let day, _) = log[Int(index)].payload {
            decisions[FreezeOffer(habit: habit, day: day)] = nil
            rewind(to: min(day.number, removed.day))
        } else {
            rewind(to: removed.day)
        }
    }

    /// Whether `a` is applied before `b`: by day, creations first, instant, then id.
    static func precedes(_ a: Entry, _ b: Entry, in log: [Event]) -> Bool {
        if a.day != b.day { return a.day < b.day }
        if a.rank != b.rank { return a.rank < b.rank }
        if a.at != b.at { return a.at < b.at }
        return log[Int(a.event)].id < log[Int(b.event)].id
    }

    func precedes(_ a: Entry, _ b: Entry) -> Bool { Self.precedes(a, b, in: log) }

    /// Sorts the entries in application order (usually they nearly are already).
    private mutating func sortEntries() {
        guard entries.indices.dropFirst().contains(where: { precedes(entries[$0], entries[$0 - 1]) }) else { return }
        let log = self.log
        entries.sort { Self.precedes($0, $1, in: log) }
    }

    mutating func insert(_ entry: Entry) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if !precedes(entry, entries[mid]) { low = mid + 1 } else { high = mid }
        }
        entries.insert(entry, at: low)
    }

    func table(for identifier: String) -> ZoneOffsetTable? {
        if let cache = zoneCache, cache.identifier == identifier { return cache.table }
        return ZoneOffsetTable.named(identifier)
    }

    mutating func cachedTable(for identifier: String) -> ZoneOffsetTable? {
        if let cache = zoneCache, cache.identifier == identifier { return cache.table }
        guard let table = ZoneOffsetTable.named(identifier) else { return nil }
        zoneCache = (identifier, table)
        return table
    }
}
