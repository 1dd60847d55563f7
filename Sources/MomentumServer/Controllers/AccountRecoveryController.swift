import Foundation
import Hummingbird
import MomentumServices

/// `/v1/password-reset…`, `/v1/email-verification/confirm` and
/// `/v1/me/email-verification`: each maps HTTP to an ``AccountRecovery`` use case.
struct AccountRecoveryController: Sendable {
    let recovery: AccountRecovery

    /// Registers the routes open to anyone on `group` and the others on `authenticated`.
    func addRoutes(public group: RouterGroup<MomentumContext>, authenticated: RouterGroup<MomentumContext>) {
        group.post("password-reset", use: requestReset)
        group.post("password-reset/confirm", use: confirmReset)
        group.post("email-verification/confirm", use: confirmVerification)
        authenticated.post("me/email-verification", use: resendVerification)
    }

    /// `POST /v1/password-reset`: 202 whether or not the email has an account.
    @Sendable func requestReset(_ request: Request, context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(PasswordResetRequest.self, from: request, limit: 16_384)
        try recovery.requestPasswordReset(body, address: context.addressKey)
        return try JSONIO.response(["status": "accepted"], status: .accepted)
    }

    /// `POST /v1/password-reset/confirm`: the new password is set; how many devices were
    /// signed out.
    @Sendable func confirmReset(_ request: Request, context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(PasswordResetConfirmation.self, from: request, limit: 16_384)
        let ended = try await recovery.confirmPasswordReset(body)
        return try JSONIO.response(["signedOutDevices": ended])
    }

    /// `POST /v1/email-verification/confirm`: the address is verified.
    @Sendable func confirmVerification(_ request: Request, context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(EmailVerificationConfirmation.self, from: request, limit: 16_384)
        try await recovery.confirmEmailVerification(body)
        return try JSONIO.response(["emailVerified": true])
    }

    /// `POST /v1/me/email-verification`: 202; a mail follows when the address is not
    /// verified yet.
    @Sendable func resendVerification(_ request: Request, context: MomentumContext) async throws -> Response {
        try recovery.resendVerification(caller: try context.requireCaller())
        return try JSONIO.response(["status": "accepted"], status: .accepted)
    }
}
