import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Imports from other habit apps over HTTP (`POST /v1/imports`) and the CSV export (`GET
/// /v1/account/csv`), on both backends: a dry run stores nothing, an import is stored once
/// however often it is sent, a bad file stores nothing and names its lines, and the CSV
/// export imports into another account with the same history.
struct HabitImportRouteTests {
    static func body(_ source: String, _ files: [String: String], dryRun: Bool? = nil) throws -> String {
        var object: [String: Any] = ["source": source, "files": files]
        if let dryRun { object["dryRun"] = dryRun }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func berlinDay(_ instant: Date, offset: Int) -> String {
        DayClock().localDay(of: instant, in: ZoneOffsetTable.named("Europe/Berlin")!).advanced(by: offset).description
    }

    /// A Loop export: "Read" done the five days before today (one skipped), "Water" with
    /// amounts (starting a day earlier).
    static func loopFiles(now: Date) -> [String: String] {
        let day = { (offset: Int) in berlinDay(now, offset: offset) }
        return [
            "Habits.csv": """
            Position,Name,Question,Description,NumRepetitions,Interval,Color,Type,Unit,Target Type,Target Value
            001,Read,,,1,1,#FF0000,YES_NO,,,
            002,Water,,,1,1,#00FF00,NUMERICAL,glasses,AT_LEAST,8

            """,
            "001 Read/Checkmarks.csv": """
            Date,Value,Notes
            \(day(-1)),YES_MANUAL,
            \(day(-2)),SKIP,"ill, in bed"
            \(day(-3)),YES_MANUAL,
            \(day(-4)),YES_MANUAL,a "great" chapter
            \(day(-5)),YES_MANUAL,

            """,
            "002 Water/Checkmarks.csv": "Date,Value,Notes\n\(day(-6)),9000,\n\(day(-1)),4000,\n",
        ]
    }

    static func habits(_ today: JSONResponse) -> [String: [String: Any]] {
        let list = today.json["habits"] as? [[String: Any]] ?? []
        return Dictionary(
            list.map { ((($0["definition"] as? [String: Any])?["name"] as? String) ?? "?", $0) },
            uniquingKeysWith: { a, _ in a })
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aLoopExportIsImportedOnceAndTheCSVExportBringsItBack(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("ada", daysAgo: 1, client: client)
            let files = Self.loopFiles(now: harness.now)

            // A dry run reports and stores nothing.
            let dry = try await client.call(
                .post, "/v1/imports", token: token, json: try Self.body("loop", files, dryRun: true))
            #expect(dry.status == .ok, "\(dry.text)")
            #expect(dry.json["stored"] as? Int == 10)
            #expect(dry.json["dryRun"] as? Bool == true)
            var today = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.habits(today).isEmpty)

            let imported = try await client.call(.post, "/v1/imports", token: token, json: try Self.body("loop", files))
            #expect(imported.status == .ok, "\(imported.text)")
            // 2 habits, 5 days of Read (4 check-ins, 1 skip), 2 days of Water, and their order.
            #expect(imported.json["stored"] as? Int == 10)
            let report = try #require(imported.json["habits"] as? [[String: Any]])
            #expect(report.map { $0["habit"] as? String } == ["read", "water"])
            #expect(report.map { $0["checkIns"] as? Int } == [4, 2])
            #expect(report.map { $0["skips"] as? Int } == [1, 0])
            #expect(report.map { $0["new"] as? Bool } == [true, true])
            today = try await client.call(.get, "/v1/today", token: token)
            let read = try #require(Self.habits(today)["Read"])
            // Four days done and one skipped (a skip neither breaks nor extends a streak).
            #expect(read["current"] as? Int == 4, "\(read)")
            let water = try #require(Self.habits(today)["Water"])
            #expect(
                ((water["definition"] as? [String: Any])?["target"] as? [String: Any])?["atLeast"] as? Double == 8)

            // Sent again: nothing is stored twice.
            let again = try await client.call(.post, "/v1/imports", token: token, json: try Self.body("loop", files))
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.json["stored"] as? Int == 0)
            #expect(again.json["alreadyImported"] as? Int == 9)
            // The habits keep the order they had in Loop, though Water started first.
            let order = (today.json["habits"] as? [[String: Any]])?.map {
                ($0["definition"] as? [String: Any])?["name"] as? String
            }
            #expect(order == ["Read", "Water"])
            #expect((again.json["habits"] as? [[String: Any]])?.map { $0["new"] as? Bool } == [false, false])

