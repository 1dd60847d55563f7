import Foundation
import MomentumStore
import Testing

@testable import MomentumPostgres

/// PostgreSQL runs a statement outside a transaction as a prepared statement: bound in
/// binary form when none of its arguments is `NULL` and their types are those its text
/// first ran with, otherwise with its arguments written as literals into `EXECUTE`. Every
/// value must reach the database as it was sent, either way, whatever quotes, backslashes
/// or SQL it holds.
struct PostgresPreparedStatementTests {
    @Test func textReachesPostgreSQLUnchanged() async throws {
        try await StoreFixture.withStore(.postgres) { store in
            let texts = [
                "", "it's", #"back\slash"#, #"\\"#, #"'; DROP TABLE accounts; --"#, #"\'; SELECT 1; --"#,
                "naïve 🔥 日本語", "line\nbreak\ttab\r", "E'x'", "$1 ? $$ $tag$", "''''",
                String(repeating: "x", count: 5_000),
            ]
            for text in texts {
                let rows = try await store.writeAlone(
                    SQLStatement("SELECT CAST(? AS text), CAST(? AS text)", [.text(text), .text("after")]))
                #expect(rows == [SQLRow([.text(text), .text("after")])], "\(text.prefix(40))")
                // With a NULL, the same text goes the literal way.
                let literal = try await store.writeAlone(
                    SQLStatement("SELECT CAST(? AS text), CAST(? AS text)", [.text(text), .null]))
                #expect(literal == [SQLRow([.text(text), .null])], "\(text.prefix(40))")
            }
            // The same statement text, so the same prepared statement, run again.
            let again = try await store.writeAlone(
                SQLStatement("SELECT CAST(? AS text), CAST(? AS text)", [.text("once more"), .null]))
            #expect(again == [SQLRow([.text("once more"), .null])])
            // Nothing was dropped along the way.
            let accounts = try await store.writeAlone(SQLStatement("SELECT COUNT(*) FROM accounts"))
            #expect(accounts == [SQLRow([.integer(0)])])
        }
    }

    /// A statement with many arguments (an append of many events) runs unprepared, with
    /// the same result.
    @Test func aStatementWithManyArgumentsRunsUnprepared() async throws {
        try await StoreFixture.withStore(.postgres) { store in
            let values = (1...100).map { SQLValue.integer(Int64($0)) }
            let sum = Array(repeating: "CAST(? AS bigint)", count: values.count).joined(separator: " + ")
            let rows = try await store.writeAlone(
                SQLStatement("SELECT \(sum), CAST(? AS text)", values + [.text("it's")]))
            #expect(rows == [SQLRow([.integer(5_050), .text("it's")])])
        }
    }

    @Test func numbersAndBytesReachPostgreSQLUnchanged() async throws {
        try await StoreFixture.withStore(.postgres) { store in
            for value in [Int64.min, -1, 0, 1, 42, Int64.max] {
                let rows = try await store.writeAlone(SQLStatement("SELECT CAST(? AS bigint)", [.integer(value)]))
                #expect(rows == [SQLRow([.integer(value)])])
            }
            let doubles: [Double] = [
                0, 1.5, -2.25, .pi, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                .infinity,
                -.infinity, 1_767_225_600.123_456,
            ]
            for value in doubles {
                let rows = try await store.writeAlone(
                    SQLStatement("SELECT CAST(? AS double precision)", [.real(value)]))
                #expect(rows == [SQLRow([.real(value)])], "\(value)")
            }
            let nan = try await store.writeAlone(SQLStatement("SELECT CAST(? AS double precision)", [.real(.nan)]))
            #expect(nan.first?[0].double?.isNaN == true)
            let bytes: [UInt8] = [0, 1, 0x27, 0x5c, 0x7f, 0x80, 0xff] + Array(0...255)
            let blob = try await store.writeAlone(SQLStatement("SELECT CAST(? AS bytea)", [.blob(bytes)]))
            #expect(blob == [SQLRow([.blob(bytes)])])
        }
    }

    /// A prepared statement reads its bound values as the types it was prepared with, so a
    /// text first run with an integer and then with a double must not bind the double: it
    /// would be read as the integer with the same bits.
    @Test func aStatementIsBoundOnlyWithTheTypesItFirstRanWith() async throws {
        try await StoreFixture.withStore(.postgres) { store in
            let sql = "SELECT CAST(? AS double precision), CAST(? AS text) -- \(UUID())"
            for round in 0..<3 {
                let integer = try await store.writeAlone(SQLStatement(sql, [.integer(3), .text("int")]))
                #expect(integer == [SQLRow([.real(3), .text("int")])], "round \(round)")
                let double = try await store.writeAlone(SQLStatement(sql, [.real(2.5), .text("double")]))
                #expect(double == [SQLRow([.real(2.5), .text("double")])], "round \(round)")
                let text = try await store.writeAlone(SQLStatement(sql, [.text("7.25"), .text("text")]))
                #expect(text == [SQLRow([.real(7.25), .text("text")])], "round \(round)")
            }
        }
    }

