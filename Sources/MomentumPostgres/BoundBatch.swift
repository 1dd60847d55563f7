import MomentumStore
import NIOCore
import PostgresNIO
import Synchronization

/// A ``GuardedBatch`` run as a prepared statement of PostgreSQL's extended protocol: its
/// array parameters travel as bound values in binary form, so PostgreSQL neither parses
/// them as SQL text nor evaluates them as expressions (with `EXECUTE` and literal arrays,
/// that was about a third of its work for a batch of check-ins).
///
/// PostgresNIO prepares a statement once per connection by its name. Its API names a
/// prepared statement by a type's static `name` and `sql`, and a batch's text is known only
/// at run time (one per set of statements the writes hold), so both are read from a task
/// local bound around the call: PostgresNIO reads them when `execute` is called, in the
/// calling task, and keeps them with the request.
struct BoundBatch: PostgresPreparedStatement {
    typealias Row = String

    /// The name and text of the statement being run by this task.
    @TaskLocal static var current = (name: "", sql: "")

    static var name: String { current.name }
    static var sql: String { current.sql }

    let columns: [ArrayParameter]

    /// The users whose writes the batch wrote (the statement answers one row per user).
    /// Unless `named` (behind a transaction-mode pooler), the statement is an unnamed one,
    /// its arrays bound all the same.
    static func run(
        _ batch: GuardedBatch, on connection: PostgresConnection, named: Bool, logger: Logger
    ) async throws -> Set<String> {
        let statement = BoundBatch(columns: try batch.columns.map(ArrayParameter.init))
        guard named else {
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: batch.sql, binds: try statement.makeBindings()), logger: logger)
            var users = Set<String>()
            for try await user in rows.decode(String.self) { users.insert(user) }
            return users
        }
        return try await $current.withValue(("b" + PreparedStatements.name(of: batch.sql), batch.sql)) {
            var users = Set<String>()
            for try await user in try await connection.execute(statement, logger: logger) {
                users.insert(user)
            }
            return users
        }
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: columns.count)
        for column in columns { bindings.append(column) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}

