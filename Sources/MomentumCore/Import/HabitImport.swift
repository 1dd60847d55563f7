import Foundation

/// Habits and their history read from another app's export: Loop Habit Tracker's CSV files
/// (which Momentum's own CSV export also writes) or Beaver Habit Tracker's JSON.
///
/// Reading is all or nothing: a file with any bad line throws ``HabitImportError`` naming
/// every bad line with its reason. What the other app knows and Momentum cannot hold (a
/// colour, a question, a day marked "not done") is listed in ``notes``, never silently
/// dropped. ``events(ids:zone:dayStartHour:now:)`` turns the result into the events that store it; their
/// ids derive from the habit and the day, so importing the same file twice stores it once.
///
/// docs/import.md documents the mapping field by field.
public struct HabitImport: Hashable, Sendable {
    /// The app an export comes from.
    public enum Source: String, Hashable, Sendable, CaseIterable, Codable {
        /// Loop Habit Tracker's "Export as CSV" (and Momentum's CSV export).
        case loop
        /// Beaver Habit Tracker's "Export JSON".
        case beaver
    }

    /// One day of an imported habit.
    public struct Day: Hashable, Sendable {
        /// What the other app recorded for the day.
        public enum Mark: Hashable, Sendable {
            /// Done, with the amount for a numeric habit (1 for a yes/no habit).
            case done(Double)
            /// Skipped: the day does not count either way.
            case skipped
        }

        /// The day.
        public var day: LocalDay
        /// Done or skipped.
        public var mark: Mark
        /// The note the person wrote for the day, if any.
        public var note: String?
    }

    /// One imported habit.
    public struct Habit: Hashable, Sendable {
        /// A key stable across exports of the same habit (derived from its name); the ids of
        /// the events that store it derive from it.
        public var key: String
        /// The name.
        public var name: String
        /// When it is due.
        public var schedule: Schedule
        /// What a day needs.
        public var target: Target
        /// The group (Beaver's list), if any.
        public var group: String?
        /// Whether the other app had it archived.
        public var archived: Bool
        /// The days with a mark, oldest first, at most one per day.
        public var days: [Day]
    }

    /// The app the export came from.
    public var source: Source
    /// The habits, in the order the other app showed them.
    public var habits: [Habit]
    /// What was not brought over, one sentence each ("12 days marked not done: Momentum
    /// counts a day without a check-in as missed by itself").
    public var notes: [String]

    /// The most habits one import may hold (an account holds at most
    /// ``EventLimits/maximumHabits``).
    public static let maximumHabits = EventLimits.maximumHabits
    /// The most marked days one import may hold: 200 habits for a year, or 10 habits for
    /// 20 years.
    public static let maximumDays = 73_000
    /// The most lines one file of an export may hold.
    public static let maximumRecords = 100_000

    // MARK: Loop Habit Tracker

    /// Reads a Loop Habit Tracker CSV export (or Momentum's own CSV export): the files of
    /// its zip archive by their path in it.
    ///
    /// `Habits.csv` is required. Each habit's marks come from its own folder's
    /// `Checkmarks.csv` (`001 Read/Checkmarks.csv`: `Date,Value,Notes`), or, for a habit
    /// without one, from its column in the top-level `Checkmarks.csv`. Other files
    /// (`Scores.csv`) are ignored.
    ///
    /// - Parameter files: Each file's path in the archive and its text.
    /// - Throws: ``HabitImportError`` naming every bad line.
    public static func loop(files: [String: String]) throws(HabitImportError) -> HabitImport {
        var reader = LoopReader(files: files)
        return try reader.read()
    }

    // MARK: Beaver Habit Tracker

    /// Reads a Beaver Habit Tracker JSON export (`{"habits": [{"name", "records": [{"day",
    /// "done", "text"}], …}], "lists": […]}`).
    ///
    /// - Parameters:
    ///   - json: The file's bytes.
    ///   - file: The file's name, for error messages.
    /// - Throws: ``HabitImportError`` naming every bad habit and record.
    public static func beaver(json: Data, file: String = "beaver.json") throws(HabitImportError) -> HabitImport {
        try BeaverReader.read(json, file: file)
    }

    // MARK: Events

    /// The ids an import gives its events, derived from the source, the habit's key and the
    /// day, so that a second import of the same export names the same events.
    public enum EventID {
        /// The id of the event that creates an imported habit.
        public static func created(_ source: Source, key: String) -> String { "import:\(source.rawValue):\(key)" }
        /// The id of the event that records an imported habit's day.
        public static func day(_ source: Source, key: String, day: LocalDay) -> String {
            "import:\(source.rawValue):\(key):\(day)"
        }
        /// The id of the event that archives an imported habit.
        public static func archived(_ source: Source, key: String) -> String {
            "import:\(source.rawValue):\(key):archived"
        }
    }

