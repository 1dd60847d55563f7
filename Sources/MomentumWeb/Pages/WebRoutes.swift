import Foundation
import HTTPTypes
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore

/// The web app: pages rendered on the server from the engine's state, enhanced by plain
/// JavaScript modules that call the JSON API with the session cookie.
///
/// Its pages call the use cases (``Services``) as the JSON API's controllers do; what
/// only the HTTP layer knows (who a session cookie belongs to, the status of a refusal)
/// comes in through ``WebSessionAuthority`` and `status`.
public struct WebController<Context: WebRequestContext>: Sendable {
    let services: Services
    let configuration: ServerConfiguration
    let sessions: any WebSessionAuthority
    /// The HTTP layer's one table from a refusal to a status.
    let status: @Sendable (ServiceError) -> HTTPResponse.Status

    /// Creates the web app's controller.
    ///
    /// - Parameters:
    ///   - services: The use cases.
    ///   - configuration: The server's settings (the default pack, cookies, the demo).
    ///   - sessions: Who a session cookie belongs to.
    ///   - status: The HTTP status of a service's refusal.
    public init(
        services: Services, configuration: ServerConfiguration, sessions: any WebSessionAuthority,
        status: @escaping @Sendable (ServiceError) -> HTTPResponse.Status
    ) {
        self.services = services
        self.configuration = configuration
        self.sessions = sessions
        self.status = status
    }

