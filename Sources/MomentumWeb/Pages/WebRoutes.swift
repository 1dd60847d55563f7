import Foundation
import HTTPTypes
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore

/// The web app: pages rendered on the server from the engine's state, enhanced by plain
/// JavaScript modules that call the JSON API with the session cookie.
///
/// Its pages call the use cases (`Services`) as the JSON API's controllers do; what
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
        addAuthRoutes(to: router)
        addRecoveryRoutes(to: router)

        let views = WebViews(services: services, configuration: configuration)
        router.get("today") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.today(caller)
                return try await render(caller, page, chrome)
            }
        }
        router.get("journey") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.journey(caller)
                return try await render(caller, page, chrome)
            }
        }
        router.get("profile") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.profile(caller)
                return try await render(caller, page, chrome)
            }
        }
        router.get("memories") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.memories(
                    caller, category: request.uri.queryParameters["category"].map(String.init))
                return try await render(caller, page, chrome)
            }
        }
        router.get("friends") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.friends(caller)
                return try await render(caller, page, chrome)
            }
        }
        router.get("feed") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.feed(
                    caller, before: request.uri.queryParameters["before"].map(String.init))
                return try await render(caller, page, chrome)
            }
        }
        router.get("notifications") { request, _ in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.notifications(
                    caller, before: request.uri.queryParameters["before"].map(String.init))
                return try await render(caller, page, chrome)
            }
        }
        router.get("habits/:habit") { request, context in
            try await signedInPage(request) { caller in
                guard let (page, chrome) = try await views.habit(caller, id: try context.parameter("habit")) else {
                    return try await render(
                        caller, MissingPage(),
                        try await views.layout(caller, "today", title: L("habit.missing.title")), status: .notFound)
                }
                return try await render(caller, page, chrome)
            }
        }
        router.get("packs/:pack") { request, context in
            try await signedInPage(request) { caller in
                guard let (page, chrome) = try await views.packPage(caller, pack: try context.parameter("pack")) else {
                    return try await render(
                        caller, MissingPage(),
                        try await views.layout(caller, "today", title: L("habit.missing.title")), status: .notFound)
                }
                return try await render(caller, page, chrome)
            }
        }
        router.get("friends/:friend") { request, context in
            try await signedInPage(request) { caller in
                guard let (page, chrome) = try await views.friend(caller, id: try context.parameter("friend")) else {
                    return try await render(
                        caller, MissingPage(),
                        try await views.layout(caller, "friends", title: L("habit.missing.title")), status: .notFound)
                }
                return try await render(caller, page, chrome)
            }
        }
        router.get("invitations/:code") { request, context in
            try await signedInPage(request) { caller in
                let (page, chrome) = try await views.invitation(caller, code: try context.parameter("code"))
                return try await render(caller, page, chrome)
            }
        }
        router.get("families/:owner/:subject") { request, context in
            try await signedInPage(request) { caller in
                guard
                    let (page, chrome) = try await views.family(
                        caller, owner: try context.parameter("owner"), subject: try context.parameter("subject"))
                else {
                    return try await render(
                        caller, MissingPage(),
                        try await views.layout(caller, "friends", title: L("habit.missing.title")), status: .notFound)
                }
                return try await render(caller, page, chrome)
            }
        }
        router.get("memories/:memory/share") { request, context in
            try await signedInPage(request) { caller in
                guard let (page, chrome) = try await views.share(caller, memory: try context.parameter("memory")) else {
                    return try await render(
                        caller, MissingPage(),
                        try await views.layout(caller, "memories", title: L("habit.missing.title")), status: .notFound)
                }
                return try await render(caller, page, chrome)
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

    /// Renders a signed-in page's model in its layout, with the bell's unread count.
    private func render<Model: TemplateModel>(
        _ caller: Caller, _ page: Model, _ chrome: Chrome, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var chrome = chrome
        let unread = try await services.notifications.unreadCount(of: caller.user)
        chrome.unread = unread
        chrome.hasUnread = unread > 0
        chrome.bellLabel = Self.bellLabel(unread)
        return WebAssets.shared.page(page, chrome: chrome, status: status)
    }

    /// The bell's label: "Notifications", with the unread count when there are some.
    private static func bellLabel(_ unread: Int) -> String {
        unread > 0
            ? "\(L("common.notifications")), \(Wording.current.count("common.unread", unread))"
            : L("common.notifications")
    }

    /// Renders a signed-out page in the browser's language.
    static func inBrowserLanguage(_ request: Request, _ render: () -> Response) -> Response {
        Wording.$current.withValue(
            Wording.negotiate(profile: nil, acceptLanguage: request.headers[.acceptLanguage]), operation: render)
    }
}

extension WebController {
    /// Whether `error` says that what was asked for does not exist.
    static func isNotFound(_ error: any Error) -> Bool {
        (error as? ServiceError)?.kind == .notFound || (error as? StoreError)?.code == .notFound
    }
}
