import Foundation
import Logging
import MomentumCore
import MomentumStore
import PostgresNIO
import Synchronization

/// Named prepared statements, per connection, for the statements run outside a transaction
/// again and again (a warm user's append, a dashboard's version check): PostgreSQL then
/// parses and plans each once per connection instead of on every run, which was about half
/// of its work for an append.
///
/// A statement is prepared with SQL's `PREPARE` the first time a connection runs it, and
/// run with `EXECUTE`, its arguments written as literals (PostgreSQL does not pass a
/// query's parameters on to `EXECUTE`). Each connection's prepared names are remembered; a
/// connection that lost them anyway prepares again.
///
/// A statement with more than ``maximumArguments`` arguments (an append of many events at
/// once) runs unprepared, so that the statements a connection keeps stay few: their shapes
/// are those of everyday appends and reads.
final class PreparedStatements: Sendable {
    /// The most arguments of a statement that is prepared.
    static let maximumArguments = 64
    /// The most (connection, statement) pairs remembered; beyond it the memory starts over
    /// (connections come and go), and a statement a connection already has is simply
    /// prepared again (PostgreSQL answers that it exists).
    static let maximumKnown = 10_000

    private let known = Mutex(Set<String>())
    /// Whether statements are prepared at all: not behind a transaction-mode pooler, whose
    /// next transaction may run on a server connection that never saw the `PREPARE`.
    let named: Bool

    /// Statements prepared per connection, or, unless `named`, never: then each runs as an
    /// unnamed statement of the extended protocol, which lives within its own round trip.
    init(named: Bool = true) {
        self.named = named
    }

    /// Runs `statement` on `connection` as a prepared statement; returns its rows.
    func run(
        _ statement: SQLStatement, on connection: PostgresConnection, logger: Logger
    ) async throws
        -> [PostgresRow]
    {
        guard named, statement.arguments.count <= Self.maximumArguments else {
            return try await connection.query(PostgresStore.query(statement), logger: logger).get().rows
        }
        if let rows = try await BoundStatement.run(statement, on: connection, logger: logger) { return rows }
        let name = Self.name(of: statement.sql)
        return try await run(
            name, sql: { statement.numberedSQL }, execute: Self.execute(name, statement.arguments), on: connection,
            logger: logger)
    }

    /// Runs the statement prepared as `name` (preparing `sql` first on a connection that
    /// has not) with an `EXECUTE` text.
    private func run(
        _ name: String, sql: () -> String, execute: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow] {
        let key = "\(connection.id) \(name)"
        let query = PostgresQuery(unsafeSQL: execute)
        if !known.withLock({ $0.contains(key) }) {
            try await prepare(name, sql(), key: key, on: connection, logger: logger)
        }
        do {
            return try await connection.query(query, logger: logger).get().rows
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "26000" {
            // Not prepared on this connection after all: prepare it and run it once more.
            try await prepare(name, sql(), key: key, on: connection, logger: logger)
            return try await connection.query(query, logger: logger).get().rows
        }
    }

    private func prepare(
        _ name: String, _ sql: String, key: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: "PREPARE \(name) AS \(sql)"), logger: logger).get()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P05" {
            // Already prepared on this connection.
        }
        known.withLock { known in
            if known.count >= Self.maximumKnown { known.removeAll() }
            known.insert(key)
        }
    }

    /// `EXECUTE name(arguments…)`, each argument a literal.
    static func execute(_ name: String, _ arguments: [SQLValue]) -> String {
        guard !arguments.isEmpty else { return "EXECUTE \(name)" }
        var sql = "EXECUTE \(name)("
        for (index, argument) in arguments.enumerated() {
            if index > 0 { sql += ", " }
            literal(argument, into: &sql)
        }
        return sql + ")"
    }

    /// Writes a value as a PostgreSQL literal: text as an escape string (`E'…'`, with
    /// backslashes and quotes doubled, so that it means the same whatever
    /// `standard_conforming_strings` says), bytes as hex, doubles exactly.
    static func literal(_ value: SQLValue, into sql: inout String) {
        switch value {
        case .null:
            sql += "NULL"
        case .integer(let value):
            sql += String(value)
        case .real(let value):
            if value.isNaN {
                sql += "'NaN'::float8"
            } else if value.isInfinite {
                sql += value < 0 ? "'-Infinity'::float8" : "'Infinity'::float8"
            } else {
                sql += "'\(value)'::float8"
            }
        case .text(let value) where !value.utf8.contains(where: { $0 == 0x27 || $0 == 0x5c }):
            sql += "E'"
            sql += value
            sql += "'"
        case .text(let value):
            sql += "E'"
            for scalar in value.unicodeScalars {
                switch scalar {
                case "'": sql += "''"
                case "\\": sql += "\\\\"
                default: sql.unicodeScalars.append(scalar)
                }
            }
            sql += "'"
        case .blob(let bytes):
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0f)])
            }
            sql += "decode('" + String(decoding: hex, as: UTF8.self) + "', 'hex')"
        }
    }

    /// A name for a statement's text (with `?` placeholders): its 64-bit FNV-1a hash and
    /// length.
    static func name(of sql: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return "momentum_\(String(hash, radix: 16))_\(sql.utf8.count)"
    }
}
