import Foundation
import MomentumPostgres
import MomentumStore
import Testing

/// PostgreSQL runs a statement outside a transaction as a prepared statement, with its
/// arguments written as literals into `EXECUTE`. Every value must reach the database as it
/// was sent, whatever quotes, backslashes or SQL it holds.
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
}
