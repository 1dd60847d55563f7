import Foundation
import MomentumStore
import Synchronization

/// The answers kept by idempotency key (`Idempotency-Key`), and the keys whose first
/// request is running now on this instance.
///
/// The HTTP layer's idempotency middleware hashes the request and replays or stores the
/// answer; the records themselves are read and written here.
public final class Idempotency: Sendable {
    let store: any IdempotencyRecords
    let now: @Sendable () -> Date
    private let running = Mutex(Set<String>())

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The records.
    ///   - now: The current instant (a record's creation).
    public init(store: any IdempotencyRecords, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// The record stored for the user's key, if any.
    public func record(of user: String, key: String) async throws -> IdempotencyRecord? {
        try await store.idempotencyRecord(of: user, key: key)
    }

    /// Stores the answer to the first request with the user's key, made now, unless one
    /// is stored already.
    ///
    /// - Returns: The record now stored: the new one, or the earlier one.
    /// - Throws: a `StoreError` (`idempotencyConflict`) when the key was used for a
    ///   different request.
    public func save(
        key: String, requestHash: String, status: Int, response: [UInt8], for user: String
    ) async throws -> IdempotencyRecord {
        try await store.saveIdempotencyRecord(
            IdempotencyRecord(key: key, requestHash: requestHash, status: status, response: response, createdAt: now()),
            for: user)
    }

    /// Marks the user's key as running here.
    ///
    /// - Returns: `false` when a request with the key is already running here.
    public func begin(_ key: String, of user: String) -> Bool {
        running.withLock { $0.insert("\(user) \(key)").inserted }
    }

    /// Marks the user's key as no longer running here.
    public func end(_ key: String, of user: String) {
        _ = running.withLock { $0.remove("\(user) \(key)") }
    }
}
