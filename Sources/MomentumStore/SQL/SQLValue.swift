import Foundation

/// A value bound to, or read from, a SQL statement.
///
/// Momentum's schema uses four column kinds, the same in every backend: 64-bit integers
/// (booleans are 0 and 1), doubles (instants are seconds since 1970, which is exactly how
/// `Date` holds them), text and bytes.
public enum SQLValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// An integer value.
    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    /// `1` or `0`.
    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// An instant as seconds since 1970.
    public static func date(_ value: Date) -> SQLValue { .real(value.timeIntervalSince1970) }
    /// Text, or `NULL`.
    public static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// The integer, when this is one (a whole double also counts).
    public var int64: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value) where value.rounded() == value: Int64(exactly: value)
        default: nil
        }
    }

    /// The double, when this is a number.
    public var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// The text, when this is text.
    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is a blob (text is returned as its UTF-8 bytes).
    public var bytes: [UInt8]? {
        switch self {
        case .blob(let value): value
        case .text(let value): Array(value.utf8)
        default: nil
        }
    }

    /// Whether this is `NULL`.
    public var isNull: Bool { self == .null }
}

/// One row of a result, its values in the order of the `SELECT` list.
public struct SQLRow: Hashable, Sendable {
    /// The values.
    public var values: [SQLValue]

    /// Creates a row.
    public init(_ values: [SQLValue]) { self.values = values }

    /// The value at `index`, or `NULL` past the end.
    public subscript(index: Int) -> SQLValue { index < values.count ? values[index] : .null }

    func int(_ index: Int, _ column: String) throws(StoreError) -> Int64 {
        guard let value = self[index].int64 else { throw .corrupt("\(column) is not an integer") }
        return value
    }

    func text(_ index: Int, _ column: String) throws(StoreError) -> String {
        guard let value = self[index].string else { throw .corrupt("\(column) is not text") }
        return value
    }

    func date(_ index: Int, _ column: String) throws(StoreError) -> Date {
        guard let value = self[index].double else { throw .corrupt("\(column) is not an instant") }
        return Date(timeIntervalSince1970: value)
    }

    func optionalText(_ index: Int) -> String? { self[index].string }

    func optionalDate(_ index: Int) -> Date? { self[index].double.map(Date.init(timeIntervalSince1970:)) }
}

/// A statement with `?` placeholders and its arguments.
///
/// Statements are written once, in the SQL both SQLite and PostgreSQL accept (`INSERT …
/// ON CONFLICT … DO UPDATE SET x = excluded.x`, `RETURNING`); a backend rewrites the
/// placeholders into its own form (`$1`, `$2`, … for PostgreSQL).
public struct SQLStatement: Hashable, Sendable, CustomStringConvertible {
    /// The SQL text, with `?` for each argument.
    public var sql: String
    /// The arguments, in placeholder order.
    public var arguments: [SQLValue]

    /// Creates a statement.
    public init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The SQL text.
    public var description: String { sql }

    /// The SQL with `?` replaced by `$1`, `$2`, … (no statement of Momentum's has a `?`
    /// inside a string literal).
    public var numberedSQL: String {
        var result: [UInt8] = []
        result.reserveCapacity(sql.utf8.count + 2 * arguments.count + 8)
        var index = 0
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "?") {
                index += 1
                result.append(UInt8(ascii: "$"))
                result.append(contentsOf: String(index).utf8)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
