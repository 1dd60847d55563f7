import Foundation
import MomentumAPI
import OpenAPIRuntime

extension MomentumClient {
    /// Which APNs environment a device token belongs to.
    public enum APNsEnvironment: String, Sendable {
        /// An App Store or TestFlight build.
        case production
        /// A development build run from Xcode.
        case sandbox
    }

    /// Registers this device's APNs token, so that the server sends the user's
    /// notifications to it (call it from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`,
    /// every launch: registering the same token again changes nothing).
    ///
    /// - Parameters:
    ///   - deviceToken: The token's bytes, as iOS gives them.
    ///   - environment: `sandbox` for a development build.
    /// - Returns: The registered device (its `id` removes it again).
    /// - Throws: ``ClientError`` `invalid_input` naming `channel` when the server has no APNs
    ///   key, `token` for a token that is not one; ``ClientError/offline``.
    @discardableResult
    public func registerDeviceToken(
        _ deviceToken: some Sequence<UInt8>, environment: APNsEnvironment = .production
    ) async throws -> Components.Schemas.PushTarget {
        let hex = deviceToken.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return try await perform("registering the device token") {
            try await api.registerPushTarget(
                body: .json(.init(channel: .apns, environment: .init(rawValue: environment.rawValue), token: hex)))
        } success: {
            if case .created(let created) = $0 { try created.body.json } else { try $0.ok.body.json }
        }
    }

    /// The user's devices that receive notifications, whether the server sends to APNs,
    /// and the key browsers subscribe with.
    ///
    /// - Throws: ``ClientError`` or ``ClientError/offline``.
    public func pushTargets() async throws -> Components.Schemas.PushTargetList {
        try await perform("listing devices") {
            try await api.listPushTargets()
        } success: {
            try $0.ok.body.json
        }
    }

    /// Stops sending notifications to a device (when the user turns them off in the app,
    /// or before signing out).
    ///
    /// - Parameter id: The device's id, from ``registerDeviceToken(_:environment:)`` or
    ///   ``pushTargets()``.
    /// - Throws: ``ClientError`` `not_found` for an id the user has no device with.
    public func removePushTarget(_ id: String) async throws {
        try await perform("removing the device") {
            try await api.removePushTarget(path: .init(target: id))
        } success: { _ in
        }
    }
}