    /// Inside a transaction, statements run bound too, and a write's count of changed rows
    /// is what the program is told, whether the statement ran bound (`INSERT` without
    /// `RETURNING`), unnamed (with a `NULL`, or a `RETURNING` clause) or as a query that
    /// answers rows. A row-answering statement among the writes must not stop the process.
    @Test func aTransactionsStatementsRunBoundWithTheirCounts() async throws {
        try await StoreFixture.withStore(.postgres) { store in
            _ = try await store.writeAlone(
                SQLStatement("CREATE TABLE bound_probe (k text PRIMARY KEY, n bigint, note text)"))
            let insert = "INSERT INTO bound_probe (k, n, note) VALUES (?, ?, ?) ON CONFLICT (k) DO NOTHING"
            for round in 0..<3 {
                let counts = try await store.run(
                    StoreProgram(writes: true) { () throws(StoreError) in
                        .lock("probe") { () throws(StoreError) in
                            .execute(
                                [
                                    SQLStatement(insert, [.text("a\(round)"), .integer(1), .text("it's")]),
                                    // The same row again: no row changed.
                                    SQLStatement(insert, [.text("a\(round)"), .integer(2), .text("again")]),
                                    // A NULL: the unnamed way.
                                    SQLStatement(insert, [.text("b\(round)"), .integer(3), .null]),
                                    SQLStatement(
                                        "UPDATE bound_probe SET n = n + ? WHERE n < ?", [.integer(10), .integer(5)]),
                                    SQLStatement(
                                        "INSERT INTO bound_probe (k, n) VALUES (?, ?) RETURNING k",
                                        [.text("c\(round)"), .integer(4)]),
                                    SQLStatement("SELECT k FROM bound_probe WHERE k LIKE ?", [.text("%\(round)")]),
                                    SQLStatement("DELETE FROM bound_probe WHERE k = ?", [.text("c\(round)")]),
                                ]
                            ) { counts throws(StoreError) in .done(counts) }
                        }
                    })
                // Inserted; not again; inserted with NULL; the rows below 5 (this round's a
                // and b: earlier rounds' were raised already); the RETURNING insert; the
                // SELECT's rows (this round's a, b and c); the delete.
                #expect(counts == [1, 0, 1, 2, 1, 3, 1], "round \(round)")
                let rows = try await store.run(
                    StoreProgram(writes: false) { () throws(StoreError) in
                        .query([SQLStatement("SELECT k, n, note FROM bound_probe WHERE k = ?", [.text("a\(round)")])]) {
                            rows throws(StoreError) in .done(rows[0])
                        }
                    })
                #expect(rows == [SQLRow([.text("a\(round)"), .integer(11), .text("it's")])], "round \(round)")
            }
        }
    }

    @Test func onlyWritesWithoutReturningAreCountedByReturnedRows() {
        func counted(_ sql: String) -> String? { BoundStatement.countable(SQLStatement(sql, [.integer(1)]))?.sql }
        #expect(counted("INSERT INTO t (a) VALUES (?)") == "INSERT INTO t (a) VALUES (?) RETURNING 1")
        #expect(counted("\n  UPDATE t SET a = ? WHERE b = ?") == "\n  UPDATE t SET a = ? WHERE b = ? RETURNING 1")
        #expect(counted("DELETE FROM t WHERE a = ?") == "DELETE FROM t WHERE a = ? RETURNING 1")
        #expect(counted("INSERT INTO t (a) VALUES (?) RETURNING a") == nil)
        #expect(counted("DELETE FROM t WHERE a = ? returning *") == nil)
        #expect(counted("UPDATE t SET a = 1 ReTuRnInG a") == nil)
        #expect(counted("DELETE FROM t WHERE a = ?;\n") == nil)
        #expect(counted("DELETE FROM t WHERE a = ? -- the last one") == nil)
        #expect(counted("SELECT 1") == nil)
        #expect(counted("WITH x AS (DELETE FROM t RETURNING 1) SELECT count(*) FROM x") == nil)
        #expect(counted("") == nil)
    }
}
