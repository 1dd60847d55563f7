import Foundation
import HTTPTypes
import MomentumAPI
import MomentumClient
import MomentumCore
import Observation
import OpenAPIRuntime
import Synchronization
import Testing

/// Whether an observed property changed, as a SwiftUI view would be told.
final class Changed: Sendable {
    private let fired = Mutex(false)
    var value: Bool { fired.withLock { $0 } }
    func set() { fired.withLock { $0 = true } }

    /// Starts observing what `read` reads on the main actor.
    @MainActor static func observing(_ read: @MainActor () -> Void) -> Changed {
        let changed = Changed()
        withObservationTracking {
            read()
        } onChange: {
            changed.set()
        }
        return changed
    }
}

/// A network the test can cut: every request then fails before it leaves.
final class Network: ClientMiddleware, Sendable {
    private let down = Mutex(false)
    func cut() { down.withLock { $0 = true } }

    struct Unreachable: Error {}

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if down.withLock({ $0 }) { throw Unreachable() }
        return try await next(request, body, baseURL)
    }
}

/// The observable model a SwiftUI app shows: today's habits, the wallet, the next
/// celebration and the sync status, kept current by check-ins and syncs.
@Suite(.serialized) struct MomentumModelTests {
    @Test(arguments: Backend.allCases)
    func aCheckInUpdatesTheHabitsTheCelebrationAndThePendingCount(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let client = try MomentumClient.make(server, files: files, device: "phone")
            try await client.register(.test("ada"))
            let model = await MomentumModel(client: client)
            try await model.record(habit("read", "Read"))
            #expect(await model.habits.map(\.current) == [0])

            let habits = await Changed.observing { _ = model.habits }
            let celebration = await Changed.observing { _ = model.nextCelebration }
            let status = await Changed.observing { _ = model.syncStatus }
            let recorded = try await model.checkIn("read")

            #expect(habits.value && celebration.value && status.value)
            #expect(await model.habits.map(\.current) == [1])
            #expect(await model.wallet == recorded.wallet)
            let next = try #require(await model.nextCelebration, "the first check-in is a milestone")
            #expect(next.unlock == recorded.unlocks.first)
            #expect(next.message == recorded.messages[next.unlock.id])
            #expect(await model.syncStatus.pending == 2)
            await model.dismissCelebration()
            #expect(await model.celebrations.count == recorded.unlocks.count - 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func aSyncShowsItselfAndEndsIdleWithNothingPending(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let network = Network()
            let client = try MomentumClient.make(server, files: files, device: "phone", middlewares: [network])
            try await client.register(.test("ada"))
            let model = await MomentumModel(client: client)
            try await model.record(habit("read", "Read"))
            try await model.checkIn("read")
            #expect(await model.syncStatus.lastSyncedAt == nil)

            let status = await Changed.observing { _ = model.syncStatus }
            await model.sync()

            #expect(status.value)
            let synced = await model.syncStatus
            #expect(synced.phase == .idle && synced.pending == 0 && synced.lastSyncedAt == server.clock.now)

            // Offline: the status says so, and the check-in waits.
            network.cut()
            try await model.checkIn("read", value: 2)
            await model.sync()
            let offline = await model.syncStatus
            #expect(offline.phase == .offline(.offline), "\(offline)")
            #expect(offline.pending == 1 && offline.lastSyncedAt == synced.lastSyncedAt)
        }
    }

    /// keepInSync's syncs show in the model, and the check-in reaches the server.
    @Test func keepInSyncShowsEachSyncInTheModel() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let client = try MomentumClient.make(server, files: files, device: "phone")
            try await client.register(.test("ada"))
            let model = await MomentumModel(client: client)
            try await model.record(habit("read", "Read"))
            let syncing = Task {
                try await model.keepInSync(retry: RetryPolicy(initial: .seconds(30), maximum: .seconds(60)))
            }
            defer { syncing.cancel() }

            try await model.checkIn("read")
            try await ChangeStreamTests.waitUntil("the model shows the check-in synced") {
                let status = await model.syncStatus
                return status.pending == 0 && status.lastSyncedAt != nil && status.phase == .idle
            }
            syncing.cancel()
            _ = await syncing.result
        }
    }
}
