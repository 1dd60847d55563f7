import Foundation
import MomentumCore
import MomentumPostgres
import MomentumStore
import MomentumTestSupport
import Testing

/// PostgreSQL writes appends that arrive together in one statement for many users, each
/// guarded by its own version check.
@Suite struct GuardedBatchTests {
    /// A head update and an event insert for `user`, as an append writes them.
    static func write(_ user: String, seq: Int64, version: Int64) -> GuardedWrite? {
        GuardedWrite(
            user: user, version: version,
            statements: [
                SQLStatement(
                    """
                    INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(user), .integer(seq), .text("e\(seq)-\(user)"), .text("completion"),
                        .real(1_767_225_600), .text("UTC"), .text(Self.body(user, seq: seq)), .real(1_767_225_601),
                        seq.isMultiple(of: 2) ? .null : .text("phone"),
                    ]),
                SQLStatement(
                    """
                    UPDATE user_heads SET version = version + 1, head_seq = ?, diamonds = ?, freezes = ?, evaluated_at = ?
                    WHERE user_id = ?
                    """,
                    [.integer(seq), .integer(seq * 10), .integer(1), .real(1_767_225_602), .text(user)]),
            ])
    }

    /// An event's stored JSON, with a note that needs quoting.
    static func body(_ user: String, seq: Int64) -> String {
        #"{"at":"2026-01-01T00:00:00Z","habit":"read","id":"e\#(seq)-\#(user)","note":"it's \"quoted\" \\ too","tz":"UTC","type":"completion"}"#
    }

    @Test func aBatchWritesTheWritesWhoseVersionHoldsAndNothingOfTheOthers() async throws {
        try await StoreFixture.withStore(.postgres) { backend in
            let store = try #require(backend as? PostgresStore)
            let users = ["ana", "ben", "cy", "dee"]
            for user in users {
                try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            }
            let versions = try await withThrowingTaskGroup(of: (String, Int64).self) { group in
                for user in users { group.addTask { (user, try await store.projection(of: user).version) } }
                return try await group.reduce(into: [String: Int64]()) { $0[$1.0] = $1.1 }
            }
            // "ben" was computed against a version that is no longer stored.
            let writes = try users.map { user in
                try #require(Self.write(user, seq: 1, version: versions[user]! - (user == "ben" ? 1 : 0)))
            }
            #expect(GuardedWrite.batch(writes) != nil)
            let before = store.guardedWriteCounts
            let results = await store.writeTogether(writes)
            #expect(results.map { try? $0.get() } == [true, false, true, true])
            #expect(store.guardedWriteCounts.statements == before.statements + 1, "one statement for all four")
            for user in users {
                let events = try await store.events(of: user, after: 0, limit: 10)
                let projection = try await store.projection(of: user)
                if user == "ben" {
                    #expect(events.isEmpty)
                    #expect(projection.version == versions[user]!)
                    #expect(projection.wallet.diamonds == 0)
                } else {
                    #expect(events.map(\.seq) == [1])
                    #expect(events.first?.event.id == "e1-\(user)")
                    if case .completion(_, _, _, let note)? = events.first?.event.payload {
                        #expect(note == #"it's "quoted" \ too"#)
                    } else {
                        Issue.record("not a completion: \(events)")
                    }
                    #expect(events.first?.device == "phone")
                    #expect(projection.version == versions[user]! + 1)
                    #expect(projection.headSeq == 1)
                    #expect(projection.wallet.diamonds == 10)
                }
            }
        }
    }

    @Test func aBatchThatFailsIsWrittenOneByOneAndOnlyTheBadWriteFails() async throws {
        try await StoreFixture.withStore(.postgres) { backend in
            let store = try #require(backend as? PostgresStore)
            for user in ["eve", "fay"] {
                try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            }
            let eve = try await store.projection(of: "eve").version
            let fay = try await store.projection(of: "fay").version
            try #require(Self.write("eve", seq: 1, version: eve) != nil)
            _ = await store.writeTogether([Self.write("eve", seq: 1, version: eve)!])
            // Event 1 of "eve" is stored: writing it again breaks the batch (a duplicate key).
            let again = try #require(Self.write("eve", seq: 1, version: eve + 1))
            let good = try #require(Self.write("fay", seq: 1, version: fay))
            let before = store.guardedWriteCounts
            let results = await store.writeTogether([again, good])
            #expect(store.guardedWriteCounts.failedBatches == before.failedBatches + 1)
            #expect((try? results[0].get()) == nil, "the duplicate reports its error")
            #expect((try? results[1].get()) == true)
            #expect(try await store.events(of: "fay", after: 0, limit: 10).map(\.seq) == [1])
            #expect(try await store.events(of: "eve", after: 0, limit: 10).map(\.seq) == [1])
        }
    }

    /// A batch's arrays travel in binary form: every element type, `NULL`s, and values that
    /// SQL text would have to escape arrive as they were.
    @Test func aBatchCarriesEveryColumnTypeAndNullUnchanged() async throws {
        try await StoreFixture.withStore(.postgres) { backend in
            let store = try #require(backend as? PostgresStore)
            let users = ["gus", "hal", "ivy"]
            for user in users {
                try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            }
            let bytes: [[UInt8]] = [[0, 1, 0x27, 0x5c, 0xff], [], Array(repeating: 0, count: 3_000)]
            let paths = ["a.jpg", "b'c\\d.png", "ünïcode-🙂.jpg"]
            let created = [1_767_225_600.125, -86_400.5, 0]
            var writes: [GuardedWrite] = []
            for (index, user) in users.enumerated() {
                let version = try await store.projection(of: user).version
                writes.append(
                    try #require(
                        GuardedWrite(
                            user: user, version: version,
                            statements: [
                                Self.write(user, seq: Int64(index + 1), version: version)!.statements[0],
                                SQLStatement(
                                    "INSERT INTO photos (user_id, path, content_type, bytes, created_at) VALUES (?, ?, ?, ?, ?)",
                                    [
                                        .text(user), .text(paths[index]), .text("image/jpeg"), .blob(bytes[index]),
                                        .real(created[index]),
                                    ]),
                                SQLStatement(
                                    """
                                    UPDATE user_heads SET version = version + 1, head_seq = ?, diamonds = ?, freezes = ?, evaluated_at = ?
                                    WHERE user_id = ?
                                    """,
                                    [
                                        .integer(0), .integer(index == 1 ? Int64.min : Int64.max), .integer(-1),
                                        .real(created[index]), .text(user),
                                    ]),
                            ])))
            }
            let before = store.guardedWriteCounts
            let results = await store.writeTogether(writes)
            #expect(results.map { try? $0.get() } == [true, true, true])
            #expect(store.guardedWriteCounts.statements == before.statements + 1)
            #expect(store.guardedWriteCounts.failedBatches == before.failedBatches)
            for (index, user) in users.enumerated() {
                let photo = try #require(try await store.photo(of: user, path: paths[index]))
                #expect(photo.bytes == bytes[index])
                #expect(photo.createdAt.timeIntervalSince1970 == created[index])
                let projection = try await store.projection(of: user)
                #expect(projection.wallet.diamonds == (index == 1 ? Int.min : Int.max))
                #expect(projection.wallet.freezes == -1)
                // Event 2's device is NULL, the others' "phone".
                let events = try await store.events(of: user, after: 0, limit: 10)
                #expect(events.map(\.seq) == [Int64(index + 1)])
                #expect(events.first?.device == (index == 1 ? nil : "phone"))
            }
        }
    }

    @Test func writesThatCannotBeBatchedAreRefused() throws {
        let one = try #require(Self.write("ana", seq: 1, version: 1))
        let two = try #require(Self.write("ben", seq: 1, version: 1))
        #expect(GuardedWrite.batch([one]) == nil, "one write goes alone")
        #expect(GuardedWrite.batch([one, one]) == nil, "one user twice")
        #expect(GuardedWrite.batch([one, two]) != nil)
        #expect(
            GuardedWrite(
                user: "ana", version: 1,
                statements: [
                    SQLStatement("DELETE FROM habits WHERE user_id = ?", [.text("ana")]), one.statements[1],
                ]) == nil)
    }

    /// Many users appending at once through the store: every projection ends as a fresh
    /// evaluation of its log says, and the appends shared statements.
    @Test func concurrentAppendsOfManyUsersShareStatementsAndStayWhole() async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_batch") { url in
            let store = try PostgresStore(url: url)
            let cold = try PostgresStore(url: url)
            do {
                try await store.migrate()
                try await Self.appendConcurrently(store: store, cold: cold)
            } catch {
                await store.close()
                await cold.close()
                throw error
            }
            await store.close()
            await cold.close()
        }
    }

    private static func appendConcurrently(store: PostgresStore, cold: PostgresStore) async throws {
        let users = (0..<48).map { "u\($0)" }
        for user in users {
            try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            _ = try await store.append(
                [try Fixtures.createHabit()], for: user, receivedAt: Fixtures.day(1, hour: 8), device: nil)
        }
        let before = store.guardedWriteCounts
        let guardedBefore = store.engines.appendCounts.oneStatement
        let days = 8
        for day in 1...days {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users {
                    group.addTask {
                        let result = try await store.append(
                            [try Fixtures.completion("c\(day)", day: day)], for: user,
                            receivedAt: Fixtures.day(day, hour: 21), device: nil)
                        #expect(result.appliedCount == 1)
                    }
                }
                try await group.waitForAll()
            }
        }
        let after = store.guardedWriteCounts
        let writes = after.writes - before.writes
        let statements = after.statements - before.statements
        // Appends that unlock an achievement are written in a transaction instead.
        #expect(writes == store.engines.appendCounts.oneStatement - guardedBefore)
        #expect(writes >= users.count * days / 2)
        #expect(statements < writes, "\(writes) writes in \(statements) statements")
        #expect(after.failedBatches == before.failedBatches)
        // A store with nothing cached evaluates each log from scratch: the projections agree.
        let now = Fixtures.day(days, hour: 21)
        for user in users {
            let projection = try await store.projection(of: user)
            let truth = try await cold.evaluate(user) { engine, _ in
                engine.state(at: now, calendarDays: UserProjection.calendarDays)
            }
            #expect(projection.headSeq == Int64(days + 1))
            #expect(projection.habits.map(\.current) == [days])
            #expect(projection.habits == truth.habits, "\(user)")
            #expect(projection.wallet == truth.wallet)
            #expect(projection.ledger == truth.ledger)
            #expect(try await store.events(of: user, after: 0, limit: 100).count == days + 1)
        }
    }
}
