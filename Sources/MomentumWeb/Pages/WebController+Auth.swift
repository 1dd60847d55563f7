import Foundation
import HTTPTypes
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore

/// Signing in, up and out: the forms, the session cookie, and the words of a refusal.
extension WebController {
    /// Adds the sign-in, sign-up and sign-out routes to `router`.
    func addAuthRoutes(to router: Router<Context>) {
        let assets = WebAssets.shared
        router.get("signin") { request, _ in
            let next = Self.next(request.uri.queryParameters["next"].map(String.init))
            if try await webCaller(request) != nil { return Response.redirect(to: next ?? "/today", type: .normal) }
            return Self.inBrowserLanguage(request) {
                assets.page(SignInPage(demo: configuration.demo, next: next), chrome: nil)
            }
        }
        router.get("signup") { request, _ in
            Self.inBrowserLanguage(request) {
                assets.page(
                    SignUpPage(
                        next: Self.next(request.uri.queryParameters["next"].map(String.init)),
                        zones: WebViews.zones(selected: "UTC"),
                        packChoices: WebViews.packChoices(
                            checked: RulePack.canonicalNames(configuration.pack) ?? [])),
                    chrome: nil)
            }
        }
        router.post("signin") { request, context in
            let form = try await webForm(request, context)
            do {
                let shown = request.cookies[Self.deviceCookie]?.value
                let session = try await services.accounts.signIn(
                    SignInRequest(
                        deviceName: Self.deviceName(userAgent: request.headers[.userAgent]),
                        email: form["email"] ?? "", password: form["password"] ?? ""),
                    address: context.addressKey, deviceKey: shown)
                return await signedIn(session, request, next: Self.next(form["next"]), shownDeviceKey: shown)
            } catch let refusal as ServiceError {
                let error = refusal
                return Self.inBrowserLanguage(request) {
                    let page = SignInPage(
                        demo: configuration.demo, next: Self.next(form["next"]), email: form["email"] ?? "",
                        error: Self.sentences(error))
                    return assets.page(page, chrome: nil, status: status(error))
                }
            }
        }
        router.post("signup") { request, context in
            let form = try await webForm(request, context)
            do {
                let session = try await services.accounts.register(
                    RegisterRequest(
                        deviceName: Self.deviceName(userAgent: request.headers[.userAgent]),
                        displayName: form["displayName"] ?? "", email: form["email"] ?? "",
                        language: Translation.bestMatch(for: Wording.preferred(request.headers[.acceptLanguage])),
                        packs: Self.packs(form),
                        password: form["password"] ?? "", timeZone: form["timeZone"]),
                    address: context.addressKey)
                return await signedIn(session, request, next: Self.next(form["next"]), shownDeviceKey: nil)
            } catch let refusal as ServiceError {
                let error = refusal
                // Built in the browser's language: the title and the packs' hints are words.
                return Self.inBrowserLanguage(request) {
                    let page = SignUpPage(
                        next: Self.next(form["next"]), email: form["email"] ?? "",
                        displayName: form["displayName"] ?? "", error: Self.sentences(error),
                        zones: WebViews.zones(selected: form["timeZone"] ?? "UTC"),
                        packChoices: WebViews.packChoices(
                            checked: form["packs"].map { $0.split(separator: "+").map(String.init) } ?? []))
                    return assets.page(page, chrome: nil, status: status(error))
                }
            }
        }
        router.post("signout") { request, _ in
            try requireSameOrigin(request)
            if let caller = try await webCaller(request) {
                try await services.accounts.revoke(user: caller.user, tokenHash: caller.tokenHash)
            }
            var response = Response.redirect(to: "/signin", type: .normal)
            response.setCookie(
                Cookie(
                    name: WebSession.cookieName, value: "", maxAge: 0, path: "/", secure: secure(request),
                    httpOnly: true, sameSite: .strict))
            return response
        }
    }

