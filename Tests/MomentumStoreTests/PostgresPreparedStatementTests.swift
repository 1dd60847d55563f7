import Foundation
import MomentumPostgres
import MomentumStore
import Testing

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
}
