import Foundation

/// Reads Loop Habit Tracker's CSV export (and Momentum's, which has the same layout and a
/// few more columns); see ``HabitImport/loop(files:)``.
struct LoopReader {
    /// The files by their path relative to the folder holding `Habits.csv`.
    var files: [String: String] = [:]
    var problems: [HabitImportError.Problem] = []
    var notes: [String] = []
    /// Days marked "not done" and days the app filled in by itself, counted for ``notes``.
    var notDone = 0
    var automatic = 0
    var approximated: [String] = []
    /// Notes written on days without a check-in.
    var notDoneNotes = 0

    /// Each habit folder's `Checkmarks.csv`, by the folder's position number ("001") and by
    /// the name after it, indexed once.
    var foldersByPosition: [String: String] = [:]
    var foldersByName: [String: String] = [:]
    /// The top-level `Checkmarks.csv`, read the first time a habit without a folder needs it
    /// (`.some(nil)` once it turned out missing or not CSV).
    var wide: (table: CSVTable, file: String, days: [LocalDay?])??

    init(files raw: [String: String]) {
        // The archive may hold the export in a folder of its own: paths are taken relative
        // to the folder of `Habits.csv`.
        let habitsPath = raw.keys.filter { Self.lastComponent($0).lowercased() == "habits.csv" }.min {
            $0.count < $1.count
        }
        let prefix = habitsPath.map { String($0.dropLast("habits.csv".count)) } ?? ""
        for (path, text) in raw where path.hasPrefix(prefix) {
            files[String(path.dropFirst(prefix.count))] = text
        }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    mutating func read() throws(HabitImportError) -> HabitImport {
        guard let habitsText = files.first(where: { $0.key.lowercased() == "habits.csv" })?.value else {
            throw HabitImportError(problems: [
                .init(
                    file: "Habits.csv", line: nil,
                    reason: "the export has no Habits.csv (choose the zip file Loop wrote, or the files in it)")
            ])
        }
        let habitRows = table("Habits.csv", habitsText)
        var habits: [HabitImport.Habit] = []
        if let habitRows, let header = habitRows.records.first {
            let columns = Columns(header.fields)
            if columns["name"] == nil {
                problem("Habits.csv", header.line, "no Name column (the first line names the columns)")
            } else {
                let rows = Array(habitRows.records.dropFirst())
                guard rows.count <= HabitImport.maximumHabits else {
                    throw HabitImportError(problems: [
                        .init(
                            file: "Habits.csv", line: nil,
                            reason: "\(rows.count) habits; an account holds at most \(HabitImport.maximumHabits)")
                    ])
                }
                let keys = HabitImport.uniqueKeys(for: rows.map { columns.value("name", in: $0.fields) ?? "" })
                indexFolders()
                for (row, key) in zip(rows, keys) {
                    if let habit = habit(row, key: key, columns: columns) { habits.append(habit) }
                }
            }
        }
        let total = habits.reduce(0) { $0 + $1.days.count }
        if total > HabitImport.maximumDays {
            problem("Checkmarks.csv", nil, "\(total) marked days; one import holds at most \(HabitImport.maximumDays)")
        }
        guard problems.isEmpty else { throw HabitImportError(problems: problems) }
        if notDone > 0 {
            notes.append(
                "\(HabitImport.count(notDone, "day", "days")) marked not done: Momentum counts a due day "
                    + "without a check-in as missed by itself")
        }
        if automatic > 0 {
            notes.append(
                "\(HabitImport.count(automatic, "day", "days")) Loop filled in by itself (YES_AUTO): Momentum "
                    + "works out which days a schedule needs by itself")
        }
        if notDoneNotes > 0 {
            notes.append(HabitImport.notDoneNotes(notDoneNotes))
        }
        notes += approximated
        return HabitImport(source: .loop, habits: habits, notes: notes)
    }

    // MARK: Habits.csv

    mutating func habit(_ row: CSVTable.Record, key: String, columns: Columns) -> HabitImport.Habit? {
        let fields = row.fields
        let file = "Habits.csv"
        guard let name = columns.value("name", in: fields)?.trimmingCharacters(in: .whitespaces), !name.isEmpty
        else {
            problem(file, row.line, "the habit has no name")
            return nil
        }
        guard !TextRules.hasControlCharacter(name) else {
            problem(file, row.line, TextRules.controlCharacterMessage("Name"))
            return nil
        }
        var schedule = Schedule.daily
        if let json = columns.value("schedule", in: fields), !json.isEmpty {
            // Momentum's own export: the schedule exactly.
            guard let decoded = try? JSONDecoder().decode(Schedule.self, from: Data(json.utf8)),
                decoded.validationFailure == nil
            else {
                problem(file, row.line, "Schedule is not a Momentum schedule: \(json)")
                return nil
            }
            schedule = decoded
        } else if let repetitions = columns.value("numrepetitions", in: fields)
            ?? columns.value("frequencynumerator", in: fields),
            let interval = columns.value("interval", in: fields) ?? columns.value("frequencydenominator", in: fields),
            !repetitions.isEmpty || !interval.isEmpty
        {
            guard let n = Int(repetitions), let k = Int(interval), (1...10_000).contains(n), (1...10_000).contains(k)
            else {
                problem(
                    file, row.line,
                    "the frequency (times, in days) must be whole numbers from 1 (\(frequencyText(repetitions, interval)))"
                )
                return nil
            }
            schedule = frequency(n, k, name: name)
        }
        let target: Target
        switch targetOf(row, columns: columns) {
        case .success(let value): target = value
        case .failure(let reason):
            problem(file, row.line, reason.text)
            return nil
        }
        let archivedText = columns.value("archived", in: fields) ?? columns.value("archived?", in: fields) ?? ""
        let archived = ["true", "yes", "1"].contains(archivedText.trimmingCharacters(in: .whitespaces).lowercased())
        let group = columns.value("group", in: fields).flatMap { $0.isEmpty ? nil : $0 }
        if let group, TextRules.hasControlCharacter(group) {
            problem(file, row.line, TextRules.controlCharacterMessage("Group"))
            return nil
        }
        // The habit's own folder: "001 Read/Checkmarks.csv" (Loop numbers them by position).
        let position = columns.value("position", in: fields)?.trimmingCharacters(in: .whitespaces) ?? ""
        let folderFile =
            position.isEmpty
            ? foldersByName[Self.sanitized(name)] : foldersByPosition[position]
        let numeric = isNumeric(row, columns: columns, target: target)
        var days: [HabitImport.Day] = []
        if let folderFile, let text = files[folderFile] {
            days = checkmarks(folderFile, text, numeric: numeric, target: target)
        } else if let wide = wideCheckmarks() {
            days = wideColumn(wide, name: name, numeric: numeric, target: target)
        }
        return HabitImport.Habit(
            key: key, name: name, schedule: schedule, target: target, group: group, archived: archived, days: days)
    }

    func frequencyText(_ repetitions: String, _ interval: String) -> String {
        "NumRepetitions \(repetitions.isEmpty ? "empty" : repetitions), Interval \(interval.isEmpty ? "empty" : interval)"
    }

    /// Loop's frequency, n times in k days, as a Momentum schedule.
    mutating func frequency(_ n: Int, _ k: Int, name: String) -> Schedule {
        if n >= k { return .daily }
        if k == 7 { return .timesPerWeek(n) }
        if n == 1, k <= 366 { return .everyNDays(k) }
        if (28...31).contains(k) { return .timesPerMonth(n) }
        let perWeek = max(1, min(7, Int((Double(n) * 7 / Double(k)).rounded())))
        approximated.append(
            "\(name): \(n) times in \(k) days has no Momentum schedule; it became \(perWeek) "
                + "time\(perWeek == 1 ? "" : "s") a week")
        return .timesPerWeek(perWeek)
    }

    /// The target from Momentum's columns (`Target Type`, `Target Value`, `Unit`) or
    /// Loop's newer ones (`Type` NUMERICAL with the same), if present.
    func targetOf(_ row: CSVTable.Record, columns: Columns) -> Result<Target, Reason> {
        let fields = row.fields
        let unit = columns.value("unit", in: fields).flatMap { $0.isEmpty ? nil : $0 }
        if let unit, TextRules.hasControlCharacter(unit) {
            return .failure(Reason(TextRules.controlCharacterMessage("Unit")))
        }
        let kind = (columns.value("target type", in: fields) ?? "").uppercased()
        let valueText = columns.value("target value", in: fields) ?? ""
        guard !kind.isEmpty || !valueText.isEmpty else {
            return .success(Target(comparison: .check, amount: 1, unit: unit))
        }
        guard let amount = Double(valueText), amount.isFinite, amount >= 0, amount <= EventLimits.maximumValue else {
            return .failure(
                Reason("Target Value must be a number from 0 to \(Int(EventLimits.maximumValue)), not '\(valueText)'"))
        }
        switch kind {
        case "AT_LEAST", "ATLEAST", "0":
            guard amount > 0 else { return .failure(Reason("an at-least Target Value must be above 0")) }
            return .success(Target(comparison: .atLeast, amount: amount, unit: unit))
        case "AT_MOST", "ATMOST", "1":
            return .success(Target(comparison: .atMost, amount: amount, unit: unit))
        default:
            return .failure(Reason("Target Type must be AT_LEAST or AT_MOST, not '\(kind)'"))
        }
    }

    /// Whether the habit's marks are amounts (Loop stores a thousandth: 8000 is 8).
    func isNumeric(_ row: CSVTable.Record, columns: Columns, target: Target) -> Bool {
        if let type = columns.value("type", in: row.fields)?.uppercased(), !type.isEmpty {
            return type == "NUMERICAL" || type == "NUMERIC" || type == "1"
        }
        return target.comparison != .check
    }

    // MARK: Helpers

    struct Reason: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    mutating func parseDay(_ text: String, file: String, line: Int) -> LocalDay? {
        guard let day = LocalDay(iso8601: text.trimmingCharacters(in: .whitespaces)),
            EventLimits.days.contains(day)
        else {
            problem(file, line, "'\(text)' is not a date between 1970-01-01 and 2199-12-31 (YYYY-MM-DD)")
            return nil
        }
        return day
    }

    mutating func table(_ file: String, _ text: String) -> CSVTable? {
        do {
            return try CSVTable(parsing: text, maximumRecords: HabitImport.maximumRecords)
        } catch {
            problem(file, error.line, error.reason)
            return nil
        }
    }

    mutating func problem(_ file: String, _ line: Int?, _ reason: String) {
        // A file with thousands of bad lines names the first hundred.
        guard problems.count < 100 else { return }
        problems.append(HabitImportError.Problem(file: file, line: line, reason: reason))
    }

    /// A habit name as Loop writes it in a folder name.
    static func sanitized(_ name: String) -> String {
        let kept = name.unicodeScalars.filter { scalar in
            scalar == " " || scalar == "." || scalar == "_" || scalar == "-"
                || (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)))
        }
        return String(String.UnicodeScalarView(kept.prefix(100))).trimmingCharacters(in: .whitespaces)
    }

    /// Columns by their lower-cased header name.
    struct Columns {
        var indices: [String: Int] = [:]

        init(_ header: [String]) {
            for (index, name) in header.enumerated() {
                let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                if indices[key] == nil { indices[key] = index }
            }
        }

        subscript(_ name: String) -> Int? { indices[name] }

        func value(_ name: String, in fields: [String]) -> String? {
            guard let index = indices[name], fields.indices.contains(index) else { return nil }
            return fields[index]
        }
    }
}
