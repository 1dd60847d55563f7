import Foundation
import MomentumAPI
import OpenAPIRuntime

// Account care: the password, and the whole account as an archive to keep or to take to
// another Momentum server. Online operations, like the social ones.

extension MomentumClient {
    /// Changes the account's password.
    ///
    /// - Parameters:
    ///   - current: The password in use now.
    ///   - new: The new password, 8 to 72 characters.
    ///   - signOutOtherDevices: Sign out every other device (this one stays signed in).
    /// - Returns: How many devices were signed out.
    /// - Throws: ``ClientError`` `wrong_password` (the current password is not right),
    ///   `invalid_input` naming `newPassword`, ``ClientError/busy`` after too many wrong
    ///   tries, or ``ClientError/offline``.
    @discardableResult
    public func changePassword(current: String, new: String, signOutOtherDevices: Bool = false) async throws -> Int {
        let output: Operations.ChangePassword.Output
        do {
            output = try await api.changePassword(
                body: .json(
                    .init(currentPassword: current, newPassword: new, signOutOtherDevices: signOutOtherDevices)))
        } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r): return try r.body.json.signedOutDevices
        case .badRequest(let e), .unauthorized(let e), .forbidden(let e), .contentTooLarge(let e),
            .unsupportedMediaType(let e), .unprocessableContent(let e):
            throw Self.refusal(e)
        case .tooManyRequests(let e), .serviceUnavailable(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("changing the password answered \(status)")
        }
    }

    /// The whole account as the server keeps it, as one tar file: the log, the profile, the
    /// memories with their photos. `momentum import` (or an operator's
    /// `POST /v1/admin/archives`) brings it into another Momentum server.
    ///
    /// - Parameter limit: The most bytes to accept (photos make archives large).
    /// - Throws: ``ClientError``, or ``ClientError/offline``.
    public func downloadArchive(limit: Int = 1 << 30) async throws -> Data {
        let output: Operations.DownloadArchive.Output
        do { output = try await api.downloadArchive() } catch { throw Self.unreachable(error) }
        switch output {
        case .ok(let r):
            do {
                return try await Data(collecting: try r.body.applicationXTar, upTo: limit)
            } catch {
                throw Self.unreachable(error)
            }
        case .unauthorized(let e), .forbidden(let e): throw Self.refusal(e)
        case .tooManyRequests(let e), .serviceUnavailable(let e): throw Self.busy(e)
        case .undocumented(let status, _): throw ClientError.server("downloading the archive answered \(status)")
        }
    }
}