            // A bad line: nothing imported, and the line is named.
            var bad = files
            bad["Habits.csv"] = "Name\nRead\nWalk\n"
            bad["002 Walk/Checkmarks.csv"] =
                "Date,Value\n\(Self.berlinDay(harness.now, offset: -1)),YES_MANUAL\nsoon,NO\n"
            let refused = try await client.call(.post, "/v1/imports", token: token, json: try Self.body("loop", bad))
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(refused.errorCode == "invalid_import")
            #expect(refused.errorFields == ["002 Walk/Checkmarks.csv:3"], "\(refused.text)")
            today = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.habits(today).keys.sorted() == ["Read", "Water"])

            // The CSV export, imported into another account, has the same history.
            let csv = try await client.call(.get, "/v1/account/csv", token: token)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "application/zip")
            let exported = try StoredZip.read(Array(buffer: csv.body))
            #expect(exported.keys.contains("momentum-csv/Habits.csv"))
            #expect(exported["momentum-csv/001 Read/Checkmarks.csv"]?.contains("\"a \"\"great\"\" chapter\"") == true)
            let other = try await harness.register("bob", daysAgo: 1, client: client)
            let copied = try await client.call(
                .post, "/v1/imports", token: other, json: try Self.body("loop", exported))
            #expect(copied.status == .ok, "\(copied.text)")
            #expect(copied.json["stored"] as? Int == 10)
            let theirs = Self.habits(try await client.call(.get, "/v1/today", token: other))
            #expect(theirs["Read"]?["current"] as? Int == 4)
            #expect(theirs["Water"]?["definition"] as? NSDictionary == water["definition"] as? NSDictionary)
        }
    }

    @Test func aBeaverExportIsImportedAndOneFileIsExpected() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("cy", daysAgo: 1, client: client)
            let day = Self.berlinDay(harness.now, offset: -1)
            let later = Self.berlinDay(harness.now, offset: 3)
            let json = """
                {"habits": [{"id": "x", "name": "Stretch", "records": [{"day": "\(day)", "done": true, "text": "ok"},
                                                                      {"day": "\(later)", "done": true}]},
                            {"id": "y", "name": "Gone", "status": "soft_delete", "records": []}]}
                """
            let imported = try await client.call(
                .post, "/v1/imports", token: token, json: try Self.body("beaver", ["beaver.json": json]))
            #expect(imported.status == .ok, "\(imported.text)")
            #expect(imported.json["stored"] as? Int == 2)
            // A day after today is left out, and counted as such.
            #expect(imported.json["future"] as? Int == 1)
            #expect((imported.json["habits"] as? [[String: Any]])?.first?["checkIns"] as? Int == 1)
            #expect(imported.json["notes"] as? [String] == ["1 deleted habit was left out"])

            let two = try await client.call(
                .post, "/v1/imports", token: token,
                json: try Self.body("beaver", ["a.json": json, "b.json": json]))
            #expect(two.status == .unprocessableContent)
            #expect(two.text.contains("one JSON file; 2 were sent"), "\(two.text)")

            // A field the request does not know is refused, naming it.
            let unknown = try await client.call(
                .post, "/v1/imports", token: token, json: #"{"source": "loop", "files": {}, "merge": true}"#)
            #expect(unknown.status == .unprocessableContent || unknown.status == .badRequest, "\(unknown.text)")
            let missing = try await client.call(
                .post, "/v1/imports", token: token, json: #"{"source": "loop", "files": {}}"#)
            #expect(missing.status == .unprocessableContent)
            #expect(missing.text.contains("no Habits.csv"), "\(missing.text)")
        }
    }
}

extension HabitImportRouteTests {
    /// A Loop export of `habits` habits, each marked done on `days` days from 1970-01-01.
    static func farBackLoopFiles(habits: Int, days: Int) -> [String: String] {
        let start = LocalDay(year: 1970, month: 1, day: 1)!
        var files = [
            "Habits.csv": "Position,Name\n"
                + (1...habits).map { "\(String(format: "%03d", $0)),Old \($0)\n" }.joined()
        ]
        let marks = (0..<days).map { "\(start.advanced(by: $0)),YES_MANUAL\n" }.joined()
        for n in 1...habits { files[String(format: "%03d", n) + " Old \(n)/Checkmarks.csv"] = "Date,Value\n" + marks }
        return files
    }

