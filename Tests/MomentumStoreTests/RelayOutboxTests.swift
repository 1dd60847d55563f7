import Synchronization
import Testing

@testable import MomentumPostgres

/// A change notification that fails is sent again (a pooler restarting under it), unless
/// the store has closed.
struct RelayOutboxTests {
    struct Refused: Error {}

    @Test func aNotificationThatFailsIsSentAgainUntilItGoes() async throws {
        let attempts = Mutex(0)
        try await RelayOutbox.retrying(while: { true }) {
            let attempt = attempts.withLock {
                $0 += 1; return $0
            }
            if attempt < 3 { throw Refused() }
        }
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func itIsGivenUpAfterTheLastDelay() async throws {
        let attempts = Mutex(0)
        await #expect(throws: Refused.self) {
            try await RelayOutbox.retrying(while: { true }) {
                attempts.withLock { $0 += 1 }
                throw Refused()
            }
        }
        #expect(attempts.withLock { $0 } == RelayOutbox.retryDelays.count + 1)
    }

    @Test func aClosedStoreIsNotAskedAgain() async throws {
        let attempts = Mutex(0)
        await #expect(throws: Refused.self) {
            try await RelayOutbox.retrying(while: { false }) {
                attempts.withLock { $0 += 1 }
                throw Refused()
            }
        }
        #expect(attempts.withLock { $0 } == 1)
    }
}