/// A single statement run as a prepared statement of PostgreSQL's extended protocol, its
/// arguments bound in binary form: PostgreSQL runs it without parsing an `EXECUTE` text
/// with literal arguments (for a dashboard's version check, `EXECUTE` was a third of
/// PostgreSQL's work).
///
/// A prepared statement's parameter types are fixed when a connection prepares it (from the
/// arguments of that first run), and a later run's binary values are read as those types.
/// So a statement runs this way only when none of its arguments is `NULL` (whose type
/// says nothing) and their types are those its text first ran with in this process, which
/// every connection then prepared it with; any other run goes the textual way
/// (``PreparedStatements``).
struct BoundStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    /// The name and text of the statement being run by this task.
    @TaskLocal static var current = (name: "", sql: "")

    static var name: String { current.name }
    static var sql: String { current.sql }

    let statement: SQLStatement

    /// The argument types each statement text first ran with, by its name.
    private static let types = Mutex<[String: [PostgresDataType]]>([:])
    /// The most statement texts remembered (a process runs a few dozen); beyond it the
    /// memory starts over, and a forgotten text may be bound with other types than a
    /// connection prepared it with, so then nothing is bound any more.
    static let maximumTexts = 4_096
    private static let full = Atomic<Bool>(false)

    /// The statement's rows, or `nil` when it cannot run bound (see the type's notes).
    static func run(
        _ statement: SQLStatement, on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow]? {
        guard let name = bindableName(statement) else { return nil }
        return try await $current.withValue((name, statement.numberedSQL)) {
            var rows: [PostgresRow] = []
            for try await row in try await connection.execute(BoundStatement(statement: statement), logger: logger) {
                rows.append(row)
            }
            return rows
        }
    }

    /// The name a statement runs bound under, or `nil` when it cannot run bound: an
    /// argument is `NULL`, or the argument types differ from those its text first ran with.
    static func bindableName(_ statement: SQLStatement) -> String? {
        guard !full.load(ordering: .relaxed) else { return nil }
        var argumentTypes: [PostgresDataType] = []
        argumentTypes.reserveCapacity(statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .null: return nil
            case .integer: argumentTypes.append(.int8)
            case .real: argumentTypes.append(.float8)
            case .text: argumentTypes.append(.text)
            case .blob: argumentTypes.append(.bytea)
            }
        }
        let name = "s" + PreparedStatements.name(of: statement.sql)
        let known = types.withLock { types -> Bool in
            if let first = types[name] { return first == argumentTypes }
            guard types.count < maximumTexts else {
                full.store(true, ordering: .relaxed)
                return false
            }
            types[name] = argumentTypes
            return true
        }
        return known ? name : nil
    }

    func makeBindings() throws -> PostgresBindings { PostgresStore.bindings(statement) }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension BoundStatement {
    /// A write's count of changed rows, run bound: an `INSERT`, `UPDATE` or `DELETE`
    /// without `RETURNING` runs with `RETURNING 1` added, and the rows it answers are the
    /// rows it changed (one per row inserted, updated or deleted, none for a conflict it
    /// skipped). `nil` when it cannot run so (see ``countable(_:)`` and
    /// ``bindableName(_:)``).
    ///
    /// PostgresNIO's form for a prepared statement that answers no rows (its command tag)
    /// stops the process in the version used here: it reads the tag before the rows are
    /// marked consumed. Counting returned rows avoids it.
    static func count(
        _ statement: SQLStatement, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int? {
        guard let counted = countable(statement) else { return nil }
        return try await run(counted, on: connection, logger: logger)?.count
    }

    /// The statement with `RETURNING 1` added, or `nil` unless its text is an `INSERT`,
    /// `UPDATE` or `DELETE` that answers no rows (no `RETURNING` in it, in any case), with
    /// nothing that would swallow or end the added clause (a `--` comment, a trailing `;`).
    static func countable(_ statement: SQLStatement) -> SQLStatement? {
        let sql = statement.sql
        let trimmed = sql.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard trimmed.hasPrefix("INSERT ") || trimmed.hasPrefix("UPDATE ") || trimmed.hasPrefix("DELETE "),
            sql.utf8.last(where: { $0 != 0x20 && $0 != 0x0a && $0 != 0x09 }) != UInt8(ascii: ";"),
            !sql.contains("--")
        else { return nil }
        let word = Array("returning".utf8)
        let bytes = Array(sql.utf8)
        if bytes.count >= word.count {
            for start in 0...(bytes.count - word.count) {
                var matched = true
                for offset in 0..<word.count where bytes[start + offset] | 0x20 != word[offset] {
                    matched = false
                    break
                }
                if matched { return nil }
            }
        }
        return SQLStatement(sql + " RETURNING 1", statement.arguments)
    }
}

/// One column of a batch as a one-dimensional PostgreSQL array in binary form (`NULL`
/// elements allowed).
struct ArrayParameter: PostgresDynamicTypeEncodable {
    enum Element {
        case text, bigint, double, bytea

        /// The element type of a ``GuardedBatch/Column`` (`text`, `bigint`,
        /// `double precision`, `bytea`, in either case).
        init?(_ type: String) {
            switch type.lowercased() {
            case "text": self = .text
            case "bigint": self = .bigint
            case "double precision": self = .double
            case "bytea": self = .bytea
            default: return nil
            }
        }

        var oid: PostgresDataType {
            switch self {
            case .text: .text
            case .bigint: .int8
            case .double: .float8
            case .bytea: .bytea
            }
        }

        var arrayOID: PostgresDataType {
            switch self {
            case .text: .textArray
            case .bigint: .int8Array
            case .double: .float8Array
            case .bytea: .byteaArray
            }
        }
    }

    /// A value that does not fit its column's type (the batch then fails, and its writes
    /// go one by one).
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    let element: Element
    /// The values, each `NULL` or of the element's type.
    let values: [SQLValue]

    init(_ column: GuardedBatch.Column) throws {
        guard let element = Element(column.type) else {
            throw Mismatch(description: "no binary array form for the type '\(column.type)'")
        }
        for value in column.values where !Self.fits(value, element) {
            throw Mismatch(description: "\(value) in a \(column.type) column")
        }
        self.element = element
        values = column.values
    }

    private static func fits(_ value: SQLValue, _ element: Element) -> Bool {
        switch (element, value) {
        case (_, .null): true
        case (.text, _): value.string != nil
        case (.bigint, _): value.int64 != nil
        case (.double, _): value.double != nil
        case (.bytea, _): value.bytes != nil
        }
    }

    var psqlType: PostgresDataType { element.arrayOID }
    var psqlFormat: PostgresFormat { .binary }

    /// PostgreSQL's binary array: dimensions, whether there are nulls, the element type,
    /// the length and lower bound of the one dimension, then each element's length (-1 for
    /// `NULL`) and bytes.
    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        buffer.writeInteger(Int32(1))
        buffer.writeInteger(Int32(values.contains(.null) ? 1 : 0))
        buffer.writeInteger(Int32(bitPattern: element.oid.rawValue))
        buffer.writeInteger(Int32(values.count))
        buffer.writeInteger(Int32(1))
        for value in values {
            switch (element, value) {
            case (_, .null):
                buffer.writeInteger(Int32(-1))
            case (.bigint, _):
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(value.int64 ?? 0)
            case (.double, _):
                buffer.writeInteger(Int32(8))
                buffer.writeInteger((value.double ?? 0).bitPattern)
            case (.text, .text(let text)):
                // The length goes in front once the text is written.
                let start = buffer.writerIndex
                buffer.writeInteger(Int32(0))
                let count = buffer.writeString(text)
                buffer.setInteger(Int32(count), at: start)
            case (.text, _), (.bytea, _):
                let bytes = value.bytes ?? []
                buffer.writeInteger(Int32(bytes.count))
                buffer.writeBytes(bytes)
            }
        }
    }
}