    /// The events that store the import: each habit's creation (starting on its first
    /// marked day), its completions and skips dated at midday of their day in `zone` (or
    /// `now`, for today before midday), and its archiving.
    ///
    /// - Parameters:
    ///   - ids: The habit id for each habit's key: the id it already has in the account
    ///     (a second import), or a new one that no habit of the account uses.
    ///   - zone: The account's time zone.
    ///   - dayStartHour: The hour the account's days start.
    ///   - now: The current instant; days after its local day are left out.
    /// - Returns: The events in the order the engine applies them (by day, creations first,
    ///   then by instant and id), and how many days lay in the future and were left out.
    public func events(
        ids: [String: String], zone: String, dayStartHour: Int = 0, now: Date
    ) -> (events: [Event], future: Int) {
        guard let table = ZoneOffsetTable.named(zone) else { return ([], 0) }
        let clock = DayClock(dayStartHour: dayStartHour)
        let today = clock.localDay(of: now, in: table)
        func instant(_ day: LocalDay) -> Date {
            let noon = Date(timeIntervalSince1970: Double(clock.start(of: day, in: table) + 12 * 3600))
            return min(noon, now)
        }
        // (day, rank, event): on each day creations first, so that an import into an
        // account without later events is evaluated once, day by day, never rewinding.
        var all: [(day: LocalDay, rank: Int, event: Event)] = []
        var future = 0
        for habit in habits {
            let id = ids[habit.key] ?? habit.key
            let past = habit.days.filter { $0.day <= today }
            future += habit.days.count - past.count
            let start = past.first?.day ?? today
            let definition = HabitDefinition(
                id: id, name: habit.name, schedule: habit.schedule, target: habit.target,
                startDay: start, group: habit.group)
            all.append(
                (
                    start, 0,
                    Event(
                        id: EventID.created(source, key: habit.key), at: instant(start), timeZone: zone,
                        payload: .habitCreated(definition))
                ))
            for day in past {
                let payload: Event.Payload =
                    switch day.mark {
                    case .done(let value): .completion(habit: id, day: day.day, value: value, note: day.note)
                    case .skipped: .skip(habit: id, day: day.day, note: day.note)
                    }
                all.append(
                    (
                        day.day, 1,
                        Event(
                            id: EventID.day(source, key: habit.key, day: day.day), at: instant(day.day),
                            timeZone: zone, payload: payload)
                    ))
            }
            if habit.archived {
                // Archived from the day after its last mark (an archived day is not tracked).
                let day = min(past.last.map { $0.day.advanced(by: 1) } ?? today, today)
                all.append(
                    (
                        day, 2,
                        Event(
                            id: EventID.archived(source, key: habit.key), at: instant(day), timeZone: zone,
                            payload: .habitArchived(habit: id))
                    ))
            }
        }
        // In the engine's own order (day, creations first, instant, id), so that each event
        // sorts after the ones before it and appending never inserts.
        let ordered = all.sorted {
            let (a, b) = ($0, $1)
            if a.day != b.day { return a.day < b.day }
            if min(a.rank, 1) != min(b.rank, 1) { return a.rank < b.rank }
            if a.event.at != b.event.at { return a.event.at < b.event.at }
            return a.event.id < b.event.id
        }
        return (ordered.map(\.event), future)
    }

    /// A habit key from a name: lower-case letters, digits and dashes ("Drink water!" →
    /// "drink-water"), at most 48 UTF-8 bytes (so that every event id stays within 128), or
    /// "habit" for a name with none of them.
    static func key(for name: String) -> String {
        var key = ""
        var dash = false
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                let piece = (dash && !key.isEmpty ? "-" : "") + String(character)
                guard key.utf8.count + piece.utf8.count <= 48 else { break }
                key += piece
                dash = false
            } else {
                dash = true
            }
        }
        return key.isEmpty ? "habit" : key
    }

    /// Keys for names, unique within one import (a second "Read" is "read-2"), in one pass.
    static func uniqueKeys(for names: [String]) -> [String] {
        var used: Set<String> = []
        var next: [String: Int] = [:]
        return names.map { name in
            let base = key(for: name)
            var candidate = base
            var n = next[base] ?? 2
            while used.contains(candidate) {
                candidate = "\(base)-\(n)"
                n += 1
            }
            next[base] = n
            used.insert(candidate)
            return candidate
        }
    }

    /// The note about notes written on days not done, which an import leaves out.
    static func notDoneNotes(_ n: Int) -> String {
        "\(count(n, "note", "notes")) on days not done were left out: a note belongs to a check-in or a skip"
    }

    /// A sentence with a count: "1 day", "3 days".
    static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(n) \(n == 1 ? singular : plural)"
    }
}

/// Why an export could not be imported: every bad line of every file, each with its reason.
/// Nothing of the export was imported.
public struct HabitImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One bad line.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The file, by its path in the export.
        public var file: String
        /// The line (CSV) or the record's position (JSON, as `habits[2].records[5]` in
        /// `reason`), if the problem has one.
        public var line: Int?
        /// Why.
        public var reason: String

        /// Creates a problem.
        public init(file: String, line: Int?, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }

        /// `Habits.csv:4: …`.
        public var description: String {
            line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
        }
    }

    /// The problems, in file and line order.
    public var problems: [Problem]

    /// Creates the error.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// The problems, one per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
