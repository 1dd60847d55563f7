import Foundation
import Synchronization

/// One user's append as plain inserts and a head update that writes only if the user's
/// stored projection version is still ``version``: what a backend may write on its own, in
/// one statement, or together with other users' appends (PostgreSQL).
///
/// If the version moved, nothing of it is written, and the append runs again the ordinary
/// way.
public struct GuardedWrite: Sendable {
    /// Whose append it is.
    public let user: String
    /// The stored version the statements were computed against.
    public let version: Int64
    /// The inserts, then the update of the user's head (`UPDATE user_heads … WHERE user_id = ?`).
    public let statements: [SQLStatement]
    /// The whole write as one PostgreSQL statement; its one row's first column is 1 when
    /// the version check passed and everything was written, 0 when nothing was.
    public let single: SQLStatement

    /// A guarded write, or `nil` when the statements cannot be one: the inserts (plain
    /// `INSERT INTO t (…) VALUES (?, …)`, optionally `ON CONFLICT …`, of distinct rows),
    /// then the head update (an append writes it as
    /// `UPDATE user_heads SET version = version + 1, … WHERE user_id = ?`).
    public init?(user: String, version: Int64, statements: [SQLStatement]) {
        guard let single = AppendPrograms.singleStatement(statements, version: version, user: user) else {
            return nil
        }
        self.user = user
        self.version = version
        self.statements = statements
        self.single = single
    }

    /// Several users' writes as one PostgreSQL statement whose parameters are arrays (one
    /// row per write in each), so that its text, and so its plan, depends only on which
    /// statements the writes hold, not on how many writes there are. `nil` when the writes
    /// cannot be combined: fewer than two, one user twice, different head updates, or a
    /// statement that is not a plain insert of `?` values.
    ///
    /// The head update runs first, for every write at once, and updates a user's head only
    /// where the stored version is the write's, after taking the user's transaction lock;
    /// every insert is then filtered to the users whose head it updated. The statement
    /// answers one row per user it wrote (`user_id`).
    public static func batch(_ writes: [GuardedWrite]) -> GuardedBatch? {
        // In user order, so that two instances' batches tend to take the users' locks in
        // the same order (a deadlock between them is broken by PostgreSQL, and each write
        // then goes alone).
        let writes = writes.sorted { $0.user < $1.user }
        guard writes.count >= 2, Set(writes.map(\.user)).count == writes.count,
            let head = writes[0].statements.last?.sql,
            writes.allSatisfy({ $0.statements.last?.sql == head })
        else { return nil }
        var texts = Set<String>()
        for write in writes {
            for statement in write.statements.dropLast() { texts.insert(statement.sql) }
        }
        let key = [head] + texts.sorted()
        guard let layout = GuardedBatch.layout(for: key) else { return nil }
        var columns = layout.types.map { GuardedBatch.Column(type: $0, values: []) }
        for column in columns.indices { columns[column].values.reserveCapacity(writes.count) }
        for write in writes {
            columns[0].values.append(.text(write.user))
            columns[1].values.append(.integer(write.version))
            let headArguments = write.statements[write.statements.count - 1].arguments
            for (offset, argument) in headArguments.dropLast().enumerated() {
                columns[2 + offset].values.append(argument)
            }
            for statement in write.statements.dropLast() {
                guard let first = layout.firstColumn[statement.sql] else { return nil }
                for (offset, argument) in statement.arguments.enumerated() {
                    columns[first + offset].values.append(argument)
                }
            }
        }
        return GuardedBatch(sql: layout.sql, columns: columns)
    }
}

/// Several users' ``GuardedWrite``s as one PostgreSQL statement with array parameters
/// (`$1`, `$2`, … each a typed array); see ``GuardedWrite/batch(_:)``.
public struct GuardedBatch: Sendable {
    /// One array parameter: its PostgreSQL element type and its values.
    public struct Column: Sendable {
        /// The element type (`text`, `bigint`, `double precision`, `bytea`).
        public var type: String
        /// One value per row.
        public var values: [SQLValue]
    }

    /// The statement, with `$n` for the n-th column.
    public let sql: String
    /// The array parameters, in order.
    public let columns: [Column]

    /// Where each statement's arguments go, and the SQL, for one set of statement texts.
    struct Layout: Sendable {
        var sql: String
        var types: [String]
        /// The first column of each insert's arguments, by its text.
        var firstColumn: [String: Int]
    }

    private static let layouts = Mutex<[[String]: Layout?]>([:])
    private static let maximumLayouts = 1_024

