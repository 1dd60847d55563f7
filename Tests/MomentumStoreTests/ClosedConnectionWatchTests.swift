import Foundation
import Logging
import MomentumStore
import MomentumTestSupport
import PostgresNIO
import Testing

@_spi(Benchmarks) @testable import MomentumPostgres

/// PostgresNIO 1.33 loses a query written to a connection whose channel has closed: the
/// query waits forever. ``ClosedConnectionWatch`` ends such waits; these tests take a real
/// connection of a real cluster and close it under the work.
struct ClosedConnectionWatchTests {
    static let logger = Logger(label: "momentum.closed-connection-test")

    /// Runs `body` with a connection of a pool on the shared cluster.
    static func withConnection(_ body: @escaping @Sendable (PostgresConnection) async throws -> Void) async throws {
        let cluster = try PostgresTestCluster.shared
        let client = PostgresClient(
            configuration: try PostgresClient.Configuration.momentum(url: cluster.url(database: "postgres")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.withConnection(body)
        }
    }

    /// The bug itself, so that the day PostgresNIO fixes it is noticed: a query on a closed
    /// connection neither answers nor fails within 3 s.
    @Test func aQueryOnAClosedConnectionWaitsForeverWithoutTheWatch() async throws {
        try await Self.withConnection { connection in
            try await connection.close()
            try await connection.closeFuture.get()
            let outcome = await CoalescedSample<Int>.within(.seconds(3)) {
                try await connection.query("SELECT 1", logger: Self.logger).collect().count
            }
            guard case .failure(let error as ReplicaRouter.SampleError) = outcome else {
                Issue.record("the query answered: \(outcome); ClosedConnectionWatch may no longer be needed")
                return
            }
            #expect(error.message.contains("no answer within"))
        }
    }

    @Test func workOnAnOpenConnectionIsAnsweredAndLeavesNothingBehind() async throws {
        let watch = ClosedConnectionWatch()
        try await Self.withConnection { connection in
            for _ in 0..<3 {
                let rows = try await watch.run(on: connection) { connection in
                    try await connection.query("SELECT 1", logger: Self.logger).collect().count
                }
                #expect(rows == 1)
            }
            // A statement PostgreSQL refuses is the work's own error, unchanged.
            await #expect(throws: PSQLError.self) {
                try await watch.run(on: connection) { connection in
                    try await connection.query("SELECT * FROM no_such_table", logger: Self.logger).collect().count
                }
            }
            #expect(watch.underWay == 0)
            #expect(watch.watching == 1)  // one callback for the connection, however many operations
        }
    }

    @Test func aQueryOnAConnectionThatClosedFailsWithinTheGrace() async throws {
        let watch = ClosedConnectionWatch()
        try await Self.withConnection { connection in
            #expect(
                try await watch.run(on: connection) {
                    try await $0.query("SELECT 1", logger: Self.logger).collect().count
                } == 1)
            let started = ContinuousClock.now
            try await connection.close()
            try await connection.closeFuture.get()
            let error = await #expect(throws: StoreError.self) {
                try await watch.run(on: connection) { connection in
                    try await connection.query("SELECT 1", logger: Self.logger).collect().count
                }
            }
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains("closed") == true, "\(String(describing: error))")
            // Not before the grace from the closing: a statement the closing did fail has that
            // long to say so.
            #expect(ContinuousClock.now - started >= .seconds(2))
            #expect(watch.underWay == 0)
            #expect(watch.watching == 0)
            #expect(watch.abandoned == 1)
        }
    }

    /// Work that began before the connection closed, and that the closing left waiting,
    /// fails too; work that ends within the grace keeps its own answer.
    @Test func workUnderWayWhenTheConnectionClosesEndsEitherWay() async throws {
        let watch = ClosedConnectionWatch()
        try await Self.withConnection { connection in
            let stuck = Task {
                try await watch.run(on: connection) { connection in
                    try await Task.sleep(for: .milliseconds(200))
                    return try await connection.query("SELECT 1", logger: Self.logger).collect().count
                }
            }
            let finishing = Task {
                try await watch.run(on: connection) { _ in
                    try? await Task.sleep(for: .milliseconds(300))
                    return "kept"
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            try await connection.close()
            await #expect(throws: (any Error).self) { try await stuck.value }
            #expect(try await finishing.value == "kept")
            #expect(watch.underWay == 0)
        }
    }

    @Test func cancellingTheCallerReachesTheWork() async throws {
        let watch = ClosedConnectionWatch()
        try await Self.withConnection { connection in
            let caller = Task {
                try await watch.run(on: connection) { _ in
                    try await Task.sleep(for: .seconds(60))
                    return 0
                }
            }
            try await Task.sleep(for: .milliseconds(100))
            caller.cancel()
            await #expect(throws: CancellationError.self) { try await caller.value }
            #expect(watch.underWay == 0)
        }
    }
}
