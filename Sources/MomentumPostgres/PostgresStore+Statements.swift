import Foundation
import Logging
import MomentumCore
import MomentumStore
import NIOCore
import PostgresNIO

extension PostgresStore {
    /// Takes a user's transaction lock (`pg_advisory_xact_lock`), the lock every write of
    /// the user holds.
    static func lock(_ name: String) -> SQLStatement {
        SQLStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [.text(name)])
    }

    /// A statement's rows, run inside a transaction: bound as a prepared statement where it
    /// can be (``BoundStatement``) and `named` allows it, so that PostgreSQL parses and
    /// plans its text once per connection; otherwise as an unnamed one.
    static func rows(
        of statement: SQLStatement, on connection: PostgresConnection, named: Bool, logger: Logger
    ) async throws
        -> [SQLRow]
    {
        if named, statement.arguments.count <= PreparedStatements.maximumArguments,
            let rows = try await BoundStatement.run(statement, on: connection, logger: logger)
        {
            return rows.map(row)
        }
        return try await connection.query(query(statement), logger: logger).get().rows.map(row)
    }

    /// The count of rows a statement changed (or answered), run inside a transaction as
    /// ``rows(of:on:named:logger:)`` runs it (``BoundStatement/count(_:on:logger:)``).
    static func count(
        of statement: SQLStatement, on connection: PostgresConnection, named: Bool, logger: Logger
    ) async throws
        -> Int
    {
        if named, statement.arguments.count <= PreparedStatements.maximumArguments,
            let count = try await BoundStatement.count(statement, on: connection, logger: logger)
        {
            return count
        }
        let result = try await connection.query(query(statement), logger: logger).get()
        return result.metadata.rows ?? result.rows.count
    }

    static func query(_ statement: SQLStatement) -> PostgresQuery {
        PostgresQuery(unsafeSQL: statement.numberedSQL, binds: bindings(statement))
    }

    static func bindings(_ statement: SQLStatement) -> PostgresBindings {
        var binds = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let value): binds.append(value)
            case .real(let value): binds.append(value)
            case .text(let value): binds.append(value)
            case .blob(let value): binds.append(ByteBuffer(bytes: value))
            }
        }
        return binds
    }

    static func row(_ row: PostgresRow) -> SQLRow {
        SQLRow(
            row.map { cell -> SQLValue in
                guard var bytes = cell.bytes else { return .null }
                switch cell.dataType {
                case .int8, .int4, .int2:
                    return (try? cell.decode(Int64.self)).map(SQLValue.integer) ?? .null
                case .float8, .float4, .numeric:
                    return (try? cell.decode(Double.self)).map(SQLValue.real) ?? .null
                case .bool:
                    return (try? cell.decode(Bool.self)).map(SQLValue.bool) ?? .null
                case .bytea:
                    return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
                case .void:
                    return .null
                default:
                    return (try? cell.decode(String.self)).map(SQLValue.text) ?? .null
                }
            })
    }
}
