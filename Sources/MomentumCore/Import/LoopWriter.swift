import Foundation

extension HabitImport {
    /// An account's habits as CSV files in Loop Habit Tracker's layout, which
    /// ``loop(files:)`` reads back without loss and any spreadsheet opens:
    ///
    /// - `Habits.csv`: one line per habit. Loop's columns (`Position`, `Name`, `Question`,
    ///   `Description`, `NumRepetitions`, `Interval`, `Color`), then Momentum's: `Type`
    ///   (`YES_NO` or `NUMERICAL`), `Unit`, `Target Type` (`AT_LEAST`, `AT_MOST`),
    ///   `Target Value`, `Archived`, `Group`, and `Schedule` (the schedule as Momentum's JSON,
    ///   exact where Loop's "n times in k days" is not).
    /// - `001 Read/Checkmarks.csv`, one per habit: `Date,Value,Notes`, a line per marked day;
    ///   the value is `YES_MANUAL`, `SKIP`, or for a numeric habit the day's total in
    ///   thousandths (Loop's unit: 8 glasses is 8000).
    /// - `Checkmarks.csv`: every marked day, newest first, with a column per habit.
    ///
    /// - Parameters:
    ///   - habits: The habits in the order the person shows them, each with whether it is
    ///     archived.
    ///   - days: Each habit's marked days by id (``UserEngine/markedDays()``).
    /// - Returns: Each file's path and text, `Habits.csv` first.
    public static func loopCSV(
        habits: [(definition: HabitDefinition, archived: Bool)], days: [String: [Day]]
    ) -> [(path: String, text: String)] {
        var rows = [
            [
                "Position", "Name", "Question", "Description", "NumRepetitions", "Interval", "Color", "Type", "Unit",
                "Target Type", "Target Value", "Archived", "Group", "Schedule",
            ]
        ]
        var files: [(path: String, text: String)] = []
        var folders: Set<String> = []
        for (index, habit) in habits.enumerated() {
            let definition = habit.definition
            let position = String(format: "%03d", index + 1)
            let (n, k) = loopFrequency(definition.schedule)
            let numeric = definition.target.comparison != .check
            let schedule = (try? MomentumJSON.encode(definition.schedule)).map { String(decoding: $0, as: UTF8.self) }
            rows.append([
                position, definition.name, "", "", String(n), String(k), "", numeric ? "NUMERICAL" : "YES_NO",
                definition.target.unit ?? "",
                numeric ? (definition.target.comparison == .atMost ? "AT_MOST" : "AT_LEAST") : "",
                numeric ? number(definition.target.amount) : "", habit.archived ? "true" : "false",
                definition.group ?? "", schedule ?? "",
            ])
            var folder = "\(position) \(LoopReader.sanitized(definition.name))".trimmingCharacters(in: .whitespaces)
            if !folders.insert(folder).inserted { folder = position }
            var checkmarks = [["Date", "Value", "Notes"]]
            for day in days[definition.id] ?? [] {
                checkmarks.append([day.day.description, value(day.mark, numeric: numeric), day.note ?? ""])
            }
            files.append((folder + "/Checkmarks.csv", CSVTable(rows: checkmarks).text))
        }
        // The wide file: one line per day any habit has a mark, newest first as Loop writes it.
        var byDay: [LocalDay: [Int: String]] = [:]
        for (index, habit) in habits.enumerated() {
            let numeric = habit.definition.target.comparison != .check
            for day in days[habit.definition.id] ?? [] {
                byDay[day.day, default: [:]][index] = value(day.mark, numeric: numeric)
            }
        }
        var wide = [["Date"] + habits.map(\.definition.name)]
        for day in byDay.keys.sorted(by: >) {
            let marks = byDay[day] ?? [:]
            wide.append([day.description] + habits.indices.map { marks[$0] ?? "" })
        }
        return [("Habits.csv", CSVTable(rows: rows).text), ("Checkmarks.csv", CSVTable(rows: wide).text)] + files
    }

    /// A schedule as Loop's "n times in k days" (what Loop can show of it).
    static func loopFrequency(_ schedule: Schedule) -> (Int, Int) {
        switch schedule {
        case .daily: (1, 1)
        case .weekdays(let days): (max(1, days.count), 7)
        case .timesPerWeek(let n): (n, 7)
        case .timesPerMonth(let n): (n, 30)
        case .everyNDays(let k): (1, k)
        case .monthly: (1, 30)
        case .yearly: (1, 365)
        }
    }

    static func value(_ mark: Day.Mark, numeric: Bool) -> String {
        switch mark {
        case .skipped: "SKIP"
        case .done(let amount): numeric ? number(amount * 1000) : "YES_MANUAL"
        }
    }

    /// A number without a needless fraction ("8000", "0.5").
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
