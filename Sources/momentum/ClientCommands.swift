import ArgumentParser
import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the terminal client keeps the signed-in user's data.
struct ClientOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The client's SQLite file (default: $MOMENTUM_CLIENT_DATA or ~/.momentum/client.sqlite).",
            valueName: "path"))
    var data: String?

    var path: String {
        if let data { return data }
        if let path = ProcessInfo.processInfo.environment["MOMENTUM_CLIENT_DATA"] { return path }
        let home = FileManager.default.homeDirectoryForCurrentUser
        return home.appending(path: ".momentum/client.sqlite").path
    }

    /// Opens the client of the server this device signed in to, or of `server`.
    func open(server: String? = nil) throws -> MomentumClient {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stored = try MomentumClient.signedInServer(databasePath: path)
        guard let text = server ?? stored else {
            throw ValidationError("not signed in: run `momentum sign-in --server URL --email ADDRESS` first")
        }
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("--server must be an http:// or https:// URL, not '\(text)'")
        }
        let zone = ProcessInfo.processInfo.environment["MOMENTUM_TIME_ZONE"]
        if let zone, ZoneOffsetTable.named(zone) == nil {
            throw ValidationError("MOMENTUM_TIME_ZONE must be an IANA time zone such as Europe/Berlin, not '\(zone)'")
        }
        return try MomentumClient(server: url, databasePath: path, timeZone: zone)
    }
}

/// The password: `$MOMENTUM_PASSWORD`, else asked for on the terminal, else a line of input.
func readPassword() throws -> String {
    if let password = ProcessInfo.processInfo.environment["MOMENTUM_PASSWORD"] { return password }
    if isatty(0) != 0, let typed = getpass("Password: ") { return String(cString: typed) }
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw ValidationError("no password: set MOMENTUM_PASSWORD or type it")
    }
    return line
}

/// Tries a sync after a change made on the device and says where things stand.
func syncAfterChange(_ client: MomentumClient) async throws {
    do {
        let report = try await client.sync()
        for refused in report.refused {
            say("✗ the server refused \(refused.id): \(refused.message) (\(refused.code))")
        }
        say("Synced.")
    } catch let error as ClientError where error.isTransient {
        let waiting = try await client.pendingEvents().count
        say("Saved on this device; \(waiting) event\(waiting == 1 ? "" : "s") waiting to sync (\(error.message)).")
    }
}

/// Prints what recording an event did, at once.
func describe(_ recorded: RecordedEvent) {
    if recorded.duplicate { say("Already recorded (\(recorded.event.id)).") }
    if case .habitCreated(let definition) = recorded.event.payload {
        say("＋ added \(definition.name) [\(definition.id)] · \(wallet(recorded.wallet))")
    } else if let habit = recorded.habit {
        say("✓ \(habit.definition.name) — 🔥 \(habit.current) (best \(habit.best)) · \(wallet(recorded.wallet))")
    } else {
        say("✓ recorded · \(wallet(recorded.wallet))")
    }
    for unlock in recorded.unlocks {
        say("🎉 \(recorded.messages[unlock.id]?.text ?? unlock.title)")
    }
}

/// Prints a line at once, also into a pipe (`sync --watch | …`), where `print` would
/// keep it in a buffer until the process ends.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func wallet(_ wallet: Wallet) -> String { "💎 \(wallet.diamonds) ❄️ \(wallet.freezes)" }

/// `momentum sign-in`: signs this terminal in to a Momentum server.
struct SignIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign this terminal in to a Momentum server (the password from $MOMENTUM_PASSWORD or asked for).")

    @OptionGroup var client: ClientOptions
    @Option(help: "The server, such as http://127.0.0.1:8080.") var server: String
    @Option(help: "The account's email.") var email: String
    @Option(help: "How this device is listed among the account's devices.") var deviceName = "terminal"

    func run() async throws {
        let momentum = try client.open(server: server)
        try await momentum.signIn(email: email, password: try readPassword(), deviceName: deviceName)
        say("Signed in as \(email). \(try await momentum.syncedEvents().count) events on this device.")
    }
}

