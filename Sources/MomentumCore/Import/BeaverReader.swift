import Foundation

/// Reads Beaver Habit Tracker's JSON export; see ``HabitImport/beaver(json:file:)``.
enum BeaverReader {
    static func read(_ data: Data, file: String) throws(HabitImportError) -> HabitImport {
        func failure(_ reason: String) -> HabitImportError {
            HabitImportError(problems: [.init(file: file, line: nil, reason: reason)])
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) else {
            throw failure("the file is not JSON (choose the file Beaver's Export JSON wrote)")
        }
        guard let object = root as? [String: Any], let habits = object["habits"] as? [Any] else {
            throw failure("the file has no \"habits\" list; it is not a Beaver Habit Tracker export")
        }
        var problems: [HabitImportError.Problem] = []
        func problem(_ reason: String) {
            if problems.count < 100 { problems.append(.init(file: file, line: nil, reason: reason)) }
        }
        guard habits.count <= HabitImport.maximumHabits else {
            throw failure("\(habits.count) habits; an account holds at most \(HabitImport.maximumHabits)")
        }
        var lists: [String: String] = [:]
        for case let list as [String: Any] in object["lists"] as? [Any] ?? [] {
            if let id = list["id"].flatMap(string), let name = list["name"] as? String, !name.isEmpty,
                !TextRules.hasControlCharacter(name)
            {
                lists[id] = name
            }
        }
        var notes: [String] = []
        var notDoneNotes = 0
        var deleted = 0
        var approximated: [String] = []
        var read: [(name: String, habit: HabitImport.Habit)] = []
        for (index, element) in habits.enumerated() {
            let at = "habits[\(index)]"
            guard let habit = element as? [String: Any] else {
                problem("\(at) is not an object")
                continue
            }
            guard let name = (habit["name"] as? String)?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
                problem("\(at) has no name")
                continue
            }
            guard !TextRules.hasControlCharacter(name) else {
                problem("\(at): \(TextRules.controlCharacterMessage("name"))")
                continue
            }
            let status = (habit["status"] as? String)?.lowercased() ?? "active"
            if status == "soft_delete" || status == "deleted" {
                deleted += 1
                continue
            }
            let archived = status.hasPrefix("archive")
            var schedule = Schedule.daily
            if let period = habit["period"] as? [String: Any] {
                let type = (period["period_type"] as? String ?? "D").uppercased()
                let every = integer(period["period_count"]) ?? 1
                let times = integer(period["target_count"]) ?? 1
                switch (type, every, times) {
                case (_, _, let t) where t < 1: schedule = .daily
                case ("D", 1, _): schedule = .daily
                case ("D", let k, 1) where (2...366).contains(k): schedule = .everyNDays(k)
                case ("W", 1, let t) where t <= 7: schedule = t == 7 ? .daily : .timesPerWeek(t)
                case ("M", 1, let t) where t <= 31: schedule = .timesPerMonth(t)
                default:
                    // The nearest times per week.
                    let days = Double(max(1, every)) * (["W": 7, "M": 30, "Y": 365][type] ?? 1)
                    let perWeek = max(1, min(7, Int((Double(times) * 7 / days).rounded())))
                    schedule = perWeek == 7 ? .daily : .timesPerWeek(perWeek)
                    approximated.append(
                        "\(name): \(times) times every \(every) \(type) has no Momentum schedule; it became "
                            + (perWeek == 7 ? "daily" : "\(perWeek) time\(perWeek == 1 ? "" : "s") a week"))
                }
            } else if let goal = integer(habit["weekly_goal"]), goal > 0 {
                schedule = goal >= 7 ? .daily : .timesPerWeek(goal)
            }
            var byDay: [LocalDay: HabitImport.Day] = [:]
            var notesByDay: [LocalDay: [String]] = [:]
            let records = habit["records"] as? [Any] ?? []
            guard records.count <= HabitImport.maximumDays else {
                problem("\(at) has \(records.count) records; one import holds at most \(HabitImport.maximumDays) days")
                continue
            }
            for (position, element) in records.enumerated() {
                let place = "\(at).records[\(position)]"
                guard let record = element as? [String: Any] else {
                    problem("\(place) is not an object")
                    continue
                }
                guard let text = record["day"] as? String, let day = LocalDay(iso8601: text),
                    EventLimits.days.contains(day)
                else {
                    problem("\(place): day must be a date between 1970-01-01 and 2199-12-31 (YYYY-MM-DD)")
                    continue
                }
                let note = (record["text"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                if let note, TextRules.hasControlCharacter(note, allowingLineBreaks: true) {
                    problem("\(place): \(TextRules.controlCharacterMessage("text"))")
                    continue
                }
                let done = (record["done"] as? Bool) ?? false
                guard done else {
                    if note != nil { notDoneNotes += 1 }
                    continue
                }
                // Two records for one day (an older Beaver could write them) are one check-in.
                byDay[day] = HabitImport.Day(day: day, mark: .done(1), note: nil)
                if let note { notesByDay[day, default: []].append(note) }
            }
            for (day, notes) in notesByDay { byDay[day]?.note = notes.joined(separator: "\n") }
            // Beaver's first tag, or the list of an export that has lists.
            let tag = (habit["tags"] as? [Any])?.first.flatMap { $0 as? String }.flatMap {
                $0.isEmpty || TextRules.hasControlCharacter($0) ? nil : String($0.prefix(100))
            }
            let group = tag ?? habit["list_id"].flatMap(string).flatMap { lists[$0] }
            read.append(
                (
                    name,
                    HabitImport.Habit(
                        key: "", name: name, schedule: schedule, target: .check, group: group, archived: archived,
                        days: byDay.values.sorted { $0.day < $1.day })
                ))
        }
        let total = read.reduce(0) { $0 + $1.habit.days.count }
        if total > HabitImport.maximumDays {
            problem("\(total) days done; one import holds at most \(HabitImport.maximumDays)")
        }
        guard problems.isEmpty else { throw HabitImportError(problems: problems) }
        let keys = HabitImport.uniqueKeys(for: read.map(\.name))
        var imported = read.map(\.habit)
        for index in imported.indices { imported[index].key = keys[index] }
        if deleted > 0 {
            notes.append("\(HabitImport.count(deleted, "deleted habit was", "deleted habits were")) left out")
        }
        if notDoneNotes > 0 {
            notes.append(HabitImport.notDoneNotes(notDoneNotes))
        }
        notes += approximated
        return HabitImport(source: .beaver, habits: imported, notes: notes)
    }

    /// A JSON number that is a whole number in `Int`'s range, or `nil`.
    static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double.rounded() == double, abs(double) < 1e9 else { return nil }
        return Int(double)
    }

    /// A JSON string, or a number written as text (list ids).
    static func string(_ value: Any) -> String? {
        if let text = value as? String { return text }
        if let number = integer(value) { return String(number) }
        return nil
    }
}