    /// History from 1970 costs the store far more than the same events in a fresh engine
    /// (the store moves the clock to now as it applies them, so each far-back event
    /// rewinds decades): the import plans its requests by the store's own measure, so
    /// every request it sends fits, nothing is half stored, and sending it again stores
    /// nothing twice.
    @Test(arguments: ServerHarness.Backend.allCases)
    func historyFrom1970IsStoredWholeInRequestsTheStoreTakes(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await harness.register("old", daysAgo: 1, client: client)
            // The smallest history over one request's budget: 222 events each rewinding
            // about 2 × 20,700 habit-days.
            let files = Self.farBackLoopFiles(habits: 2, days: 110)
            let imported = try await client.call(.post, "/v1/imports", token: token, json: try Self.body("loop", files))
            #expect(imported.status == .ok, "\(imported.text)")
            // 2 creations, 220 check-ins, the order.
            #expect(imported.json["stored"] as? Int == 223)
            let today = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.habits(today).count == 2)

            let again = try await client.call(.post, "/v1/imports", token: token, json: try Self.body("loop", files))
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.json["stored"] as? Int == 0)
            // The order is not sent again: no habit is new.
            #expect(again.json["alreadyImported"] as? Int == 222)
        }
    }

    /// The plan prices each event as the store will (its clock moved to now as it goes),
    /// cuts the import into requests that each fit the store's budget, and refuses an
    /// import over the whole import's budget before anything is stored.
    @Test func theImportPlanUsesTheStoresMeasure() throws {
        let now = Date(timeIntervalSince1970: 1_781_524_800)
        let parsed = try HabitImport.loop(files: Self.farBackLoopFiles(habits: 2, days: 110))
        let plan = HabitImports.plan(
            parsed, user: MomentumUser(), zone: "UTC", dayStartHour: 0, now: now,
            budget: HabitImports.evaluationBudget, maxEventsPerRequest: 1_000)
        #expect(plan.problems.isEmpty, "\(plan.problems.prefix(3))")
        #expect(plan.new.count == 223)
        #expect(plan.chunks.count > 1)
        #expect(plan.chunks.flatMap { $0.map(\.event.id) } == plan.new.map(\.event.id))
        for chunk in plan.chunks {
            #expect(chunk.reduce(0) { $0 + $1.cost } <= EventLimits.requestEvaluationBudget)
        }

        let over = HabitImports.plan(
            parsed, user: MomentumUser(), zone: "UTC", dayStartHour: 0, now: now,
            budget: EventLimits.requestEvaluationBudget, maxEventsPerRequest: 1_000)
        #expect(over.chunks.isEmpty)
        #expect(over.problems.first?.reason.contains("nothing was stored") == true)
    }
}

/// Reads the zip files the server writes (entries stored, not compressed).
enum StoredZip {
    struct Malformed: Error {}

    static func read(_ bytes: [UInt8]) throws -> [String: String] {
        func u16(_ at: Int) throws -> Int {
            guard at + 2 <= bytes.count else { throw Malformed() }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> Int { try u16(at) | (try u16(at + 2)) << 16 }
        var files: [String: String] = [:]
        var at = 0
        while try u32(at) == 0x0403_4b50 {
            #expect(try u16(at + 8) == 0, "stored")
            let size = try u32(at + 18)
            let nameLength = try u16(at + 26)
            let extra = try u16(at + 28)
            let nameStart = at + 30
            let dataStart = nameStart + nameLength + extra
            guard dataStart + size <= bytes.count else { throw Malformed() }
            let name = String(decoding: bytes[nameStart..<nameStart + nameLength], as: UTF8.self)
            let data = Array(bytes[dataStart..<dataStart + size])
            #expect(ZipWriter.crc32(data) == UInt32(try u32(at + 14)))
            files[name] = String(decoding: data, as: UTF8.self)
            at = dataStart + size
        }
        return files
    }
}
