import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// "Forgot your password?", "Choose a new password" and "Email verified": the pages the
/// mails' links open. A link's page never uses its token on GET (a mail scanner that
/// prefetches it must not use it up): only its form's POST does. The pages carry a token
/// in their address, so they send no `Referer` anywhere.
extension WebController {
    /// Adds the recovery pages to `router`.
    func addRecoveryRoutes(to router: Router<Context>) {
        let assets = WebAssets.shared
        router.get("forgot-password") { request, _ in
            Self.inBrowserLanguage(request) {
                Self.private(assets.page(RecoveryPage(title: L("recovery.forgot"), forgot: true), chrome: nil))
            }
        }
        router.post("forgot-password") { request, context in
            let form = try await webForm(request, context)
            do {
                try services.recovery.requestPasswordReset(
                    PasswordResetRequest(email: form["email"] ?? ""), address: context.addressKey)
            } catch let refusal as ServiceError {
                let error = refusal
                return Self.inBrowserLanguage(request) {
                    let page = RecoveryPage(
                        title: L("recovery.forgot"), forgot: true, email: form["email"] ?? "",
                        error: Self.sentences(error))
                    return Self.private(assets.page(page, chrome: nil, status: status(error)))
                }
            }
            return Self.inBrowserLanguage(request) {
                Self.private(assets.page(RecoveryPage(title: L("recovery.sentTitle"), sent: true), chrome: nil))
            }
        }
        router.get("reset-password") { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            return Self.inBrowserLanguage(request) {
                Self.private(
                    assets.page(RecoveryPage(title: L("recovery.resetTitle"), reset: true, token: token), chrome: nil))
            }
        }
        router.post("reset-password") { request, context in
            let form = try await webForm(request, context)
            do {
                _ = try await services.recovery.confirmPasswordReset(
                    PasswordResetConfirmation(password: form["password"] ?? "", token: form["token"] ?? ""))
            } catch let refusal as ServiceError {
                let error = refusal
                return Self.inBrowserLanguage(request) {
                    let page = RecoveryPage(
                        title: L("recovery.resetTitle"), reset: true, token: form["token"], error: Self.sentences(error)
                    )
                    return Self.private(assets.page(page, chrome: nil, status: status(error)))
                }
            }
            return Self.inBrowserLanguage(request) {
                Self.private(
                    assets.page(RecoveryPage(title: L("recovery.resetDoneTitle"), resetDone: true), chrome: nil))
            }
        }
        router.get("verify-email") { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            return Self.inBrowserLanguage(request) {
                Self.private(
                    assets.page(RecoveryPage(title: L("recovery.verifyTitle"), verify: true, token: token), chrome: nil)
                )
            }
        }
        router.post("verify-email") { request, context in
            let form = try await webForm(request, context)
            do {
                try await services.recovery.confirmEmailVerification(
                    EmailVerificationConfirmation(token: form["token"] ?? ""))
            } catch let refusal as ServiceError {
                let error = refusal
                return Self.inBrowserLanguage(request) {
                    let page = RecoveryPage(
                        title: L("recovery.verifyTitle"), verify: true, token: form["token"],
                        error: Self.sentences(error))
                    return Self.private(assets.page(page, chrome: nil, status: status(error)))
                }
            }
            return Self.inBrowserLanguage(request) {
                Self.private(assets.page(RecoveryPage(title: L("recovery.verifiedTitle"), verified: true), chrome: nil))
            }
        }
    }

    /// A page whose address may hold a link's token: it sends no `Referer` (to the links
    /// on it, or to anything it loads).
    static func `private`(_ response: Response) -> Response {
        var response = response
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