/// `momentum register`: creates an account and signs this terminal in.
struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create an account on a Momentum server and sign this terminal in.")

    @OptionGroup var client: ClientOptions
    @Option(help: "The server, such as http://127.0.0.1:8080.") var server: String
    @Option(help: "The account's email.") var email: String
    @Option(help: "The name the apps show.") var displayName: String
    @Option(help: "The IANA time zone (default: this machine's).") var timeZone: String?
    @Option(help: "The rule pack: habits, ollie, savings or growth (default: the server's).") var pack: String?
    @Option(help: "How this device is listed among the account's devices.") var deviceName = "terminal"

    func run() async throws {
        let momentum = try client.open(server: server)
        try await momentum.register(
            .init(
                deviceName: deviceName, displayName: displayName, email: email, pack: pack,
                password: try readPassword(), timeZone: timeZone ?? TimeZone.current.identifier))
        say("Registered and signed in as \(email).")
    }
}

/// `momentum today`: today's habits, from this device's copy (synced first when online).
struct Today: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Today's habits, streaks and wallet (synced first when the server can be reached).")

    @OptionGroup var client: ClientOptions
    @Flag(help: "Do not try to sync first.") var offline = false

    func run() async throws {
        let momentum = try client.open()
        if !offline { _ = try? await momentum.sync() }
        let today = try await momentum.today()
        say("\(today.today) · \(today.timeZone) · \(wallet(today.wallet))")
        let active = today.habits.filter { $0.archivedDay == nil }
        if active.isEmpty { say("  No habits yet.") }
        let width = active.map(\.definition.name.count).max() ?? 0
        for habit in active {
            let mark =
                switch habit.today.state {
                case .completed: "✓"
                case .skipped: "–"
                case .frozen: "❄"
                case .covered: "☂"
                default: habit.today.due ? "·" : " "
                }
            let name = habit.definition.name.padding(toLength: width, withPad: " ", startingAt: 0)
            say("  \(mark) \(name)  🔥 \(habit.current)  best \(habit.best)  [\(habit.definition.id)]")
        }
        for offer in today.freezeOffers {
            say("  ❄ a freeze is offered for \(offer.habit) on \(offer.day) (answer by \(offer.expires))")
        }
        let waiting = try await momentum.pendingEvents().count
        if waiting > 0 { say("\(waiting) event\(waiting == 1 ? "" : "s") waiting to sync.") }
    }
}

/// `momentum add-habit`: a new daily habit.
struct AddHabit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-habit", abstract: "Add a daily habit (saved on this device at once, then synced).")

    @OptionGroup var client: ClientOptions
    @Argument(help: "The habit's id, used by check-in and skip (such as read).") var habit: String
    @Option(help: "The name the apps show (default: the id).") var name: String?
    @Option(help: "easy, medium or hard (default medium): weights the habit in comparisons.")
    var difficulty: String = "medium"

    func run() async throws {
        guard let level = Difficulty(rawValue: difficulty) else {
            throw ValidationError("--difficulty must be easy, medium or hard, not '\(difficulty)'")
        }
        let momentum = try client.open()
        describe(
            try await momentum.record(
                .habitCreated(HabitDefinition(id: habit, name: name ?? habit, difficulty: level))))
        try await syncAfterChange(momentum)
    }
}

/// `momentum check-in`: checks a habit in, at once, online or not.
struct CheckIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-in", abstract: "Check a habit in (saved on this device at once, then synced).")

    @OptionGroup var client: ClientOptions
    @Argument(help: "The habit's id (see `momentum today`).") var habit: String
    @Option(help: "How much was done (default 1).") var value: Double = 1
    @Option(help: "A note kept with the check-in.") var note: String?
    @Option(help: "The day it counts for, YYYY-MM-DD, when not today.") var day: String?

    func run() async throws {
        let momentum = try client.open()
        let recorded = try await momentum.checkIn(habit, value: value, note: note, day: try parseDay(day))
        describe(recorded)
        try await syncAfterChange(momentum)
    }
}

