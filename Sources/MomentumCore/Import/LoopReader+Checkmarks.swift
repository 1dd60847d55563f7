import Foundation

extension LoopReader {
    // MARK: Checkmarks

    /// A habit's own `Checkmarks.csv`: `Date,Value,Notes`.
    mutating func checkmarks(_ file: String, _ text: String, numeric: Bool, target: Target) -> [HabitImport.Day] {
        guard let rows = table(file, text), let header = rows.records.first else { return [] }
        // Loop up to 2.3.0 wrote no header: the lines are `date,value`.
        let headerless = LocalDay(iso8601: header.fields[0].trimmingCharacters(in: .whitespaces)) != nil
        let columns = headerless ? Columns(["Date", "Value", "Notes"]) : Columns(header.fields)
        guard columns["date"] != nil, columns["value"] != nil else {
            problem(file, header.line, "the first line must name the columns Date and Value (and Notes)")
            return []
        }
        let values = rows.records.dropFirst(headerless ? 0 : 1).map {
            ($0, columns.value("value", in: $0.fields) ?? "")
        }
        let amounts = numeric || Self.looksNumeric(values.map(\.1))
        var days: [HabitImport.Day] = []
        var seen: Set<LocalDay> = []
        for (row, value) in values {
            let note = columns.value("notes", in: row.fields).flatMap { $0.isEmpty ? nil : $0 }
            guard let day = parseDay(columns.value("date", in: row.fields) ?? "", file: file, line: row.line) else {
                continue
            }
            guard seen.insert(day).inserted else {
                problem(file, row.line, "a second line for \(day)")
                continue
            }
            if let note, TextRules.hasControlCharacter(note, allowingLineBreaks: true) {
                problem(file, row.line, TextRules.controlCharacterMessage("Notes"))
                continue
            }
            if let mark = parseMark(value, amounts: amounts, target: target, file: file, line: row.line) {
                days.append(HabitImport.Day(day: day, mark: mark, note: note))
            } else if note != nil {
                // A note on a day without a check-in: kept on a check-in of nothing would
                // change the day, so it is counted among the notes left out.
                notDoneNotes += 1
            }
        }
        return days.sorted { $0.day < $1.day }
    }

    mutating func indexFolders() {
        for path in files.keys.sorted() {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].lowercased() == "checkmarks.csv" else { continue }
            let folder = String(parts[0])
            let number = String(folder.prefix { $0.isNumber })
            if !number.isEmpty, foldersByPosition[number] == nil { foldersByPosition[number] = path }
            let name = folder.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
            if foldersByName[name] == nil { foldersByName[name] = path }
        }
    }

    /// The top-level `Checkmarks.csv`: a Date column, then one column per habit by name. Loop
    /// writes its header without quoting the names, so a file that is not CSV only means
    /// that the habits without a folder of their own come without history (said in ``notes``).
    mutating func wideCheckmarks() -> (table: CSVTable, file: String, days: [LocalDay?])? {
        if let wide { return wide }
        guard let entry = files.first(where: { $0.key.lowercased() == "checkmarks.csv" }) else {
            wide = .some(nil)
            return nil
        }
        do {
            let table = try CSVTable(parsing: entry.value, maximumRecords: HabitImport.maximumRecords)
            // Each line's date, read (and a bad or repeated one reported) once.
            var seen: Set<LocalDay> = []
            let days = table.records.dropFirst().map { row -> LocalDay? in
                guard let day = parseDay(row.fields[0], file: entry.key, line: row.line) else { return nil }
                guard seen.insert(day).inserted else {
                    problem(entry.key, row.line, "a second line for \(day)")
                    return nil
                }
                return day
            }
            wide = (table, entry.key, days)
        } catch {
            notes.append(
                "\(entry.key) could not be read (\(error.reason), line \(error.line)); only habits with a folder of their own came with their days"
            )
            wide = .some(nil)
        }
        return wide ?? nil
    }

    /// One habit's column of the wide file; its dates were read once, for every habit.
    mutating func wideColumn(
        _ wide: (table: CSVTable, file: String, days: [LocalDay?]), name: String, numeric: Bool, target: Target
    ) -> [HabitImport.Day] {
        guard let header = wide.table.records.first,
            let column = header.fields.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == name })
        else { return [] }
        let rows = wide.table.records.dropFirst()
        let values = rows.map { $0.fields.indices.contains(column) ? $0.fields[column] : "" }
        let amounts = numeric || Self.looksNumeric(values)
        var days: [HabitImport.Day] = []
        for ((row, value), day) in zip(zip(rows, values), wide.days) {
            guard let day else { continue }
            if let mark = parseMark(value, amounts: amounts, target: target, file: wide.file, line: row.line) {
                days.append(HabitImport.Day(day: day, mark: mark, note: nil))
            }
        }
        return days.sorted { $0.day < $1.day }
    }

    /// Whether a column's values are amounts: a number outside Loop's old yes/no codes
    /// (-1 unknown, 0 no, 1 automatic, 2 yes, 3 skip).
    static func looksNumeric(_ values: [String]) -> Bool {
        values.contains { value in
            guard let number = Int(value) else { return Double(value) != nil }
            return !(-1...3).contains(number)
        }
    }

    /// One mark, or `nil` for a day without one (not done, filled in, unknown, empty).
    mutating func parseMark(
        _ raw: String, amounts: Bool, target: Target, file: String, line: Int
    ) -> HabitImport.Day.Mark? {
        let value = raw.trimmingCharacters(in: .whitespaces)
        switch value.uppercased() {
        case "YES_MANUAL", "YES", "DONE": return .done(1)
        case "YES_AUTO":
            automatic += 1
            return nil
        case "NO":
            // Loop 2.3.1 writes a numeric habit's logged 0 as NO: against a target it is a
            // day logged (kept, for an at-most target); elsewhere it is a day not done.
            if amounts, target.comparison != .check { return .done(0) }
            notDone += 1
            return nil
        case "SKIP": return .skipped
        case "UNKNOWN", "": return nil
        default: break
        }
        guard let number = Double(value), number.isFinite else {
            problem(file, line, "'\(raw)' is not a mark (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN or a number)")
            return nil
        }
        if !amounts {
            // Loop's older exports wrote yes/no marks as numbers.
            switch number {
            case 2: return .done(1)
            case 1:
                automatic += 1
                return nil
            case 0:
                notDone += 1
                return nil
            case 3: return .skipped
            default: return nil
            }
        }
        let amount = number / 1000
        guard amount >= 0, amount <= EventLimits.maximumValue else {
            problem(
                file, line,
                "\(raw) (\(amount) in Loop's thousandths) is outside 0…\(Int(EventLimits.maximumValue))")
            return nil
        }
        // A logged 0 is kept against a target (at most: it keeps the day; at least: it is a
        // day tried), but is no check-in where any check-in would count.
        if amount == 0, target.comparison == .check { return nil }
        return .done(amount)
    }
}
