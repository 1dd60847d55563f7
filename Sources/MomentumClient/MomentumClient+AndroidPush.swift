import Foundation
import MomentumAPI
import OpenAPIRuntime

extension MomentumClient {
    /// Registers this Android device's FCM registration token, so that the server sends the
    /// user's notifications to it through Firebase Cloud Messaging (call it with the token
    /// `FirebaseMessaging.getToken()` gives, at every launch and from `onNewToken`:
    /// registering the same token again changes nothing).
    ///
    /// - Parameter token: The registration token, as Firebase gives it.
    /// - Returns: The registered device (its `id` removes it again).
    /// - Throws: ``ClientError`` `invalid_input` naming `channel` when the server has no FCM
    ///   service account, `token` for a token that is not one; ``ClientError/offline``.
    @discardableResult
    public func registerFCMToken(_ token: String) async throws -> Components.Schemas.PushTarget {
        try await perform("registering the FCM token") {
            try await api.registerPushTarget(body: .json(.init(channel: .fcm, token: token)))
        } success: {
            if case .created(let created) = $0 { try created.body.json } else { try $0.ok.body.json }
        }
    }
}
