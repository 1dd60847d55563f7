import Foundation
import MomentumAPI

extension MomentumClient {
    /// Signs this device in with a session the app's backend started for its user
    /// (`POST /v1/server/users/{appUserId}/sessions` with a server key), storing it as
    /// ``signIn(email:password:deviceName:)`` does.
    ///
    /// The app's users sign in to the app; its backend, which knows them, asks Momentum for
    /// a device session and hands the answer's JSON to the app, which passes it here as it
    /// came. The events the backend records for the user and those this device records are
    /// then one user's.
    ///
    /// - Parameter json: The body of the backend's `201` answer (a `Session`).
    /// - Throws: ``ClientError/unreadableAnswer`` when `json` is not a session;
    ///   ``ClientError/pendingEvents`` while the signed-in account's events wait in the outbox.
    public func signIn(backendSession json: Data) async throws {
        try guardPendingEvents(ofAnotherThan: nil)
        let decoder = JSONDecoder()
        let transcoder = RFC3339DateTranscoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try transcoder.decode(try decoder.singleValueContainer().decode(String.self))
        }
        let session: Components.Schemas.Session
        do {
            session = try decoder.decode(Components.Schemas.Session.self, from: json)
        } catch {
            throw ClientError.unreadableAnswer("the backend's session: \(error)")
        }
        try await start(session, deviceKey: nil)
    }
}