    /// The layout for a head update and distinct insert texts (`key`: the head first).
    static func layout(for key: [String]) -> Layout? {
        if let known = layouts.withLock({ $0[key] }) { return known }
        let layout = makeLayout(key)
        layouts.withLock { layouts in
            if layouts.count >= maximumLayouts { layouts.removeAll() }
            layouts[key] = .some(layout)
        }
        return layout
    }

    private static func makeLayout(_ key: [String]) -> Layout? {
        let tables = Dictionary(Schema.tables.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        func type(_ table: String, _ column: String) -> String? {
            guard let kind = tables[table]?.columns.first(where: { $0.name == column })?.kind else { return nil }
            return SQLDialect.postgres.type(of: kind)
        }
        // The head: UPDATE user_heads SET a = ?, b = version + 1, … WHERE user_id = ?
        let head = key[0]
        guard head.hasPrefix(AppendPrograms.headUpdatePrefix), head.hasSuffix("WHERE user_id = ?"),
            let set = head.range(of: " SET "),
            let whereClause = head.range(of: "WHERE user_id = ?", options: .backwards),
            set.upperBound < whereClause.lowerBound
        else { return nil }
        var types = ["text", "bigint"]
        var assignments: [String] = []
        for assignment in head[set.upperBound..<whereClause.lowerBound].split(separator: ",") {
            let parts = assignment.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard parts.count == 2, !parts[0].contains("?") else { return nil }
            if parts[1] == "?" {
                guard let columnType = type("user_heads", parts[0]) else { return nil }
                types.append(columnType)
                assignments.append("\(parts[0]) = v.p\(types.count)")
            } else {
                guard !parts[1].contains("?") else { return nil }
                assignments.append("\(parts[0]) = \(parts[1])")
            }
        }
        let headNames = ["uid", "expected"] + (2..<types.count).map { "p\($0 + 1)" }
        let headArrays = types.indices.map { "$\($0 + 1)::\(types[$0])[]" }
        var queries = [
            "h AS (UPDATE user_heads SET " + assignments.joined(separator: ", ") + " FROM unnest("
                + headArrays.joined(separator: ", ") + ") AS v(" + headNames.joined(separator: ", ")
                + ") WHERE user_heads.user_id = v.uid AND user_heads.version = v.expected AND "
                + "(SELECT count(*) FROM pg_advisory_xact_lock(hashtextextended(v.uid, 0))) = 1 "
                + "RETURNING user_heads.user_id)"
        ]
        // Each insert: INSERT INTO t (a, b, …) VALUES (?, ?, …) [ON CONFLICT …]
        var firstColumn: [String: Int] = [:]
        for (index, sql) in key.dropFirst().enumerated() {
            guard sql.hasPrefix("INSERT INTO "), let open = sql.firstIndex(of: "("),
                let close = sql[open...].firstIndex(of: ")"), let values = sql.range(of: "VALUES ("),
                values.lowerBound > close, let valuesClose = sql[values.upperBound...].firstIndex(of: ")")
            else { return nil }
            let table = sql[sql.index(sql.startIndex, offsetBy: 12)..<open].trimmingCharacters(in: .whitespaces)
            let columns = sql[sql.index(after: open)..<close].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let items = sql[values.upperBound..<valuesClose].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard columns.count == items.count, items.allSatisfy({ $0 == "?" }),
                let userColumn = columns.firstIndex(of: "user_id")
            else { return nil }
            firstColumn[sql] = types.count
            var arrays: [String] = []
            for column in columns {
                guard let columnType = type(table, column) else { return nil }
                types.append(columnType)
                arrays.append("$\(types.count)::\(columnType)[]")
            }
            let names = columns.indices.map { "c\($0)" }
            let rest = sql[sql.index(after: valuesClose)...].trimmingCharacters(in: .whitespacesAndNewlines)
            queries.append(
                "s\(index) AS (INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT "
                    + names.map { "x.\($0)" }.joined(separator: ", ") + " FROM unnest("
                    + arrays.joined(separator: ", ") + ") AS x(" + names.joined(separator: ", ")
                    + ") WHERE x.c\(userColumn) IN (SELECT user_id FROM h)" + (rest.isEmpty ? "" : " " + rest)
                    + " RETURNING 1)")
        }
        return Layout(
            sql: "WITH " + queries.joined(separator: ",\n") + "\nSELECT user_id FROM h", types: types,
            firstColumn: firstColumn)
    }
}
