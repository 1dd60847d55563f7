import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// Signing in and out of the console. The sign-in form carries a token of its own (a
/// cookie and a hidden field that must match, and the form's origin checked), so that no
/// other site can sign a browser in to an operator account of its choosing.
extension ConsoleController {
    /// The cookie that holds the sign-in form's token until the operator signs in.
    static var signInCookie: String { "momentum_console_form" }

    /// What a failed sign-in says, whichever part was wrong.
    static var signInRefused: String { "That email and password do not match an enabled operator." }

    func addSignInRoutes(to group: RouterGroup<Context>) {
        group.get("sign-in") { request, _ in
            let next = Self.next(request.uri.queryParameters["next"].map(String.init))
            if let (actor, _) = try await session(request) {
                return Response(status: .seeOther, headers: [.location: next ?? home(actor)])
            }
            return signInPage(request, next: next, email: "", error: nil, status: .ok)
        }
        group.post("sign-in") { request, context in
            let expected = request.cookies[Self.signInCookie]?.value ?? ""
            let form: [String: String]
            do {
                form = try await ConsoleForm.fields(
                    request, csrf: expected, settings: configuration.console, secure: secure(request))
            } catch let error as ServiceError {
                return signInPage(
                    request, next: nil, email: "",
                    error: "This sign-in form has expired or came from elsewhere. Please sign in again.",
                    status: status(error))
            }
            let next = Self.next(form["next"])
            let email = form["email"] ?? ""
            do {
                let signIn = try await services.operators.signIn(
                    email: email, password: form["password"] ?? "", address: context.addressKey, kind: .console)
                var response = Response(status: .seeOther, headers: [.location: next ?? home(signIn.operator.actor)])
                // A cookie for the browser's session only: the server ends the session after
                // its idle time, and at once when the operator is disabled.
                response.setCookie(
                    Cookie(
                        name: Self.sessionCookie, value: signIn.token, path: "/console", secure: secure(request),
                        httpOnly: true, sameSite: .strict))
                response.setCookie(expired(Self.signInCookie, request))
                return response
            } catch let error as ServiceError {
                let message = error.kind.isTooMany ? error.message : Self.signInRefused
                return signInPage(request, next: next, email: email, error: message, status: status(error))
            }
        }
        group.post("sign-out") { request, _ in
            var response = Response(status: .seeOther, headers: [.location: "/console/sign-in"])
            if let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty,
                let (actor, csrf) = try await session(request)
            {
                do {
                    _ = try await formFields(request, csrf: csrf)
                } catch let error as ServiceError {
                    return refusal(error, section: .users, actor: actor, csrf: csrf)
                }
                try await services.operators.signOut(token: token)
            }
            response.setCookie(expired(Self.sessionCookie, request))
            return response
        }
    }

    /// The sign-in page with a fresh form token (its cookie set beside it).
    private func signInPage(
        _ request: Request, next: String?, email: String, error: String?, status: HTTPResponse.Status
    ) -> Response {
        let token = Tokens.id("mcf_")
        let cookie = Cookie(
            name: Self.signInCookie, value: token, maxAge: 3_600, path: "/console", secure: secure(request),
            httpOnly: true, sameSite: .strict)
        return ConsoleLayout.signIn(
            csrf: token, next: next, email: email, error: error, status: status,
            headers: [.setCookie: cookie.description])
    }

    private func expired(_ name: String, _ request: Request) -> Cookie {
        Cookie(
            name: name, value: "", maxAge: 0, path: "/console", secure: secure(request), httpOnly: true,
            sameSite: .strict)
    }
}
