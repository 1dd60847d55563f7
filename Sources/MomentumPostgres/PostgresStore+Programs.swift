import Foundation
import MomentumCore
import MomentumStore
import PostgresNIO

extension PostgresStore {
    /// Implements `MomentumStore` `run`; see the protocol for its contract. The program is
    /// a span of the work that runs it (`StoreSpans`).
    public func run<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        try await StoreSpans.program(program, on: dialect) { program throws(StoreError) in
            try await runUntraced(program)
        }
    }

    private func runUntraced<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        guard program.writes else {
            do {
                if ReplicaReads.allowed, let replica, let answer = try await fromReplica(program, replica) {
                    return answer.value
                }
                if let answer = try await singleQuery(program) { return answer.value }
                return try await transaction(program, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(
                    .unavailable, "PostgreSQL refused the read: \((error as? RetryableError)?.message ?? "\(error)")")
            }
        }
        guard let user = program.user else { return try await retrying(program) }
        return try await locks.withLock(user) { () async throws(StoreError) -> Result in try await retrying(program) }
    }

    private func retrying<Result: Sendable>(_ program: StoreProgram<Result>) async throws(StoreError) -> Result {
        var attempt = 1
        while true {
            do {
                return try await transaction(program, begin: "BEGIN")
            } catch let error as RetryableError where attempt < maximumAttempts {
                _ = error
                attempt += 1
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            } catch let error as RetryableError {
                throw StoreError(.unavailable, "PostgreSQL kept refusing the transaction: \(error.message)")
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.unavailable, "PostgreSQL refused the operation: \(error)")
            }
        }
    }

    /// Runs a read that needs a single statement (a warm engine's version check, most
    /// lookups) without a transaction around it: one statement sees one snapshot anyway,
    /// and BEGIN and COMMIT would be two more round trips. Returns `nil` when the program
    /// asks for more than that; it is then run again from the start in a transaction (the
    /// reads PostgreSQL runs only look at the engine cache, so a second run repeats no
    /// effect).
    private func singleQuery<Result: Sendable>(_ program: StoreProgram<Result>) async throws -> Box<Result>? {
        let first = try program.start()
        switch first {
        case .done(let value):
            return Box(value: value)
        case .query(let statements, let next) where statements.count == 1:
            let logger = self.logger
            let named = namedStatements
            let rows: [SQLRow]
            do {
                if let user = EngineLoader.versionRead(by: statements[0]) {
                    // Read together with other warm readers' (``VersionReads``).
                    let version = try await versions.version(of: user) { users in
                        try await self.connection { connection in
                            try await VersionBatch.run(users, on: connection, named: named, logger: logger)
                        }
                    }
                    rows = version.map { [SQLRow([.integer($0)])] } ?? []
                } else {
                    rows = try await self.connection { connection in
                        try await self.prepared.run(statements[0], on: connection, logger: logger).map(Self.row)
                    }
                }
            } catch let error as PSQLError {
                throw StoreError(
                    .unavailable,
                    "PostgreSQL refused the read: \(error.serverInfo?[.message] ?? String(reflecting: error))")
            }
            if case .done(let value) = try next([rows]) { return Box(value: value) }
            return nil
        default:
            return nil
        }
    }

    /// A read allowed on the replica (`ReplicaReads`), served by it when ``ReplicaRouter``
    /// admits it; `nil` when it must go to the primary. A warm engine's version check goes
    /// to the primary first: only a cold load needs the replica.
    private func fromReplica<Result: Sendable>(
        _ program: StoreProgram<Result>, _ replica: ReplicaRouter
    ) async throws -> Box<Result>? {
        if case .query(let statements, _) = try program.start(), statements.count == 1,
            EngineLoader.versionRead(by: statements[0]) != nil, let answer = try await singleQuery(program)
        {
            return answer
        }
        guard await replica.admits() else { return nil }
        // Bounded: a replica that stops while a read waits for one of its connections would
        // otherwise hold the read (and the user's lock with it) until it came back.
        let outcome = await CoalescedSample<Result>.within(ReplicaRouter.readTimeout) {
            try await Self.$onReplica.withValue(true) {
                try await self.transaction(program, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            }
        }
        switch outcome {
        case .success(let value):
            return Box(value: value)
        case .failure(let error as StoreError) where error.code != .unavailable:
            throw error
        case .failure(let error):
            replica.fellBack(error)
            return nil
        }
    }

    /// A result that may itself be optional.
    private struct Box<Value: Sendable>: Sendable {
        let value: Value
    }

    /// Runs a program in one transaction on a pooled connection.
    private func transaction<Result: Sendable>(
        _ program: StoreProgram<Result>, begin: String
    )
        async throws -> Result
    {
        let logger = self.logger
        let named = namedStatements
        do {
            return try await self.connection { connection in
                _ = try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger).get()
                do {
                    let result = try await program.run(
                        lock: { name in
                            _ = try await Self.rows(of: Self.lock(name), on: connection, named: named, logger: logger)
                        },
                        query: { statements in
                            var results: [[SQLRow]] = []
                            for statement in statements {
                                results.append(
                                    try await Self.rows(of: statement, on: connection, named: named, logger: logger))
                            }
                            return results
                        },
                        execute: { statements in
                            var counts: [Int] = []
                            for statement in statements {
                                counts.append(
                                    try await Self.count(of: statement, on: connection, named: named, logger: logger))
                            }
                            return counts
                        })
                    _ = try await connection.query("COMMIT", logger: logger).get()
                    return result
                } catch {
                    program.rollback()
                    _ = try? await connection.query("ROLLBACK", logger: logger).get()
                    throw error
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error as PSQLError {
            program.rollback()
            let state = error.serverInfo?[.sqlState]
            if state == "40001" || state == "40P01" {
                throw RetryableError(message: error.serverInfo?[.message] ?? "\(error)")
            }
            throw StoreError(
                .unavailable,
                "PostgreSQL refused the operation: \(error.serverInfo?[.message] ?? String(reflecting: error))")
        } catch {
            program.rollback()
            throw StoreError(.unavailable, "PostgreSQL refused the operation: \(error)")
        }
    }
}
