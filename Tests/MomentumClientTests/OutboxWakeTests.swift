import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import Testing

/// Recording an event wakes keepInSync's outbox at once: nothing waits for a poll.
@Suite(.serialized) struct OutboxWakeTests {
    @Test(arguments: Backend.allCases)
    func aCheckInRecordedWhileKeepingInSyncReachesTheServerAtOnce(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("ada"))
            // Signed in before the phone listens: a new session of the account is no change
            // the phone's stream would sync on.
            let token = try await RawHTTP.signIn(server, email: "ada@example.com", device: "observer")
            // Waits of 5 minutes and more: a poll, or a first wait, would miss the deadline
            // below (a minute, for a machine the parallel pass loads).
            let keeping = Task {
                try await phone.keepInSync(retry: RetryPolicy(initial: .seconds(300), maximum: .seconds(600)))
            }
            defer { keeping.cancel() }
            // The stream's first sync has happened (its `ready`); the outbox is empty.
            try await Task.sleep(for: .milliseconds(300))

            try await phone.record(habit("read", "Read"))
            try await phone.checkIn("read")
            let start = ContinuousClock.now
            var stored = 0
            while ContinuousClock.now - start < .seconds(60) {
                let page = try await RawHTTP.get(server.url.appending(path: "v1/events"), token: token)
                stored = (page.json["events"] as? [[String: Any]])?.count ?? 0
                if stored == 2 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(stored == 2, "the check-in did not reach the server within a minute")
            try await ChangeStreamTests.waitUntil("the phone heard the server's answer") {
                try await phone.pendingEvents() == []
            }
            keeping.cancel()
            _ = await keeping.result
        }
    }
}
