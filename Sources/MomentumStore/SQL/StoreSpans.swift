import Synchronization
import Tracing

/// The spans of the store: each program a backend runs, or statement it runs alone, is a
/// client span, a child of the span of the work that asked (a request, a background pass).
///
/// A span names the database (`db.system.name`: `sqlite` or `postgresql`), the first
/// statement's operation (`db.operation.name`: `SELECT`, `INSERT`, …, also the span's
/// name), how many statements the program ran (`db.operation.batch.size`) and whether it
/// wrote; never the SQL's arguments. With no tracer bootstrapped (the no-op tracer) the
/// program runs as it is, with nothing around it.
public enum StoreSpans {
    /// Runs `program` with `run` (the backend's own way) inside a span.
    ///
    /// - Parameters:
    ///   - program: The program the backend runs.
    ///   - dialect: The backend's database.
    ///   - run: Runs a program: the one given, or one that notes its statements as they go.
    /// - Returns: The program's result.
    /// - Throws: What `run` throws.
    public static func program<Result: Sendable>(
        _ program: StoreProgram<Result>, on dialect: SQLDialect,
        run: (StoreProgram<Result>) async throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        let tracer = InstrumentationSystem.tracer
        if tracer is NoOpTracer { return try await run(program) }
        let span = tracer.startSpan(dialect.systemName, ofKind: .client)
        defer { span.end() }
        guard span.isRecording else {
            return try await traced(span) { () throws(StoreError) in try await run(program) }
        }
        let notes = StatementNotes()
        let observed = StoreProgram<Result>(writes: program.writes, user: program.user, rollback: program.rollback) {
            () throws(StoreError) in
            notes.restart()
            return try program.start().observed(by: notes)
        }
        defer { describe(span, dialect: dialect, writes: program.writes, notes: notes.current) }
        return try await traced(span) { () throws(StoreError) in try await run(observed) }
    }

    /// Runs one statement with `run` inside a span.
    ///
    /// - Parameters:
    ///   - statement: The statement (only its operation is recorded).
    ///   - dialect: The backend's database.
    ///   - writes: Whether it writes.
    ///   - run: Runs it.
    /// - Returns: What `run` returns.
    /// - Throws: What `run` throws.
    public static func statement<Value: Sendable>(
        _ statement: SQLStatement, on dialect: SQLDialect, writes: Bool,
        run: () async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let tracer = InstrumentationSystem.tracer
        if tracer is NoOpTracer { return try await run() }
        let span = tracer.startSpan(dialect.systemName, ofKind: .client)
        defer { span.end() }
        if span.isRecording {
            describe(span, dialect: dialect, writes: writes, notes: (operation(of: statement), 1))
        }
        return try await traced(span, run)
    }

    /// Runs `body` with `span` as the current span; an error is recorded on it.
    private static func traced<Value: Sendable>(
        _ span: any Span, _ body: () async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let result: Swift.Result<Value, StoreError> = await InstrumentationContext.$current.withValue(span.context) {
            do throws(StoreError) { return .success(try await body()) } catch { return .failure(error) }
        }
        if case .failure(let error) = result {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        return try result.get()
    }

    private static func describe(
        _ span: any Span, dialect: SQLDialect, writes: Bool, notes: (operation: String?, count: Int)
    ) {
        if let operation = notes.operation { span.operationName = operation }
        span.updateAttributes { attributes in
            attributes["db.system.name"] = dialect.systemName
            if let operation = notes.operation { attributes["db.operation.name"] = operation }
            attributes["db.operation.batch.size"] = notes.count
            attributes["momentum.store.writes"] = writes
        }
    }

    /// A statement's operation: its first word in capitals (`SELECT`, `WITH`, `INSERT`).
    static func operation(of statement: SQLStatement) -> String {
        let word = statement.sql.drop { $0.isWhitespace || $0 == "(" }.prefix { $0.isLetter }
        return word.isEmpty ? "SQL" : word.uppercased()
    }
}

/// The statements a traced program ran: the first one's operation and how many.
final class StatementNotes: Sendable {
    private let state = Mutex<(operation: String?, count: Int)>((nil, 0))

    var current: (operation: String?, count: Int) { state.withLock { $0 } }

    func restart() { state.withLock { $0 = (nil, 0) } }

    func note(_ statements: [SQLStatement]) {
        guard let first = statements.first else { return }
        state.withLock { state in
            if state.operation == nil { state.operation = StoreSpans.operation(of: first) }
            state.count += statements.count
        }
    }
}

extension StoreStep {
    /// The same step, noting each statement it and the steps after it run.
    func observed(by notes: StatementNotes) -> StoreStep {
        switch self {
        case .lock(let name, let next):
            return .lock(name) { () throws(StoreError) in try next().observed(by: notes) }
        case .query(let statements, let next):
            notes.note(statements)
            return .query(statements) { rows throws(StoreError) in try next(rows).observed(by: notes) }
        case .execute(let statements, let next):
            notes.note(statements)
            return .execute(statements) { counts throws(StoreError) in try next(counts).observed(by: notes) }
        case .done:
            return self
        }
    }
}

extension SQLDialect {
    /// The database's name in OpenTelemetry's conventions (`db.system.name`).
    var systemName: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgresql"
        }
    }
}
