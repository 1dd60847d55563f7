import Foundation

extension UserEngine {
    /// Every habit's check-ins and skips by day, as an export writes them: a day's
    /// completions added up with their notes joined, a skip on a day without one, and a
    /// skip of every habit on each habit then active. Removed events are left out.
    ///
    /// - Returns: The marked days of each habit by its id, oldest first.
    public func markedDays() -> [String: [HabitImport.Day]] {
        var done: [Int: [Int: (value: Double, notes: [String])]] = [:]
        var skipped: [Int: [Int: [String]]] = [:]
        var skippedAll: [Int: [String]] = [:]
        for entry in entries {
            let note: String? =
                switch log[Int(entry.event)].payload {
                case .completion(_, _, _, let note), .skip(_, _, let note): note.flatMap { $0.isEmpty ? nil : $0 }
                default: nil
                }
            switch entry.operation {
            case .complete where entry.habit >= 0:
                var day = done[Int(entry.habit), default: [:]][entry.day] ?? (0, [])
                day.value += entry.value
                if let note { day.notes.append(note) }
                done[Int(entry.habit), default: [:]][entry.day] = day
            case .skip where entry.habit >= 0:
                skipped[Int(entry.habit), default: [:]][entry.day, default: []] += note.map { [$0] } ?? []
            case .skipAll:
                skippedAll[entry.day, default: []] += note.map { [$0] } ?? []
            default:
                break
            }
        }
        var result: [String: [HabitImport.Day]] = [:]
        for (h, definition) in run.definitions.enumerated() where run.habits.indices.contains(h) {
            let habit = run.habits[h]
            var days: [Int: HabitImport.Day] = [:]
            for (day, notes) in skippedAll where habit.isActive(on: day) {
                days[day] = HabitImport.Day(day: LocalDay(number: day), mark: .skipped, note: Self.joined(notes))
            }
            for (day, notes) in skipped[h] ?? [:] {
                days[day] = HabitImport.Day(day: LocalDay(number: day), mark: .skipped, note: Self.joined(notes))
            }
            for (day, total) in done[h] ?? [:] {
                days[day] = HabitImport.Day(
                    day: LocalDay(number: day), mark: .done(total.value), note: Self.joined(total.notes))
            }
            result[definition.id] = days.values.sorted { $0.day < $1.day }
        }
        return result
    }

    private static func joined(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "\n")
    }
}

extension UserEngine {
    /// Whether the log creates a habit with this id (archived ones too).
    public func hasHabit(_ id: String) -> Bool { habitMeta[id] != nil }
}
