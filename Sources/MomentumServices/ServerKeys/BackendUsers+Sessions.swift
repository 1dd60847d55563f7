import Foundation
import MomentumStore

extension BackendUsers {
    /// A device session for the app's user, which the backend hands to its app: the app's
    /// users sign in to Momentum through the app's own sign-in, as the backend vouches for
    /// them (custom authentication), and their devices then sync, stream and check in as
    /// any signed-in device does.
    ///
    /// The user is created when the app never named it before (with `timeZone`), so the
    /// events a backend records and those the device records are one user's.
    ///
    /// - Parameters:
    ///   - appUserID: The app's id for the user.
    ///   - deviceName: Shown in the user's devices (trimmed to 100 characters).
    ///   - timeZone: The time zone of a user this call creates.
    ///   - key: The server key (scope `sessions:create`).
    /// - Returns: The session (its token shown this once) and whether this call created the user.
    /// - Throws: `.forbidden` `scope_missing`; `.invalid` for an id or a time zone out of
    ///   bounds (nothing is created).
    public func startSession(
        for appUserID: String, deviceName: String?, timeZone: String?, key: ServerKeyCaller
    ) async throws -> (session: SessionResponse, created: Bool) {
        try key.require("sessions:create")
        let (user, created) = try await findOrCreate(appUserID, key: key, timeZone: timeZone)
        let account = try await store.account(id: user.userID)
        let profile = try await store.profile(of: user.userID)
        guard let account, let profile else {
            throw ServiceError(.notFound, "user_not_found", "this app has no user '\(appUserID)'")
        }
        let session = try await accounts.startSession(account, profile: profile, deviceName: deviceName)
        return (session, created)
    }
}
