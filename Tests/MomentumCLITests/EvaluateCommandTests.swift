import Foundation
import MomentumCore
import Testing

/// Runs the real `momentum` binary, as a user would.
struct EvaluateCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    func momentum(_ arguments: [String], stdin: Data? = nil) throws -> Output {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "momentum")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Self.packageRoot
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func evaluatesTheExampleLog() throws {
        let output = try momentum([
            "evaluate", "Examples/habits.jsonl", "--now", "2026-04-30T21:00:00-07:00", "--compact",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let state = try MomentumJSON.decoder().decode(UserState.self, from: output.stdout)
        #expect(state.today.description == "2026-04-30")
        #expect(state.timeZone == "America/Los_Angeles")
        #expect(state.habits.map(\.definition.id) == ["read", "run", "water", "meditate"])
        #expect(state.skippedDays.map(\.description) == ["2026-03-10"])
        #expect(state.wallet == Wallet(diamonds: 690, freezes: 10))
        #expect(state.ledger.contains { $0.source == .purchase && $0.diamonds == -50 && $0.freezes == 5 })
        #expect(state.ledger.contains { $0.source == .freezeUsed })
        #expect(state.habits.allSatisfy { $0.calendar.last?.day == state.today })
        #expect(state.rejected.isEmpty)
    }

    @Test func printsAnalyticsBesideTheState() throws {
        struct Report: Decodable { var analytics: UserAnalytics }
        let output = try momentum([
            "evaluate", "Examples/habits.jsonl", "--now", "2026-04-30T21:00:00-07:00", "--compact",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let analytics = try MomentumJSON.decoder().decode(Report.self, from: output.stdout).analytics
        #expect(analytics.today.description == "2026-04-30")
        #expect(analytics.habits.map(\.habit) == ["read", "run", "water", "meditate"])
        #expect(analytics.habits.map(\.rates.allTime.percent) == [94, 90, 90, 93])
        #expect(analytics.habits.map(\.months.count) == [4, 4, 4, 4])
        #expect(analytics.consistency.score == 90)
        #expect(analytics.profile.totalMilestones == 12)
        #expect(analytics.profile.habitsActive == 4)
        let run = analytics.habits[1]
        #expect(run.difficulty == .hard && run.score.weight == 2)
        #expect(run.trend.direction == .improving)
        #expect(run.coaching.encouragement != nil)
        #expect(run.coaching.recovery?.brokenStreak == 8)
        #expect(run.coaching.recovery?.brokenOn.description == "2026-04-05")
        #expect(analytics.comparison.first?.habit == "run")
        #expect(analytics.habits.allSatisfy { $0.last30Days.count == 30 })
        #expect(analytics.habits.allSatisfy { (0...1).contains($0.strength.value) })
    }

    @Test func evaluatesOlliesJournalWithUnlocksMemoriesAndMessages() throws {
        struct Report: Decodable {
            var unlocks: [Unlock]
            var memories: [Memory]
            var messages: [String: Message]
        }
        let output = try momentum([
            "evaluate", "Examples/ollie.jsonl", "--pack", "ollie", "--now", "2026-06-12T23:30:00+02:00",
            "--calendar-days", "1", "--compact",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try MomentumJSON.decoder().decode(Report.self, from: output.stdout)
        let rules = Set(report.unlocks.map(\.rule))
        for rule in [
            "potty-first-outdoor", "potty-trained", "command-first", "commands-10", "social-window",
            "health-vaccinations", "walks", "first-birthday",
        ] where rule != "first-birthday" {
            #expect(rules.contains(rule), "\(rule)")
        }
        #expect(!rules.contains("first-birthday"))  // Ollie turns one in December
        #expect(report.memories.count == report.unlocks.filter { $0.tier != .acknowledgment }.count)
        let retroactive = try #require(report.unlocks.first { $0.retroactive })
        #expect(report.messages[retroactive.id]?.text.hasPrefix("Looks like Ollie") == true)
    }

    @Test func aBadPackFileIsReportedWithTheFieldAndReason() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-pack-\(UUID()).json")
        try Data(
            #"{"name": "x", "achievements": [{"id": "a", "kind": "first", "title": "t", "category": "c", "tier": 2}]}"#
                .utf8
        )
        .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try momentum(["evaluate", "Examples/habits.jsonl", "--pack", file.path])
        #expect(output.status == 65)
        #expect(output.stderr.contains("achievements[0].match: a first rule needs a match (rule 'a')"))
        let unknown = try momentum(["evaluate", "Examples/habits.jsonl", "--pack", "puppies"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown pack 'puppies'"))
    }

    @Test func unknownTypesAndFieldsAreKeptAndWarnedAbout() throws {
        let log = """
            {"id":"h","type":"habit.created","at":"2026-01-01T07:00:00Z","tz":"UTC","habit":"read","name":"Read"}
            {"id":"a","type":"completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read","vaule":2}
            {"id":"m","type":"mood.logged","at":"2026-01-02T10:00:00Z","tz":"UTC","mood":"calm"}
            """
        let output = try momentum(["evaluate", "-", "--now", "2026-01-02T12:00:00Z"], stdin: Data(log.utf8))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("stdin:line 2: warning: 'vaule' is not a field of completion events"))
        #expect(output.stderr.contains("stdin:line 3: warning: 'mood.logged' is not an event type"))
        // The completion counts as one (its misspelt value is kept, not read); the new type
        // changes nothing.
        let state = try MomentumJSON.decoder().decode(UserState.self, from: output.stdout)
        #expect(state.habits.first?.current == 1)
    }

    @Test func malformedLinesAreReportedAndNothingIsEvaluated() throws {
        let log = """
            {"id":"h","type":"habit.created","at":"2026-01-01T07:00:00Z","tz":"UTC","habit":"read","name":"Read"}
            {"id":"a","type":"Completion","at":"2026-01-02T09:00:00Z","tz":"UTC","habit":"read"}
            {"id":"b","type":"completion","at":"2026-01-02T09:00:00Z","tz":"Europe/Atlantis","habit":"read"}
            {"id":"c","type":"completion","at":"2026-01-02T09:00:00Z"
            """
        let output = try momentum(["evaluate", "-", "--now", "2026-01-05T00:00:00Z"], stdin: Data(log.utf8))
        #expect(output.status == 65)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("stdin:line 2: 'Completion' is not an event type"))
        #expect(output.stderr.contains("stdin:line 3: 'Europe/Atlantis' is not an IANA time zone"))
        #expect(output.stderr.contains("stdin:line 4: not a JSON object"))
        #expect(output.stderr.contains("3 invalid lines; nothing was evaluated."))
    }

    @Test func badOptionsAreRefusedWithTheReason() throws {
        let now = try momentum(["evaluate", "Examples/habits.jsonl", "--now", "tomorrow"])
        #expect(now.status == 64)
        #expect(now.stderr.contains("is not an RFC 3339 timestamp"))
        let zone = try momentum(["evaluate", "Examples/habits.jsonl", "--tz", "Mars/Olympus"])
        #expect(zone.status == 64)
        let pack = try momentum(["evaluate", "Examples/habits.jsonl", "--pack", "chess"])
        #expect(pack.stderr.contains("unknown pack 'chess'"))
        let missing = try momentum(["evaluate", "Examples/nope.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot read Examples/nope.jsonl"))
    }

    @Test func calendarDaysLimitsTheCalendar() throws {
        let output = try momentum([
            "evaluate", "Examples/habits.jsonl", "--now", "2026-04-30T21:00:00-07:00", "--calendar-days", "90",
            "--compact",
        ])
        let state = try MomentumJSON.decoder().decode(UserState.self, from: output.stdout)
        #expect(state.habits.allSatisfy { $0.calendar.count == 90 })
    }
}
