/// One step of a ``StoreProgram``: what to ask the database next, and what to do with
/// the answer.
public enum StoreStep<Result: Sendable>: Sendable {
    /// Serializes the writes of one user (or of one named resource, like the migrations):
    /// PostgreSQL takes a transaction-scoped advisory lock; SQLite, which has a single
    /// writer, needs nothing.
    case lock(String, @Sendable () throws(StoreError) -> StoreStep<Result>)
    /// Runs queries and hands over their rows, one array per statement.
    case query([SQLStatement], @Sendable ([[SQLRow]]) throws(StoreError) -> StoreStep<Result>)
    /// Runs statements and hands over how many rows each one changed (or returned, for
    /// statements with `RETURNING`).
    case execute([SQLStatement], @Sendable ([Int]) throws(StoreError) -> StoreStep<Result>)
    /// The program is finished.
    case done(Result)
}

/// A unit of database work, written once in ``MomentumStore`` and run by every backend.
///
/// A program is a chain of ``StoreStep``s. Its logic (what to read, what to write, what
/// the answer is) lives here, shared by SQLite and PostgreSQL; a backend only runs the
/// steps: synchronously inside a GRDB write, or asynchronously on a PostgresNIO
/// connection. A program that writes runs in one transaction, so a failure anywhere
/// leaves nothing behind, and it may be run again from the start (PostgreSQL retries on
/// serialization failures).
public struct StoreProgram<Result: Sendable>: Sendable {
    /// Whether the program writes (and so needs a write transaction).
    public let writes: Bool
    /// The user whose writes it serializes, if any.
    public let user: String?
    /// Produces the first step; called again for every retry.
    public let start: @Sendable () throws(StoreError) -> StoreStep<Result>
    /// Called when the transaction did not commit (to forget cached state).
    public let rollback: @Sendable () -> Void

    /// Creates a program.
    public init(
        writes: Bool, user: String? = nil, rollback: @escaping @Sendable () -> Void = {},
        start: @escaping @Sendable () throws(StoreError) -> StoreStep<Result>
    ) {
        self.writes = writes
        self.user = user
        self.start = start
        self.rollback = rollback
    }

    /// Runs the program with synchronous database calls (SQLite).
    ///
    /// - Parameters:
    ///   - lock: Takes a lock by name.
    ///   - query: Runs queries.
    ///   - execute: Runs statements and reports the rows each changed.
    /// - Returns: The program's result.
    /// - Throws: Whatever the program or the database throws, as ``StoreError``.
    public func run(
        lock: (String) throws -> Void,
        query: ([SQLStatement]) throws -> [[SQLRow]],
        execute: ([SQLStatement]) throws -> [Int]
    ) throws(StoreError) -> Result {
        try run(from: try start(), lock: lock, query: query, execute: execute)
    }

    /// Runs the program with synchronous database calls (SQLite) from `step`, a step it
    /// has already reached (its first, or one after reads a backend ran its own way).
    ///
    /// - Parameters:
    ///   - step: Where to go on.
    ///   - lock: Takes a lock by name.
    ///   - query: Runs queries.
    ///   - execute: Runs statements and reports the rows each changed.
    /// - Returns: The program's result.
    /// - Throws: Whatever the program or the database throws, as ``StoreError``.
    public func run(
        from step: StoreStep<Result>,
        lock: (String) throws -> Void,
        query: ([SQLStatement]) throws -> [[SQLRow]],
        execute: ([SQLStatement]) throws -> [Int]
    ) throws(StoreError) -> Result {
        var step = step
        while true {
            do {
                switch step {
                case .lock(let name, let next):
                    try lock(name)
                    step = try next()
                case .query(let statements, let next):
                    step = try next(try query(statements))
                case .execute(let statements, let next):
                    step = try next(try execute(statements))
                case .done(let result):
                    return result
                }
            } catch {
                throw StoreError.database(error)
            }
        }
    }

    /// Runs the program with asynchronous database calls (PostgreSQL).
    ///
    /// - Parameters:
    ///   - lock: Takes a lock by name.
    ///   - query: Runs queries.
    ///   - execute: Runs statements and reports the rows each changed.
    /// - Returns: The program's result.
    /// - Throws: Whatever the program or the database throws; database errors are passed
    ///   through unchanged so that the caller can decide to retry.
    public func run(
        lock: (String) async throws -> Void,
        query: ([SQLStatement]) async throws -> [[SQLRow]],
        execute: ([SQLStatement]) async throws -> [Int]
    ) async throws -> Result {
        var step = try start()
        while true {
            switch step {
            case .lock(let name, let next):
                try await lock(name)
                step = try next()
            case .query(let statements, let next):
                step = try next(try await query(statements))
            case .execute(let statements, let next):
                step = try next(try await execute(statements))
            case .done(let result):
                return result
            }
        }
    }
}

extension StoreStep {
    /// Runs one query.
    static func query(
        _ statement: SQLStatement, _ next: @escaping @Sendable ([SQLRow]) throws(StoreError) -> StoreStep<Result>
    ) -> StoreStep<Result> {
        .query([statement]) { (rows: [[SQLRow]]) throws(StoreError) in try next(rows[0]) }
    }

    /// Runs statements, then continues.
    static func then(
        _ statements: [SQLStatement], _ next: @escaping @Sendable () throws(StoreError) -> StoreStep<Result>
    ) throws(StoreError) -> StoreStep<Result> {
        if statements.isEmpty { return try next() }
        return .execute(statements) { (_: [Int]) throws(StoreError) in try next() }
    }
}
