import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum evaluate EVENTS.jsonl`: prints the state derived from a log as JSON.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the complete state derived from an event log as JSON.",
        discussion: """
            Reads a JSONL event log (one event per line; blank lines and lines starting with # \
            are ignored) and prints habits with their calendars, the wallet, the ledger, the \
            unlocks of the pack's achievements with their messages, the celebration queue, \
            memories, progression, and analytics (rates, history by week and month, trends, \
            habit strength, scores, coaching, profile statistics). If \
            any line is malformed, every bad line is reported with its number and reason on \
            standard error, nothing is evaluated, and the exit status is 65. An event of a type \
            this version does not know, or a field its type does not have, is kept and changes \
            nothing (a newer release may know it); each is reported as a warning on standard \
            error, so a misspelt field does not go unnoticed.
            """
    )

    @Argument(help: "The JSONL event log, or - for standard input.")
    var events: String

    @Option(help: "The instant to evaluate at, in RFC 3339 (default: the current time).")
    var now: String?

    @Option(help: "The rule pack: \(RulePack.bundled.keys.sorted().joined(separator: ", ")), or a pack file (.json).")
    var pack: String = "habits"

    @Option(name: .customLong("tz"), help: "The user's current IANA time zone (default: the latest event's).")
    var timeZone: String?

    @Option(help: "The local hour at which the user's day begins, 0–23.")
    var dayStart: Int = 0

    @Option(help: "How many calendar days, ending today, to print per habit (default: all).")
    var calendarDays: Int?

    @Flag(help: "Print compact JSON on one line.")
    var compact = false

    func validate() throws {
        guard (0...23).contains(dayStart) else { throw ValidationError("--day-start must be 0…23, not \(dayStart)") }
        if let calendarDays, calendarDays < 1 { throw ValidationError("--calendar-days must be at least 1") }
        if let now, RFC3339.parse(now) == nil {
            throw ValidationError("--now '\(now)' is not an RFC 3339 timestamp such as 2026-05-01T20:00:00-04:00")
        }
        if let timeZone, ZoneOffsetTable.named(timeZone) == nil {
            throw ValidationError("--tz '\(timeZone)' is not an IANA time zone such as Europe/Paris")
        }
    }

    /// The bundled pack of that name, or the pack file at that path.
    func loadPack() throws -> RulePack {
        if let bundled = RulePack.named(pack) { return bundled }
        guard pack.hasSuffix(".json") || pack.contains("/") else {
            throw fail(
                status: 64,
                "unknown pack '\(pack)': a bundled pack (\(RulePack.bundled.keys.sorted().joined(separator: ", "))) "
                    + "or the path of a pack file (.json)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: pack))
        } catch {
            throw fail(status: 66, "cannot read pack \(pack): \(error.localizedDescription)")
        }
        do {
            return try RulePack.decode(data, source: pack)
        } catch {
            throw fail(status: 65, error.message)
        }
    }

    func run() throws {
        let data: Data
        do {
            data =
                events == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: events))
        } catch {
            throw fail(status: 66, "cannot read \(events): \(error.localizedDescription)")
        }
        let instant = now.flatMap(RFC3339.parse) ?? Date()
        let rulePack = try loadPack()
        var engine = UserEngine(pack: rulePack, dayStartHour: dayStart)
        do {
            try engine.load(jsonl: data, now: instant)
        } catch {
            let name = events == "-" ? "stdin" : events
            throw fail(
                status: 65,
                error.errors.map { "\(name):\($0.description)" }.joined(separator: "\n")
                    + "\n\(error.errors.count) invalid line\(error.errors.count == 1 ? "" : "s"); nothing was evaluated."
            )
        }
        warnAboutUnknownParts(of: data)
        let state = engine.state(at: instant, zone: timeZone, calendarDays: calendarDays)
        let analytics = engine.analytics(at: instant, zone: timeZone)
        var user = MomentumUser(pack: rulePack, dayStartHour: dayStart)
        user.replay(engine.events, now: instant)
        let summary = user.summary(at: instant, zone: timeZone)
        var output = try MomentumJSON.encoder(pretty: !compact).encode(
            Report(state: state, analytics: analytics, engagement: summary))
        output.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(output)
    }
}

extension Evaluate {
    /// Writes a warning to standard error for each event whose type this engine does not
    /// know and each field an event's type does not have: they are kept and change nothing,
    /// as on the server, whose push answer warns the same way (``EventResult/warnings(for:)``).
    func warnAboutUnknownParts(of data: Data) {
        let name = events == "-" ? "stdin" : events
        var lines: [String] = []
        for (line, event) in EventLog.read(data).events {
            for warning in EventResult.warnings(for: event) {
                lines.append("\(name):line \(line): warning: \(warning.message)")
            }
        }
        guard !lines.isEmpty else { return }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

/// The output of `evaluate`: the state's fields, with `analytics` beside them.
struct Report: Encodable {
    var state: UserState
    var analytics: UserAnalytics
    var engagement: EngagementSummary

    private enum CodingKeys: String, CodingKey { case analytics }

    func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        try engagement.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(analytics, forKey: .analytics)
    }
}

/// Writes a message to standard error and exits with a status of its own.
func fail(status: Int32, _ message: String) -> ExitCode {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return ExitCode(status)
}
