import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

// The devices an account is signed in on, signing them out, and deleting the account.

extension Accounts {
    /// The devices the user is signed in on: their live sessions, the most recently used
    /// first.
    public func devices(of user: String) async throws -> [DeviceSession] {
        let now = now()
        return try await store.sessions(of: user)
            .filter { $0.isLive(at: now, lifetime: configuration.sessionLifetime) }
            .sorted { ($0.lastSeenAt, $0.tokenHash) > ($1.lastSeenAt, $1.tokenHash) }
    }

    /// Signs one of the user's devices out, by its id (``Tokens/deviceID(_:)``).
    ///
    /// - Throws: `.notFound` when the user has no device of that id.
    public func revokeDevice(_ id: String, of user: String) async throws {
        guard let session = try await store.sessions(of: user).first(where: { Tokens.deviceID($0.tokenHash) == id })
        else { throw ServiceError.notFound("device '\(id)'") }
        try await revoke(user: user, tokenHash: session.tokenHash)
    }

    /// Ends one device session, in the store and then here (in that order, so that a
    /// request verifying the token meanwhile cannot cache the session again), and tells
    /// the other instances.
    public func revoke(user: String, tokenHash: String) async throws {
        try await store.deleteSession(of: user, tokenHash: tokenHash)
        sessions.forget(tokenHash: tokenHash)
        await changes.relayRevocation(of: user, tokenHash: tokenHash)
    }

    /// Deletes the account with everything it holds, and signs out every device.
    public func deleteAccount(_ user: String) async throws {
        try await store.deleteAccount(id: user)
        sessions.forget(user: user)
        await changes.relayRevocation(of: user, tokenHash: "*")
    }
}