    /// The sign-in page, which comes back to the page asked for (an invitation's link)
    /// once signed in.
    func toSignIn(_ request: Request) -> Response {
        guard request.method == .get, let next = Self.next(request.uri.path), next != "/" else {
            return Response.redirect(to: "/signin", type: .normal)
        }
        let encoded =
            next.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["/", "-", "_", "."])) ?? ""
        return Response.redirect(to: "/signin?next=\(encoded)", type: .normal)
    }

    /// A page of this site to go to after signing in: a path of its own, never another
    /// site's address.
    static func next(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/"), !value.hasPrefix("//"), !value.contains("\\"), value.utf8.count <= 512,
            !value.contains(where: { $0.isNewline || $0 == " " })
        else { return nil }
        return value
    }

    private func signedIn(
        _ session: SessionResponse, _ request: Request, next: String? = nil, shownDeviceKey: String?
    ) async -> Response {
        var response = Response.redirect(to: next ?? "/today", type: .normal)
        response.setCookie(
            Cookie(
                name: WebSession.cookieName, value: session.token,
                maxAge: Int(configuration.sessionLifetime.components.seconds), path: "/",
                secure: secure(request), httpOnly: true, sameSite: .strict))
        // The browser's device key, shown with its next sign-in (only to the sign-in form),
        // so that guesses at the password from elsewhere do not keep it out.
        if let email = session.email, let key = await services.accounts.deviceKey(for: email, showing: shownDeviceKey) {
            response.setCookie(
                Cookie(
                    name: Self.deviceCookie, value: key, maxAge: 400 * 86_400, path: "/signin",
                    secure: secure(request), httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// The cookie that holds the browser's device key (``SignInDevices``).
    static var deviceCookie: String { "momentum_device" }

    /// Whether the session cookie must be `Secure`: always when configured so, and for a
    /// request a TLS-terminating proxy forwarded from HTTPS. (A client that fakes the
    /// header only keeps its own cookie off plain HTTP.)
    private func secure(_ request: Request) -> Bool {
        if configuration.secureCookies { return true }
        guard let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!] else { return false }
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// A URL-encoded form body as a dictionary. A form posted from another site (its
    /// `Origin` is not this server) is refused, so no one can sign a visitor in to an
    /// account of theirs or out of their own.
    func webForm(_ request: Request, _ context: Context) async throws -> [String: String] {
        try requireSameOrigin(request)
        let buffer = try await request.body.collect(upTo: 16_384)
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let name = parts.first, !name.isEmpty else { continue }
            let value = parts.count > 1 ? parts[1] : ""
            // A repeated field (the sign-up's pack checkboxes) is its values joined by "+".
            fields[name] = fields[name].map { "\($0)+\(value)" } ?? value
        }
        return fields
    }

    /// An error as a page shows it: each field at fault as a sentence ("Display name must
    /// have 1 to 100 characters."), as the web app's script words them; an issue that
    /// names its own subject stands alone. The API speaks English: a page in another
    /// language tells a refusal it knows (by code, or a field's rule) in that language,
    /// from the script's `errors` strings.
    static func sentences(_ error: ServiceError) -> String {
        let strings = Wording.current
        func translated(_ key: String) -> String? {
            strings.language == "en" ? nil : strings.texts["js.errors.\(key)"]
        }
        func sentence(_ field: String, _ issue: String) -> String {
            var label = String(field.split(separator: ".").last ?? "")
            if let bracket = label.firstIndex(of: "[") { label = String(label[..<bracket]) }
            label = label.reduce(into: "") { words, character in
                if character.isUppercase, let last = words.last, last.isLowercase { words.append(" ") }
                words.append(character)
            }.lowercased()
            let predicates = [
                "must", "is", "are", "was", "has", "have", "cannot", "can't", "should", "appears", "needs", "does",
                "not",
            ]
            let first = issue.prefix { $0.isLetter || $0 == "'" }
            var text = !label.isEmpty && predicates.contains(String(first)) ? "\(label) \(issue)" : issue
            text = text.prefix(1).uppercased() + text.dropFirst()
            return [".", "!", "?"].contains(text.last) ? text : text + "."
        }
        // Field by field for bad input; another refusal's message says what to do instead
        // ("an account with this email exists; sign in instead").
        if error.fields.isEmpty || error.code != "invalid_input" {
            return translated("code.\(error.code)") ?? sentence("", error.message)
        }
        return error.fields.map { detail in
            var name = String(detail.field.split(separator: ".").last ?? "")
            if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
            return translated("field.\(name)") ?? sentence(detail.field, detail.issue)
        }.joined(separator: " ")
    }

    /// The packs a sign-up form chose: its checked boxes; none when the form showed boxes
    /// and none was checked (refused: an account tracks something); the server's default
    /// pack for a form without the choice.
    static func packs(_ form: [String: String]) -> [String]? {
        if let packs = form["packs"] { return packs.split(separator: "+").map(String.init) }
        return form["packChoice"] == nil ? nil : []
    }

    /// A browser's device name from its `User-Agent` ("Firefox on macOS"), so that the list
    /// of signed-in devices tells them apart; "Web browser" when it says nothing familiar.
    static func deviceName(userAgent: String?) -> String {
        guard let agent = userAgent else { return "Web browser" }
        let browsers = [
            ("Edg/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
            ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
        ]
        let systems = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { agent.contains($0.0) }?.1
        let system = systems.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return "Web browser on \(system)"
        case (nil, nil): return "Web browser"
        }
    }
}

/// Refuses a browser form whose `Origin` header names another host than this request's.
func requireSameOrigin(_ request: Request) throws {
    guard let origin = request.headers[.origin], origin != "null" else { return }
    let host = request.head.authority ?? ""
    guard let parsed = URLComponents(string: origin), let originHost = parsed.host else {
        throw ServiceError(.forbidden, "cross_site_form", "this form must be sent from Momentum's own pages")
    }
    let originAuthority = parsed.port.map { "\(originHost):\($0)" } ?? originHost
    guard originAuthority == host else {
        throw ServiceError(.forbidden, "cross_site_form", "this form must be sent from Momentum's own pages")
    }
}