    /// Adds the pages, the static files and the forms' routes to `router`.
    public func addRoutes(to router: Router<Context>) {
        let assets = WebAssets.shared
        router.get("/") { request, _ in
            let signedIn = try await webCaller(request) != nil
            return Response.redirect(to: signedIn ? "/today" : "/signin", type: .normal)
        }
        router.get("static/:file") { _, context in
            let name = try context.parameter("file")
            guard let file = assets.files[name] else { throw ServiceError.notFound("file '\(name)'") }
            return Response(
                status: .ok, headers: [.contentType: file.contentType, .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
        // The service worker shows Web Push notifications; served from the root so that its
        // scope is the whole app.
        router.get("sw.js") { _, _ in
            guard let file = assets.files["sw.js"] else { throw ServiceError.notFound("file 'sw.js'") }
            return Response(
                status: .ok,
                headers: [
                    .contentType: file.contentType, .cacheControl: "no-cache",
                    HTTPField.Name("Service-Worker-Allowed")!: "/",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
        router.get("signin") { request, _ in
            let next = Self.next(request.uri.queryParameters["next"].map(String.init))
            if try await webCaller(request) != nil { return Response.redirect(to: next ?? "/today", type: .normal) }
            return Self.inBrowserLanguage(request) {
                assets.page("signin", AuthPage(demo: configuration.demo, next: next).context)
            }
        }
        router.get("signup") { request, _ in
            Self.inBrowserLanguage(request) {
                assets.page(
                    "signup",
                    AuthPage(
                        title: L("auth.createAccount"),
                        next: Self.next(request.uri.queryParameters["next"].map(String.init)),
                        zones: WebViews.zones(selected: "UTC"),
                        packChoices: WebViews.packChoices(
                            checked: RulePack.canonicalNames(configuration.pack) ?? [])
                    ).context)
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
                    var page = AuthPage(demo: configuration.demo, next: Self.next(form["next"]))
                    page.email = form["email"] ?? ""
                    page.error = Self.sentences(error)
                    return assets.page("signin", page.context, status: status(error))
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
                    var page = AuthPage(
                        title: L("auth.createAccount"), next: Self.next(form["next"]),
                        zones: WebViews.zones(selected: form["timeZone"] ?? "UTC"),
                        packChoices: WebViews.packChoices(
                            checked: form["packs"].map { $0.split(separator: "+").map(String.init) } ?? []))
                    page.email = form["email"] ?? ""
                    page.displayName = form["displayName"] ?? ""
                    page.error = Self.sentences(error)
                    return assets.page("signup", page.context, status: status(error))
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

        let views = WebViews(services: services, configuration: configuration)
        for (path, page) in [
            ("today", "today"), ("journey", "journey"), ("profile", "profile"), ("memories", "memories"),
            ("notifications", "notifications"), ("friends", "friends"), ("feed", "feed"),
        ] {
            router.get(RouterPath(path)) { request, _ in
                try await signedInPage(request) { caller in
                    let context: [String: Any] =
                        switch page {
                        case "today": try await views.today(caller)
                        case "journey": try await views.journey(caller)
                        case "profile": try await views.profile(caller)
                        case "notifications":
                            try await views.notifications(
                                caller, before: request.uri.queryParameters["before"].map(String.init))
                        case "friends": try await views.friends(caller)
                        case "feed":
                            try await views.feed(caller, before: request.uri.queryParameters["before"].map(String.init))
                        default:
                            try await views.memories(
                                caller, category: request.uri.queryParameters["category"].map(String.init))
                        }
                    return try await render(caller, page, context)
                }
            }
        }
        router.get("habits/:habit") { request, context in
            try await signedInPage(request) { caller in
                guard let page = try await views.habit(caller, id: try context.parameter("habit")) else {
                    return try await render(
                        caller,
                        "missing", try await views.chrome(caller, "today", title: L("habit.missing.title")),
                        status: .notFound)
                }
                return try await render(caller, "habit", page)
            }
        }
        router.get("packs/:pack") { request, context in
            try await signedInPage(request) { caller in
                guard let page = try await views.packPage(caller, pack: try context.parameter("pack")) else {
                    return try await render(
                        caller,
                        "missing", try await views.chrome(caller, "today", title: L("habit.missing.title")),
                        status: .notFound)
                }
                return try await render(caller, "pack", page)
            }
        }
        router.get("friends/:friend") { request, context in
            try await signedInPage(request) { caller in
                guard let page = try await views.friend(caller, id: try context.parameter("friend")) else {
                    return try await render(
                        caller,
                        "missing", try await views.chrome(caller, "friends", title: L("habit.missing.title")),
                        status: .notFound)
                }
                return try await render(caller, "friend", page)
            }
        }
        router.get("invitations/:code") { request, context in
            try await signedInPage(request) { caller in
                try await render(
                    caller, "invitation", try await views.invitation(caller, code: try context.parameter("code")))
            }
        }
        router.get("families/:owner/:subject") { request, context in
            try await signedInPage(request) { caller in
                guard
                    let page = try await views.family(
                        caller, owner: try context.parameter("owner"), subject: try context.parameter("subject"))
                else {
                    return try await render(
                        caller,
                        "missing", try await views.chrome(caller, "friends", title: L("habit.missing.title")),
                        status: .notFound)
                }
                return try await render(caller, "family", page)
            }
        }
        router.get("memories/:memory/share") { request, context in
            try await signedInPage(request) { caller in
                guard let page = try await views.share(caller, memory: try context.parameter("memory")) else {
                    return try await render(
                        caller,
                        "missing", try await views.chrome(caller, "memories", title: L("habit.missing.title")),
                        status: .notFound)
                }
                return try await render(caller, "share", page)
            }
        }
        // A memory's illustration, for the memories page and the celebrations of a memory
        // without a photo: light and dark in one document, as the reader's scheme asks.
        router.get("memories/:memory/illustration.svg") { request, context in
            guard let caller = try await webCaller(request) else {
                throw ServiceError.unauthenticated
            }
            let illustration = try await services.memories.illustration(
                of: try context.parameter("memory"), user: caller.user)
            return Response(
                status: .ok,
                headers: [
                    .contentType: "image/svg+xml; charset=utf-8", .cacheControl: "private, max-age=3600",
                    HTTPField.Name("Content-Security-Policy")!: "default-src 'none'; style-src 'unsafe-inline'",
                ],
                body: .init(
                    byteBuffer: ByteBuffer(string: IllustrationRenderer.svg(illustration, appearance: .adaptive))))
        }
    }

    /// The signed-in browser's caller, or `nil` without a valid session cookie.
    func webCaller(_ request: Request) async throws -> Caller? {
        guard let token = request.cookies[WebSession.cookieName]?.value, !token.isEmpty else { return nil }
        return try await sessions.caller(token: token)
    }

    /// A page for the signed-in browser, or the sign-in page without a valid session. A
    /// session trusted from the cache whose account was deleted through another instance a
    /// moment ago finds no account: that sends the browser to sign in too.
    private func signedInPage(
        _ request: Request, _ body: (Caller) async throws -> Response
    ) async throws -> Response {
        guard let caller = try await webCaller(request) else { return toSignIn(request) }
        do {
            let language = try await services.accounts.profile(of: caller.user).language
            let strings = Wording.negotiate(profile: language, acceptLanguage: request.headers[.acceptLanguage])
            return try await Wording.$current.withValue(strings) { try await body(caller) }
        } catch let error where Self.isNotFound(error) {
            guard try await sessions.isLive(caller) else { return toSignIn(request) }
            throw error
        }
    }

    /// Renders a signed-in page with the bell's unread count in its top bar.
    private func render(
        _ caller: Caller, _ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var context = context
        let unread = try await services.notifications.unreadCount(of: caller.user)
        context["unread"] = unread
        context["hasUnread"] = unread > 0
        context["bellLabel"] =
            unread > 0
            ? "\(L("common.notifications")), \(Wording.current.count("common.unread", unread))"
            : L("common.notifications")
        return WebAssets.shared.page(template, context, status: status)
    }

    /// Renders a signed-out page in the browser's language.
    static func inBrowserLanguage(_ request: Request, _ render: () -> Response) -> Response {
        Wording.$current.withValue(
            Wording.negotiate(profile: nil, acceptLanguage: request.headers[.acceptLanguage]), operation: render)
    }

    /// The sign-in page, which comes back to the page asked for (an invitation's link)
    /// once signed in.
    private func toSignIn(_ request: Request) -> Response {
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
        if let key = await services.accounts.deviceKey(for: session.email, showing: shownDeviceKey) {
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
    private func webForm(_ request: Request, _ context: Context) async throws -> [String: String] {
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

/// The sign-in and sign-up pages.
struct AuthPage {
    /// The page's title; `nil` for "Sign in" in the page's language.
    var title: String?
    var demo = false
    /// Where to go once signed in (a path of this site), if not Today.
    var next: String?
    var email = ""
    var displayName = ""
    var error: String?
    var zones: [[String: Any]] = []
    var packChoices: [[String: Any]] = []

    /// The page's template context.
    var context: [String: Any] {
        var context: [String: Any] = [
            "title": title ?? L("auth.signIn"), "demo": demo, "email": email, "displayName": displayName,
            "zones": zones, "packChoices": packChoices,
        ]
        if let next { context["next"] = next }
        if let error { context["error"] = error }
        return context
    }
}

extension WebController {
    /// Whether `error` says that what was asked for does not exist.
    static func isNotFound(_ error: any Error) -> Bool {
        (error as? ServiceError)?.kind == .notFound || (error as? StoreError)?.code == .notFound
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
