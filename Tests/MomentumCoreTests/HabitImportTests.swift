import Foundation
import Testing

@testable import MomentumCore

/// Reading other apps' exports (Loop Habit Tracker's CSV, Beaver Habit Tracker's JSON),
/// the CSV export, and the round trip between them.
struct HabitImportTests {
    static let zone = "Europe/Berlin"
    /// 2026-03-20 10:00 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_773_997_200)
    static let today = LocalDay(year: 2026, month: 3, day: 20)!

    // MARK: CSV

    @Test func csvReadsQuotesLineBreaksBOMAndCRLF() throws {
        let text =
            "\u{FEFF}Date,Value,Notes\r\n2026-01-01,YES_MANUAL,\"a, \"\"quoted\"\"\nnote\"\r\n2026-01-02,NO,\r\n\n\"\""
        let table = try CSVTable(parsing: text)
        #expect(
            table.records.map(\.fields) == [
                ["Date", "Value", "Notes"], ["2026-01-01", "YES_MANUAL", "a, \"quoted\"\nnote"],
                ["2026-01-02", "NO", ""],
                [""],
            ])
        #expect(table.records.map(\.line) == [1, 2, 4, 6])
        // Written back, it reads the same.
        #expect(try CSVTable(parsing: table.text).records.map(\.fields) == table.records.map(\.fields))
    }

    @Test(arguments: [
        ("a,\"b\nc", 1, "never ends"), ("a,b\nc,\"d\"e", 2, "after the closing quote"),
    ])
    func badCSVNamesItsLine(_ text: String, _ line: Int, _ reason: String) {
        #expect {
            try CSVTable(parsing: text)
        } throws: { error in
            guard let problem = error as? CSVTable.Problem else { return false }
            return problem.line == line && problem.reason.contains(reason)
        }
    }

    @Test func aQuoteInsideAnUnquotedFieldIsKept() throws {
        #expect(try CSVTable(parsing: "a,b \"c\" d\n").records.map(\.fields) == [["a", "b \"c\" d"]])
    }

    // MARK: Loop

    static let loopHabits = """
        Position,Name,Question,Description,NumRepetitions,Interval,Color
        001,Meditate,Did you meditate today?,,1,1,#FF8F00
        002,"Gym, heavy",,,3,7,#00897B
        003,Water plants,,,1,3,#5E35B1
        004,Odd one,,,3,10,#5E35B1

        """

    static func loopFiles() -> [String: String] {
        [
            "Habits.csv": loopHabits,
            "001 Meditate/Checkmarks.csv": """
            Date,Value,Notes
            2026-03-19,YES_MANUAL,calm
            2026-03-18,SKIP,ill
            2026-03-17,NO,forgot it
            2026-03-16,YES_MANUAL,
            2026-03-15,UNKNOWN,

            """,
            "002 Gym heavy/Checkmarks.csv": "Date,Value,Notes\n2026-03-18,YES_MANUAL,\n2026-03-17,YES_AUTO,\n",
            "001 Meditate/Scores.csv": "Date,Score\n2026-03-19,0.5\n",
            // Habits 3 and 4 only in the top-level file (its header ends with a comma, as Loop writes it).
            "Checkmarks.csv": """
            Date,Meditate,"Gym, heavy",Water plants,Odd one,
            2026-03-19,YES_MANUAL,NO,YES_MANUAL,NO,
            2026-03-18,SKIP,YES_MANUAL,NO,YES_MANUAL,

            """,
        ]
    }

    @Test func aLoopExportBecomesHabitsWithTheirDaysAndSaysWhatItLeftOut() throws {
        let imported = try HabitImport.loop(files: Self.loopFiles())
        #expect(imported.source == .loop)
        #expect(imported.habits.map(\.name) == ["Meditate", "Gym, heavy", "Water plants", "Odd one"])
        #expect(imported.habits.map(\.key) == ["meditate", "gym-heavy", "water-plants", "odd-one"])
        #expect(
            imported.habits.map(\.schedule) == [.daily, .timesPerWeek(3), .everyNDays(3), .timesPerWeek(2)])
        let meditate = imported.habits[0]
        #expect(
            meditate.days == [
                .init(day: LocalDay(year: 2026, month: 3, day: 16)!, mark: .done(1), note: nil),
                .init(day: LocalDay(year: 2026, month: 3, day: 18)!, mark: .skipped, note: "ill"),
                .init(day: LocalDay(year: 2026, month: 3, day: 19)!, mark: .done(1), note: "calm"),
            ])
        #expect(imported.habits[1].days.map(\.day) == [LocalDay(year: 2026, month: 3, day: 18)!])
        #expect(imported.habits[2].days.map(\.day) == [LocalDay(year: 2026, month: 3, day: 19)!])
        #expect(imported.habits[3].days.map(\.day) == [LocalDay(year: 2026, month: 3, day: 18)!])
        #expect(imported.notes.contains { $0.hasPrefix("3 days marked not done") }, "\(imported.notes)")
        #expect(imported.notes.contains { $0.hasPrefix("1 day Loop filled in by itself") }, "\(imported.notes)")
        #expect(imported.notes.contains { $0.hasPrefix("1 note on days not done") }, "\(imported.notes)")
        #expect(imported.notes.contains { $0.hasPrefix("Odd one: 3 times in 10 days") }, "\(imported.notes)")
    }

    @Test func anExportInAFolderAndOlderNumericMarksAreRead() throws {
        let files = [
            "Loop Habits CSV 2026-03-20/Habits.csv": "Position,Name,NumRepetitions,Interval\n001,Read,1,1\n",
            "Loop Habits CSV 2026-03-20/001 Read/Checkmarks.csv":
                "Date,Value\n2026-03-19,2\n2026-03-18,0\n2026-03-17,1\n",
        ]
        let imported = try HabitImport.loop(files: files)
        #expect(imported.habits.first?.days.map(\.mark) == [.done(1)])
    }

    @Test func numericLoopHabitsKeepTheirAmounts() throws {
        let files = [
            "Habits.csv":
                "Position,Name,NumRepetitions,Interval,Type,Unit,Target Type,Target Value\n"
                + "001,Water,1,1,NUMERICAL,glasses,AT_LEAST,8\n002,Coffee,1,1,NUMERICAL,cups,AT_MOST,2\n",
            "001 Water/Checkmarks.csv": "Date,Value,Notes\n2026-03-19,8500,\n2026-03-18,0,\n",
            "002 Coffee/Checkmarks.csv": "Date,Value,Notes\n2026-03-19,0,none at all\n2026-03-18,3000,\n",
        ]
        let imported = try HabitImport.loop(files: files)
        #expect(imported.habits[0].target == Target(comparison: .atLeast, amount: 8, unit: "glasses"))
        #expect(imported.habits[0].days.map(\.mark) == [.done(0), .done(8.5)])
        #expect(imported.habits[1].target == Target(comparison: .atMost, amount: 2, unit: "cups"))
        // Logging nothing against an at-most target keeps the day.
        #expect(imported.habits[1].days.map(\.mark) == [.done(3), .done(0)])
        #expect(imported.habits[1].days.last?.note == "none at all")
    }

    @Test func aBadLoopExportNamesEveryBadLineAndImportsNothing() {
        var files = Self.loopFiles()
        files["001 Meditate/Checkmarks.csv"] =
            "Date,Value,Notes\n2026-02-30,YES_MANUAL,\n2026-03-01,MAYBE,\n2026-03-02,YES_MANUAL,\n2026-03-02,NO,\n"
        files["Habits.csv"] = Self.loopHabits + ",,,,1,1,\n005,Bad,,,0,7,\n"
        #expect {
            try HabitImport.loop(files: files)
        } throws: { error in
            guard let error = error as? HabitImportError else { return false }
            let lines = error.problems.map(\.description)
            return lines == [
                "001 Meditate/Checkmarks.csv:2: '2026-02-30' is not a date between 1970-01-01 and 2199-12-31 (YYYY-MM-DD)",
                "001 Meditate/Checkmarks.csv:3: 'MAYBE' is not a mark (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN or a number)",
                "001 Meditate/Checkmarks.csv:5: a second line for 2026-03-02",
                "Habits.csv:6: the habit has no name",
                "Habits.csv:7: the frequency (times, in days) must be whole numbers from 1 (NumRepetitions 0, Interval 7)",
            ]
        }
        #expect(throws: HabitImportError.self) { try HabitImport.loop(files: ["Scores.csv": "Date,Score\n"]) }
    }

    /// Loop up to 2.3.0: per-habit files without a header (`date,value`, marks as numbers).
    @Test func loop230FilesWithoutAHeaderAreRead() throws {
        let files = [
            "Habits.csv": "Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,Read,,,3,7,#000\n",
            "001 Read/Checkmarks.csv": "2026-03-19,2\n2026-03-18,0\n2026-03-17,2\n",
        ]
        let imported = try HabitImport.loop(files: files)
        #expect(imported.habits.first?.schedule == .timesPerWeek(3))
        #expect(imported.habits.first?.days.map(\.day.description) == ["2026-03-17", "2026-03-19"])
    }

    /// Loop 2.3.1: `FrequencyNumerator`/`FrequencyDenominator`, `Archived?`, and a numeric
    /// habit's logged 0 written as NO.
    @Test func loop231ColumnsAndAZeroWrittenAsNoAreRead() throws {
        let files = [
            "Habits.csv":
                "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,"
                + "Target Type,Target Value,Archived?\n"
                + "001,Coffee,NUMERICAL,,,1,1,#000,cups,AT_MOST,2,false\n002,Old,YES_NO,,,1,2,#000,,,,true\n",
            "001 Coffee/Checkmarks.csv": "Date,Value,Notes\n2026-03-19,NO,none today\n2026-03-18,3000,\n",
            "002 Old/Checkmarks.csv": "Date,Value,Notes\n2026-03-10,YES_MANUAL,\n",
        ]
        let imported = try HabitImport.loop(files: files)
        #expect(imported.habits.map(\.schedule) == [.daily, .everyNDays(2)])
        #expect(imported.habits.map(\.archived) == [false, true])
        #expect(imported.habits[0].days.map(\.mark) == [.done(3), .done(0)])
        #expect(imported.habits[0].days.last?.note == "none today")
        // Archived from the day after its last mark, which stays a tracked day.
        let (events, _) = imported.events(ids: [:], zone: Self.zone, now: Self.now)
        let archived = try #require(events.first { $0.id == "import:loop:old:archived" })
        #expect(archived.payload == .habitArchived(habit: "old"))
        #expect(DayClock().localDay(of: archived.at, in: ZoneOffsetTable.named(Self.zone)!).description == "2026-03-11")
    }

    /// A wide `Checkmarks.csv` Loop could not quote does not stop habits that have folders.
    @Test func anUnreadableWideFileOnlyCostsTheHabitsWithoutAFolder() throws {
        var files = Self.loopFiles()
        files["Checkmarks.csv"] = "Date,\"Deep\" work,\n2026-03-19,YES_MANUAL,\n"
        let imported = try HabitImport.loop(files: files)
        #expect(imported.habits[0].days.count == 3)
        #expect(imported.habits[2].days.isEmpty)
        #expect(imported.notes.contains { $0.hasPrefix("Checkmarks.csv could not be read") }, "\(imported.notes)")
    }

    /// The wide file's dates are read once: a bad one is one problem, however many habits
    /// read their column from it.
    @Test func aBadDateInTheWideFileIsNamedOnce() {
        let files = ["Habits.csv": "Name\nA\nB\n", "Checkmarks.csv": "Date,A,B,\nsoon,YES_MANUAL,YES_MANUAL,\n"]
        #expect {
            try HabitImport.loop(files: files)
        } throws: { error in
            (error as? HabitImportError)?.problems.map(\.description) == [
                "Checkmarks.csv:2: 'soon' is not a date between 1970-01-01 and 2199-12-31 (YYYY-MM-DD)"
            ]
        }
    }

    /// Names in any script make keys whose event ids stay within 128 bytes; many habits of
    /// one name get their keys in one pass; an export past the limits is refused at once.
    @Test func keysAreBoundedInBytesAndLargeExportsAreRefused() throws {
        let long = String(repeating: "ж", count: 80)
        let key = HabitImport.key(for: long)
        #expect(key.utf8.count <= 48)
        #expect(HabitImport.EventID.day(.beaver, key: key, day: Self.today).utf8.count <= 128)
        let keys = HabitImport.uniqueKeys(for: Array(repeating: "Read", count: 5_000))
        #expect(Set(keys).count == 5_000)
        #expect(keys.last == "read-5000")
        let many = "Name\n" + String(repeating: "a\n", count: 201)
        #expect {
            try HabitImport.loop(files: ["Habits.csv": many])
        } throws: { error in
            (error as? HabitImportError)?.problems.map(\.reason) == ["201 habits; an account holds at most 200"]
        }
        let lines = "Name\nA\n", checks = "Date,Value\n" + String(repeating: "2026-01-01,NO\n", count: 100_001)
        #expect(throws: HabitImportError.self) {
            try HabitImport.loop(files: ["Habits.csv": lines, "001 A/Checkmarks.csv": checks])
        }
    }

    // MARK: Beaver

    @Test func aBeaverExportBecomesHabitsInTheirLists() throws {
        let json = """
            {"habits": [
              {"id": "a1", "name": "Stretch", "status": "active", "list_id": "l1", "weekly_goal": 3,
               "records": [{"day": "2026-03-18", "done": true, "text": "morning"},
                           {"day": "2026-03-19", "done": false, "text": "too tired"},
                           {"day": "2026-03-17", "done": true}]},
              {"id": "a2", "name": "Old habit", "status": "archive", "records": [{"day": "2026-01-02", "done": true}]},
              {"id": "a3", "name": "Gone", "status": "soft_delete", "records": []},
              {"id": "a4", "name": "Every other day", "period": {"period_type": "D", "period_count": 2, "target_count": 1},
               "records": []},
              {"id": "a5", "name": "Fortnightly", "tags": ["Chores"],
               "period": {"period_type": "W", "period_count": 2, "target_count": 1}, "records": []}
            ], "lists": [{"id": "l1", "name": "Morning routine"}], "order": ["a1", "a2"]}
            """
        let imported = try HabitImport.beaver(json: Data(json.utf8))
        #expect(imported.habits.map(\.name) == ["Stretch", "Old habit", "Every other day", "Fortnightly"])
        #expect(imported.habits.map(\.schedule) == [.timesPerWeek(3), .daily, .everyNDays(2), .timesPerWeek(1)])
        #expect(imported.habits.map(\.group) == ["Morning routine", nil, nil, "Chores"])
        #expect(imported.habits.map(\.archived) == [false, true, false, false])
        #expect(imported.notes.contains { $0.hasPrefix("Fortnightly: 1 times every 2 W") }, "\(imported.notes)")
        #expect(imported.habits[0].days.map(\.note) == [nil, "morning"])
        #expect(imported.notes.contains("1 deleted habit was left out"), "\(imported.notes)")
        #expect(imported.notes.contains { $0.hasPrefix("1 note on days not done") }, "\(imported.notes)")
    }

    @Test func aBadBeaverExportNamesEachBadRecord() {
        let json = #"{"habits": [{"name": "A", "records": [{"day": "yesterday", "done": true}, 5]}, {"records": []}]}"#
        #expect {
            try HabitImport.beaver(json: Data(json.utf8), file: "b.json")
        } throws: { error in
            (error as? HabitImportError)?.problems.map(\.reason) == [
                "habits[0].records[0]: day must be a date between 1970-01-01 and 2199-12-31 (YYYY-MM-DD)",
                "habits[0].records[1] is not an object", "habits[1] has no name",
            ]
        }
        #expect(throws: HabitImportError.self) { try HabitImport.beaver(json: Data("[1, 2]".utf8)) }
        #expect(throws: HabitImportError.self) { try HabitImport.beaver(json: Data("not json".utf8)) }
    }

    // MARK: Events

    @Test func eventsStartEachHabitOnItsFirstDayAndNameThemByHabitAndDay() throws {
        let imported = try HabitImport.loop(files: Self.loopFiles())
        let (events, future) = imported.events(
            ids: ["meditate": "meditate-2"], zone: Self.zone, now: Self.now)
        #expect(future == 0)
        let created = events.prefix(4)
        guard case .habitCreated(let definition) = created.first?.payload else {
            Issue.record("no creation first")
            return
        }
        #expect(definition.id == "meditate-2")
        #expect(definition.startDay == LocalDay(year: 2026, month: 3, day: 16))
        #expect(events.map(\.id).contains("import:loop:meditate:2026-03-18"))
        #expect(Set(events.map(\.id)).count == events.count)
        // Every day at its own midday, so a replay is in day order; never after now.
        #expect(events.allSatisfy { $0.at <= Self.now })
        var engine = UserEngine()
        for event in events { try engine.append(event, now: Self.now) }
        let state = engine.state(at: Self.now, zone: Self.zone)
        // In creation order, which is the order of their first days.
        #expect(state.habits.map(\.definition.name) == ["Meditate", "Gym, heavy", "Odd one", "Water plants"])
        // Imported twice: every event a duplicate.
        for event in events { #expect(try engine.append(event, now: Self.now) == .duplicate) }
    }

    @Test func daysAfterTodayAreLeftOut() throws {
        let files = [
            "Habits.csv": "Name\nRead\n",
            "001 Read/Checkmarks.csv": "Date,Value\n2026-03-19,YES_MANUAL\n2026-03-25,YES_MANUAL\n",
        ]
        let (events, future) = try HabitImport.loop(files: files).events(ids: [:], zone: Self.zone, now: Self.now)
        #expect(future == 1)
        #expect(events.count == 2)
    }

    // MARK: Round trip

    @Test func theCSVExportImportsBackWithoutLoss() throws {
        let base = Self.today.advanced(by: -10)
        func at(_ day: LocalDay) -> Date {
            let table = ZoneOffsetTable.named(Self.zone)!
            return Date(timeIntervalSince1970: Double(DayClock().start(of: day, in: table) + 9 * 3600))
        }
        var engine = UserEngine()
        var events: [Event] = [
            Event(
                id: "h1", at: at(base), timeZone: Self.zone,
                payload: .habitCreated(HabitDefinition(id: "read", name: "Read, daily", group: "Evening"))),
            Event(
                id: "h2", at: at(base), timeZone: Self.zone,
                payload: .habitCreated(
                    HabitDefinition(
                        id: "water", name: "Water", target: Target(comparison: .atLeast, amount: 8, unit: "glasses")))),
            Event(
                id: "h3", at: at(base), timeZone: Self.zone,
                payload: .habitCreated(
                    HabitDefinition(
                        id: "coffee", name: "Coffee", schedule: .weekdays([.monday, .wednesday]),
                        target: Target(comparison: .atMost, amount: 2, unit: "cups")))),
        ]
        for offset in 0..<10 {
            let day = base.advanced(by: offset)
            events.append(
                Event(
                    id: "r\(offset)", at: at(day), timeZone: Self.zone,
                    payload: offset == 4
                        ? .skip(habit: "read", day: nil, note: "travel")
                        : .completion(
                            habit: "read", day: nil, value: 1, note: offset == 2 ? "a \"good\", long\nbook" : nil)))
            events.append(
                Event(
                    id: "w\(offset)", at: at(day), timeZone: Self.zone,
                    payload: .completion(habit: "water", day: nil, value: 2.5 * Double(offset % 4), note: nil)))
        }
        events.append(
            Event(
                id: "c1", at: at(base.advanced(by: 3)), timeZone: Self.zone,
                payload: .completion(habit: "coffee", day: nil, value: 0, note: nil)))
        events.append(
            Event(id: "a1", at: at(base.advanced(by: 9)), timeZone: Self.zone, payload: .habitArchived(habit: "coffee"))
        )
        for event in events { try engine.append(event, now: Self.now) }
        let state = engine.state(at: Self.now, zone: Self.zone)
        let habits = state.habits.map { (definition: $0.definition, archived: $0.archivedDay != nil) }
        let exported = engine.markedDays()
        let files = HabitImport.loopCSV(habits: habits, days: exported)
        #expect(files.first?.path == "Habits.csv")
        #expect(files.map(\.path).contains("001 Read daily/Checkmarks.csv"))

        let imported = try HabitImport.loop(files: Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.text) }))
        let ids = Dictionary(uniqueKeysWithValues: zip(imported.habits.map(\.key), ["read", "water", "coffee"]))
        var copy = UserEngine()
        for event in imported.events(ids: ids, zone: Self.zone, now: Self.now).events {
            try copy.append(event, now: Self.now)
        }
        #expect(copy.markedDays() == exported)
        let again = copy.state(at: Self.now, zone: Self.zone)
        for (original, copied) in zip(state.habits, again.habits) {
            #expect(copied.definition.name == original.definition.name)
            #expect(copied.definition.schedule == original.definition.schedule)
            #expect(copied.definition.target == original.definition.target)
            #expect(copied.definition.group == original.definition.group)
            #expect((copied.archivedDay != nil) == (original.archivedDay != nil))
        }
        #expect(again.habits.map(\.current) == state.habits.map(\.current))
    }
}