/// `momentum skip`: a rest day for a habit.
struct Skip: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a rest day for a habit: it neither extends nor breaks the streak.")

    @OptionGroup var client: ClientOptions
    @Argument(help: "The habit's id.") var habit: String
    @Option(help: "A note kept with the skip.") var note: String?
    @Option(help: "The day skipped, YYYY-MM-DD, when not today.") var day: String?

    func run() async throws {
        let momentum = try client.open()
        describe(try await momentum.skip(habit, note: note, day: try parseDay(day)))
        try await syncAfterChange(momentum)
    }
}

/// `momentum buy`: freezes from the store.
struct Buy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Buy freezes with diamonds: a store item (such as freeze-5) or --days N.")

    @OptionGroup var client: ClientOptions
    @Argument(help: "A store item's id.") var item: String?
    @Option(help: "A custom number of freeze days instead of an item.") var days: Int?

    func validate() throws {
        if item != nil, days != nil { throw ValidationError("name a store item or --days, not both") }
        if item == nil, days == nil {
            throw ValidationError("name a store item (such as freeze-5) or a number of days (--days 3)")
        }
    }

    func run() async throws {
        let momentum = try client.open()
        describe(try await momentum.buy(item: item, days: days))
        try await syncAfterChange(momentum)
    }
}

/// `momentum sync`: pushes what waits on this device and pulls what other devices did.
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send what waits on this device and fetch what other devices did.")

    @OptionGroup var client: ClientOptions
    @Option(help: "Keep trying for this many seconds while the server cannot be reached (default 0).")
    var retryFor: Int = 0
    @Flag(help: "Stay connected and sync whenever anything changes, until interrupted.") var watch = false

    func run() async throws {
        let momentum = try client.open()
        let deadline = Date().addingTimeInterval(TimeInterval(max(0, min(retryFor, 86_400))))
        var failures = 0
        while true {
            do {
                let report = try await momentum.sync()
                for refused in report.refused {
                    say("✗ the server refused \(refused.id): \(refused.message) (\(refused.code))")
                }
                say(
                    "Synced: \(report.pushed) sent, \(report.duplicates) already there, \(report.pulled) fetched; "
                        + "the device is at #\(report.cursor).")
                break
            } catch let error as ClientError where error.isTransient && Date() < deadline {
                failures += 1
                let wait = RetryPolicy(initial: .milliseconds(250), maximum: .seconds(5)).delay(after: failures)
                say("Waiting to retry: \(error.message)")
                try await Task.sleep(for: wait)
            }
        }
        guard watch else { return }
        say("Watching for changes (Ctrl-C to stop)…")
        try await momentum.keepInSync { report in
            say("Synced: \(report.pushed) sent, \(report.pulled) fetched (#\(report.cursor)).")
        }
    }
}

/// `momentum sign-out`: ends this terminal's session.
struct SignOut: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out", abstract: "Sign this terminal out and remove the account's data from it.")

    @OptionGroup var client: ClientOptions
    @Flag(help: "Sign out even though events have not reached the server (they are lost).")
    var discardPending = false

    func run() async throws {
        let momentum = try client.open()
        do {
            try await momentum.signOut(discardingPending: discardPending)
        } catch let error as ClientError where error == .pendingEvents {
            throw ValidationError("\(error.message): run `momentum sync`, or sign out with --discard-pending")
        }
        say("Signed out.")
    }
}

func parseDay(_ text: String?) throws -> LocalDay? {
    guard let text else { return nil }
    guard let day = LocalDay(iso8601: text) else { throw ValidationError("--day must be YYYY-MM-DD, not '\(text)'") }
    return day
}
