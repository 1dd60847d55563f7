import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Synchronization
import Testing

@testable import MomentumPostgres
@testable import MomentumSQLite

/// Warm readers' version checks go together (PostgreSQL and SQLite): a read that finds a slot free
/// goes at once, the others wait and go in one statement. Each reader must get its own
/// user's version, from a statement that started after it asked.
struct VersionReadsTests {
    /// A read function that answers `version(user)` for each user and waits, while
    /// `held`, until `release()`; it records the users of each call.
    final class Reader: Sendable {
        private let calls = Mutex<[[String]]>([])
        private let gate = Mutex<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((true, []))
        let failing: Set<String>

        init(held: Bool = true, failing: Set<String> = []) {
            self.failing = failing
            gate.withLock { $0.held = held }
        }

        var batches: [[String]] { calls.withLock { $0 } }
        var blocked: Int { gate.withLock { $0.waiting.count } }

        static func version(_ user: String) -> Int64? {
            user.hasPrefix("ghost") ? nil : Int64(user.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xffff)
        }

        func release() {
            let waiting = gate.withLock { gate in
                gate.held = false
                defer { gate.waiting = [] }
                return gate.waiting
            }
            for continuation in waiting { continuation.resume() }
        }

        func read(_ users: [String]) async throws -> [String: Int64] {
            calls.withLock { $0.append(users) }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let held = gate.withLock { gate -> Bool in
                    if gate.held { gate.waiting.append(continuation) }
                    return gate.held
                }
                if !held { continuation.resume() }
            }
            try Task.checkCancellation()
            if users.contains(where: failing.contains) { throw StoreError(.unavailable, "refused") }
            var versions: [String: Int64] = [:]
            for user in users { versions[user] = Self.version(user) }
            return versions
        }
    }

    /// Polls until `condition` holds (at most 10 s).
    private func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not hold within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func readsThatFindTheSlotsTakenGoInOneStatement() async throws {
        let reads = VersionReads()
        let reader = Reader()
        let users = (0..<40).map { "user\($0)" } + ["user3", "user3", "ghost"]
        try await withThrowingTaskGroup(of: (String, Int64?).self) { group in
            // Two reads take the two slots and wait in the database.
            for user in users.prefix(VersionReads.maximumInFlight) {
                group.addTask { (user, try await reads.version(of: user, reader.read)) }
            }
            try await eventually { reader.blocked == VersionReads.maximumInFlight }
            // The rest find no slot and wait.
            for user in users.dropFirst(VersionReads.maximumInFlight) {
                group.addTask { (user, try await reads.version(of: user, reader.read)) }
            }
            try await eventually { reads.waiting == users.count - VersionReads.maximumInFlight }
            reader.release()
            var answered = 0
            for try await (user, version) in group {
                #expect(version == Reader.version(user), "\(user)")
                answered += 1
            }
            #expect(answered == users.count)
        }
        let batches = reader.batches
        // The two alone, then everyone who waited in one statement, each user once.
        #expect(batches.count == VersionReads.maximumInFlight + 1)
        #expect(batches.prefix(VersionReads.maximumInFlight).allSatisfy { $0.count == 1 })
        let together = try #require(batches.last)
        #expect(together.count == Set(together).count)
        #expect(Set(together) == Set(users.dropFirst(VersionReads.maximumInFlight)))
        #expect(reads.statistics.statements == batches.count)
        #expect(reads.statistics.reads == users.count)
        #expect(reads.waiting == 0)
    }

    @Test func aReadAloneGoesAtOnceAndAnUnknownUserHasNoVersion() async throws {
        let reads = VersionReads()
        let reader = Reader(held: false)
        #expect(try await reads.version(of: "ada", reader.read) == Reader.version("ada"))
        #expect(try await reads.version(of: "ghost-1", reader.read) == nil)
        #expect(reader.batches == [["ada"], ["ghost-1"]])
    }

    /// A statement that fails fails every read it carried, and only those: the slot goes
    /// on to the next readers.
    @Test func aFailedStatementFailsOnlyTheReadsItCarried() async throws {
        let reads = VersionReads()
        let reader = Reader(failing: ["bad"])
        try await withThrowingTaskGroup(of: (String, Result<Int64?, StoreError>).self) { group in
            @Sendable func read(_ user: String) async -> (String, Result<Int64?, StoreError>) {
                do {
                    return (user, .success(try await reads.version(of: user, reader.read)))
                } catch let error as StoreError {
                    return (user, .failure(error))
                } catch {
                    return (user, .failure(StoreError(.unavailable, "\(error)")))
                }
            }
            group.addTask { await read("bad") }
            group.addTask { await read("good0") }
            try await eventually { reader.blocked == 2 }
            for user in ["good1", "good2"] { group.addTask { await read(user) } }
            try await eventually { reads.waiting == 2 }
            reader.release()
            var results: [String: Result<Int64?, StoreError>] = [:]
            for try await (user, result) in group { results[user] = result }
            #expect(results.count == 4)
            guard case .failure(let error) = results["bad"] else {
                Issue.record("the failing read answered \(String(describing: results["bad"]))")
                return
            }
            #expect(error.code == .unavailable)
            for user in ["good0", "good1", "good2"] {
                #expect((try? results[user]?.get()) == Reader.version(user), "\(user)")
            }
        }
        // The slots were handed on and given back: a later read goes at once.
        #expect(try await reads.version(of: "later", reader.read) == Reader.version("later"))
        #expect(reads.waiting == 0)
    }

    /// A reader whose request is cancelled while it reads for others (its client went
    /// away) fails nobody else's read.
    @Test func aCancelledLeaderFailsNoOtherRead() async throws {
        let reads = VersionReads()
        let reader = Reader()
        try await withThrowingTaskGroup(of: (String, Int64?).self) { group in
            for user in ["first", "second"] {
                group.addTask { (user, try await reads.version(of: user, reader.read)) }
            }
            try await eventually { reader.blocked == 2 }
            // The first to wait leads the next statement; it is cancelled before it runs.
            let leader = Task { try await reads.version(of: "leader", reader.read) }
            try await eventually { reads.waiting == 1 }
            for user in ["third", "fourth"] {
                group.addTask { (user, try await reads.version(of: user, reader.read)) }
            }
            try await eventually { reads.waiting == 3 }
            leader.cancel()
            reader.release()
            for try await (user, version) in group {
                #expect(version == Reader.version(user), "\(user)")
            }
            #expect(try await leader.value == Reader.version("leader"))
        }
        #expect(reader.batches.last.map(Set.init) == ["leader", "third", "fourth"])
    }

    /// Against PostgreSQL, with a second store writing behind the first's back (another
    /// instance): many warm reads at once each see their own user's latest state.
    @Test func concurrentWarmReadsSeeEachUsersLatestState() async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_versions") { url in
            let reader = try PostgresStore(url: url)
            let writer = try PostgresStore(url: url)
            try await warmReadsSeeLatestState(reader: reader, writer: writer, migrate: true) {
                reader.versionReadCounts
            }
        }
    }

    /// The same on SQLite, with a second store on the same file writing behind the first's
    /// back (another process).
    @Test func concurrentWarmReadsOnSQLiteSeeEachUsersLatestState() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-versions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "store.sqlite").path
        let reader = try SQLiteStore(path: path)
        try await reader.migrate()
        let writer = try SQLiteStore(path: path)
        try await warmReadsSeeLatestState(reader: reader, writer: writer, migrate: false) { reader.versionReadCounts }
    }

    /// 24 users with 0 to 4 check-ins, warm in `reader`; `writer` checks in for every
    /// other one; then 5 reads of each user at once must each see the user's latest state,
    /// and go through the batched version reads (`counts`). Closes both stores.
    private func warmReadsSeeLatestState(
        reader: some MomentumStore, writer: some MomentumStore, migrate: Bool,
        counts: @Sendable () -> (statements: Int, reads: Int)
    ) async throws {
        do {
            if migrate { try await reader.migrate() }
            try await checkWarmReads(reader: reader, writer: writer, counts: counts)
        } catch {
            await reader.close()
            await writer.close()
            throw error
        }
        await reader.close()
        await writer.close()
    }

    private func checkWarmReads(
        reader: some MomentumStore, writer: some MomentumStore,
        counts: @Sendable () -> (statements: Int, reads: Int)
    ) async throws {
        let users = (0..<24).map { "reader\($0)" }
        for (index, user) in users.enumerated() {
            try await reader.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            var events = [try Fixtures.createHabit()]
            for day in 0..<(index % 5) { events.append(try Fixtures.completion("c\(day)", day: day + 1)) }
            _ = try await reader.append(events, for: user, receivedAt: Fixtures.day(6), device: nil)
        }
        @Sendable func count(_ user: String) async throws -> Int {
            try await reader.evaluate(user) { engine, _ in engine.streaks.events.count }
        }
        // Warm: every engine is cached in the reader.
        for user in users { _ = try await count(user) }
        // Another instance checks in for every other user.
        for user in users.enumerated().filter({ $0.offset.isMultiple(of: 2) }).map(\.element) {
            _ = try await writer.append(
                [try Fixtures.completion("late", day: 6)], for: user, receivedAt: Fixtures.day(6, hour: 21),
                device: nil)
        }
        let before = counts()
        let seen = try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for _ in 0..<5 {
                for user in users { group.addTask { (user, try await count(user)) } }
            }
            var seen: [String: [Int]] = [:]
            for try await (user, count) in group { seen[user, default: []].append(count) }
            return seen
        }
        for (index, user) in users.enumerated() {
            let expected = 1 + index % 5 + (index.isMultiple(of: 2) ? 1 : 0)
            #expect(seen[user] == Array(repeating: expected, count: 5), "\(user)")
        }
        let after = counts()
        #expect(after.reads - before.reads == 5 * users.count)
        #expect(after.statements - before.statements <= after.reads - before.reads)
        await #expect(throws: StoreError.self) { try await count("nobody") }
    }
}
