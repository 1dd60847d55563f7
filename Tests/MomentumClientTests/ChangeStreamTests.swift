import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import Synchronization
import Testing

/// What ``MomentumClient/keepInSync(retry:onSync:)`` reported, for a test to wait on.
final class SyncLog: Sendable {
    private let reports = Mutex<[SyncReport]>([])
    func append(_ report: SyncReport) { reports.withLock { $0.append(report) } }
    var count: Int { reports.withLock { $0.count } }
}

@Suite(.serialized) struct ChangeStreamTests {
    /// The laptop listens to the change stream; the server restarts, and the phone pushes
    /// while the laptop's stream is down. The laptop reconnects and misses nothing.
    @Test(arguments: Backend.allCases)
    func theStreamReconnectsAfterAServerRestartAndMissesNoChange(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            let laptop = try MomentumClient.make(server, files: files, device: "laptop")
            try await phone.register(.test("lee"))
            try await laptop.signIn(email: "lee@example.com", password: "correct horse", deviceName: "laptop")
            let log = SyncLog()
            let listening = Task {
                try await laptop.keepInSync(retry: RetryPolicy(initial: .milliseconds(50), maximum: .milliseconds(400)))
                {
                    log.append($0)
                }
            }
            defer { listening.cancel() }

            // A change made on the phone reaches the laptop through the stream.
            try await phone.record(habit("read", "Read"))
            try await phone.sync()
            try await Self.waitUntil("the laptop has the habit") { try await laptop.syncedEvents().count == 1 }
            let syncsBefore = log.count

            // The server stops; while the laptop's stream is down, the phone's next changes
            // reach the restarted server before the laptop reconnects.
            await server.stop()
            try await server.start()
            for day in 1...3 {
                server.clock.advance(days: 1)
                try await phone.checkIn("read", note: "day \(day)")
            }
            try await phone.sync()

            try await Self.waitUntil("the laptop has every change") {
                try await laptop.syncedEvents().map(\.id) == phone.syncedEvents().map(\.id)
            }
            #expect(try await laptop.syncedEvents().count == 4)
            // The app was told (the callback runs once the sync has stored what it pulled).
            try await Self.waitUntil("the laptop's app is told") { log.count > syncsBefore }
            let today = try await laptop.today(at: server.clock.now)
            #expect(today.habits.first?.current == 3)
            listening.cancel()
            _ = await listening.result
        }
    }

    /// Polls `condition` until it holds, for at most 20 seconds.
    static func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("timed out waiting until \(what)")
    }
}
