import Foundation
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import ServiceLifecycle
import Testing

/// The loops that write batched appends (SQLite's group commit, PostgreSQL's guarded
/// writes) belong to the store: closing it, or the graceful shutdown of the service group
/// that runs it, writes every append queued before and refuses those after. An append is
/// acknowledged if and only if it is stored.
@Suite struct StoreLifecycleTests {
    /// A database that outlives one store: a SQLite file or a PostgreSQL database.
    static func withDatabase(
        _ backend: Backend, _ body: (@escaping @Sendable (StoreLifecycle) throws -> any SQLBackend) async throws -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-life-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appending(path: "life.sqlite").path
            try await body { lifecycle in try SQLiteStore(path: path, lifecycle: lifecycle) }
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_life") { url in
                try await body { lifecycle in try PostgresStore(url: url, lifecycle: lifecycle) }
            }
        }
    }

    static let users = 24

    /// Creates the users, each with a habit (so that every engine is warm and PostgreSQL
    /// takes the guarded, batched path).
    static func prepare(_ store: any SQLBackend) async throws {
        try await store.migrate()
        for user in 0..<users {
            try await store.createAccount(Fixtures.account("u\(user)"), profile: Fixtures.profile())
            _ = try await store.append([try Fixtures.createHabit()], for: "u\(user)", receivedAt: Fixtures.day(1))
        }
    }

    /// Appends one check-in for every user at once, and calls `interrupt` once the first is
    /// acknowledged, while the others are under way; returns the users whose check-in was
    /// acknowledged as stored.
    static func appendAll(_ store: any SQLBackend, interrupt: @escaping @Sendable () async -> Void) async -> Set<String>
    {
        await withTaskGroup(of: String?.self) { group in
            for user in 0..<users {
                group.addTask {
                    let event = try? Fixtures.completion("c-\(user)", day: 2)
                    guard let event,
                        let result = try? await store.append(
                            [event], for: "u\(user)", receivedAt: Fixtures.day(2, hour: 21)),
                        result.outcomes.first?.isStored == true
                    else { return nil }
                    return "u\(user)"
                }
            }
            var acknowledged = Set<String>()
            var interrupted = false
            while let user = await group.next() {
                guard let user else { continue }
                acknowledged.insert(user)
                if !interrupted {
                    interrupted = true
                    group.addTask {
                        await interrupt()
                        return nil
                    }
                }
            }
            // None acknowledged: interrupt anyway, so that nothing waits for it.
            if !interrupted { await interrupt() }
            return acknowledged
        }
    }

    /// Every user's check-in is in the log exactly when it was acknowledged.
    static func expectStoredExactly(_ acknowledged: Set<String>, in store: any SQLBackend) async throws {
        for user in 0..<users {
            let log = try await store.events(of: "u\(user)", after: 0, limit: 10)
            let stored = log.contains { $0.event.id == "c-\(user)" }
            #expect(stored == acknowledged.contains("u\(user)"), "u\(user): stored \(stored)")
        }
    }

    @Test(arguments: Backend.allCases)
    func closingWritesWhatWasQueuedAndRefusesTheRest(_ backend: Backend) async throws {
        try await Self.withDatabase(backend) { open in
            let store = try open(.whileOpen)
            try await Self.prepare(store)
            let acknowledged = await Self.appendAll(store) { await store.close() }
            await store.close()
            // Appending after the close is refused at once, not left waiting.
            await #expect(throws: StoreError.self) {
                _ = try await store.append(
                    [try Fixtures.completion("late", day: 3)], for: "u0", receivedAt: Fixtures.day(3))
            }
            let reader = try open(.whileOpen)
            try await Self.expectStoredExactly(acknowledged, in: reader)
            #expect(!acknowledged.isEmpty, "nothing was written before the close")
            await reader.close()
        }
    }

    @Test(arguments: Backend.allCases)
    func aStoreRunAsAServiceWritesUntilTheGroupShutsDown(_ backend: Backend) async throws {
        try await Self.withDatabase(backend) { open in
            let store = try open(.service)
            var logger = Logger(label: "momentum.lifecycle-test")
            logger.logLevel = .critical
            let group = ServiceGroup(services: [store], logger: logger)
            let acknowledged = try await withThrowingTaskGroup(of: Set<String>?.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return nil
                }
                tasks.addTask {
                    // Writes go through the loops the group runs (the setup warms every
                    // user's engine, so PostgreSQL's check-ins take the batched path); a
                    // shutdown in the middle lets the queued ones finish.
                    try await Self.prepare(store)
                    return await Self.appendAll(store) { await group.triggerGracefulShutdown() }
                }
                var acknowledged = Set<String>()
                for try await result in tasks { if let result { acknowledged = result } }
                return acknowledged
            }
            await store.close()
            let reader = try open(.whileOpen)
            try await Self.expectStoredExactly(acknowledged, in: reader)
            #expect(!acknowledged.isEmpty, "nothing was written before the shutdown")
            await reader.close()
        }
    }
}
