import ArgumentParser
import Foundation
import MomentumCore
import MomentumStore

/// `momentum migrate`: brings a database's schema up to date.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create or upgrade the database schema (forward-only, one migration per transaction).")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        do {
            let opened = try await store.open()
            let versions = try await opened.appliedMigrations()
            await opened.close()
            print(
                "\(try store.location()): schema version \(versions.last ?? 0) (\(versions.count) migrations applied)")
        } catch {
            throw fail(error)
        }
    }
}

/// `momentum export`: writes one account as an archive directory.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export an account (profile, events, memories with photos) as JSONL plus files.",
        discussion: """
            Writes account.jsonl, memories.jsonl and the photo files under memories/ into the \
            output directory, or into one tar file when the output ends in .tar (what the web \
            app's "Download everything" gives). Importing it elsewhere restores the account exactly.
            """)

    @OptionGroup var store: StoreOptions
    @Option(name: .long, help: "The user id of the account.") var user: String
    @Option(name: .shortAndLong, help: "The directory to write (created if needed), or a .tar file.")
    var output: String

    func run() async throws {
        do {
            let opened = try await store.open()
            defer { Task { await opened.close() } }
            let archive = try await opened.exportAccount(user)
            if output.hasSuffix(".tar") {
                try archive.tar().write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                try archive.write(to: URL(fileURLWithPath: output))
            }
            print(
                "exported '\(user)': \(archive.events.count) events, \(archive.memories.count) memories, \(archive.photos.count) photos → \(output)"
            )
        } catch {
            throw fail(error)
        }
    }
}

/// `momentum import`: creates an account from an archive directory.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import an account archive written by `momentum export` or downloaded from the web app.",
        discussion: """
            The archive is a directory or a .tar file. Every line is checked first; a bad \
            archive is reported line by line and nothing is written. The import itself is one \
            transaction.
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The archive directory or .tar file.") var directory: String

    func run() async throws {
        do {
            let url = URL(fileURLWithPath: directory)
            var isDirectory: ObjCBool = false
            let archive =
                FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && !isDirectory.boolValue
                ? try AccountArchive.read(tar: try Data(contentsOf: url), origin: directory)
                : try AccountArchive.read(from: url)
            let opened = try await store.open()
            defer { Task { await opened.close() } }
            try await opened.importAccount(archive, now: Date())
            print(
                "imported '\(archive.account.id)': \(archive.events.count) events, \(archive.memories.count) memories, \(archive.photos.count) photos"
            )
        } catch {
            throw fail(error)
        }
    }
}

/// `momentum append-stream`: appends events read from standard input, one per line, and
/// prints each event's id once its append is durable. Used by the crash tests and handy
/// for loading a log into a database.
struct AppendStream: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append-stream",
        abstract: "Append JSONL events from standard input to a user's log, acknowledging each when durable.")

    @OptionGroup var store: StoreOptions
    @Option(name: .long, help: "The user id (created with a default profile if missing).") var user: String
    @Option(name: .long, help: "The rule pack for a new account.") var pack = "habits"
    @Option(name: .long, help: "How many appends to keep in flight at once.") var concurrency = 1

    func run() async throws {
        do {
            let opened = try await store.open()
            if try await opened.account(id: user) == nil {
                try await opened.createAccount(
                    Account(id: user, email: "\(user)@localhost.localdomain", passwordHash: "!", createdAt: Date()),
                    profile: Profile(displayName: user, pack: pack, updatedAt: Date()))
            }
            // The same reader as `evaluate`: comments and blank lines are skipped, and every
            // bad line is reported with its number before anything is appended.
            let events = try EventLog.parse(FileHandle.standardInput.readDataToEndOfFile()).map(\.event)
            let user = self.user
            let width = max(1, concurrency)
            try await withThrowingTaskGroup(of: [String].self) { group in
                for lane in 0..<width {
                    let mine = events.enumerated().filter { $0.offset % width == lane }.map(\.element)
                    group.addTask {
                        var acknowledged: [String] = []
                        for event in mine {
                            let result = try await opened.append([event], for: user, receivedAt: event.at, device: nil)
                            if result.outcomes[0].isStored {
                                FileHandle.standardOutput.write(Data("ack \(event.id)\n".utf8))
                            }
                            acknowledged.append(event.id)
                        }
                        return acknowledged
                    }
                }
                for try await _ in group {}
            }
            await opened.close()
        } catch {
            throw fail(error)
        }
    }
}
