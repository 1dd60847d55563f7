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
        let output: Operations.RegisterPushTarget.Output
        do {
            output = try await api.registerPushTarget(
                body: .json(.init(channel: .apns, environment: .init(rawValue: environment.rawValue), token: hex)))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .created(let created): return try created.body.json
        case .ok(let ok): return try ok.body.json
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .conflict(let e), .contentTooLarge(let e),
            .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("registering the device token answered \(status)")
        }
    }

    /// The user's devices that receive notifications, whether the server sends to APNs,
    /// and the key browsers subscribe with.
    ///
    /// - Throws: ``ClientError`` or ``ClientError/offline``.
    public func pushTargets() async throws -> Components.Schemas.PushTargetList {
        let output: Operations.ListPushTargets.Output
        do { output = try await api.listPushTargets() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("listing devices answered \(status)")
        }
    }

    /// Stops sending notifications to a device (when the user turns them off in the app,
    /// or before signing out).
    ///
    /// - Parameter id: The device's id, from ``registerDeviceToken(_:environment:)`` or
    ///   ``pushTargets()``.
    /// - Throws: ``ClientError`` `not_found` for an id the user has no device with.
    public func removePushTarget(_ id: String) async throws {
        let output: Operations.RemovePushTarget.Output
        do { output = try await api.removePushTarget(path: .init(target: id)) } catch { throw Self.unreachable(error) }
        switch output {
        case .noContent: return
        case .unauthorized(let e), .forbidden(let e), .notFound(let e), .conflict(let e): throw Self.refusal(e)
        case .tooManyRequests(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("removing the device answered \(status)")
        }
    }
}
