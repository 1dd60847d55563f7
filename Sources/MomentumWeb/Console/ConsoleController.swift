import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// The operator's console (`/console`): server-rendered pages over the use cases, behind an
/// operator's console session (a cookie), each page and form checked against the
/// operator's role and every form against its CSRF token and origin.
///
/// It answers only on the configured hosts (`ServerConfiguration.console`), with headers
/// that keep its pages out of caches, frames and other sites' reach. Each area of the
/// console registers its own pages (`ConsoleRoutes`).
public struct ConsoleController<Context: WebRequestContext>: Sendable {
    let services: Services
    let configuration: ServerConfiguration
    /// The HTTP layer's one table from a refusal to a status.
    let status: @Sendable (ServiceError) -> HTTPResponse.Status
    /// The sections whose pages are registered.
    let sections = ConsoleSections()

    /// Creates the console's controller.
    ///
    /// - Parameters:
    ///   - services: The use cases (the operators' sessions among them).
    ///   - configuration: The server's settings (`console`, `secureCookies`).
    ///   - status: The HTTP status of a service's refusal.
    public init(
        services: Services, configuration: ServerConfiguration,
        status: @escaping @Sendable (ServiceError) -> HTTPResponse.Status
    ) {
        self.services = services
        self.configuration = configuration
        self.status = status
    }

    /// The cookie that holds an operator's console session (HttpOnly, SameSite=Strict,
    /// Path=/console).
    static var sessionCookie: String { "momentum_console" }

    /// Adds the console's routes to `router`: signing in and out, its stylesheet, and each
    /// area's pages. Nothing when the console is off.
    public func addRoutes(to router: Router<Context>) {
        guard configuration.console.enabled else { return }
        let group = router.group("console").add(
            middleware: ConsoleGuard<Context>(settings: configuration.console, status: status))
        group.get { request, _ in
            guard let (actor, _) = try await session(request) else { return signIn(request) }
            return Response(status: .seeOther, headers: [.location: home(actor)])
        }
        group.get("console.css") { _, _ in
            guard let file = WebAssets.shared.files["console.css"] else { throw ServiceError.notFound("file") }
            return Response(
                status: .ok, headers: [.contentType: file.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
        addSignInRoutes(to: group)

        // Each area's pages, one line each.
        let routes = ConsoleRoutes(router: group, gate: self, sections: sections)
        routes.addOperatorPages(services: services)
        routes.addAuditPages(services: services)
        routes.addWebhookPages(services: services)
        routes.addNotificationPages(services: services)
        routes.addKeyPages(services: services)
        routes.addPackPages(services: services)
        routes.addWhatIfPages(services: services)
        routes.addUserPages(services: services)
        routes.addReviewFlagPages(services: services)
        routes.addAmnestyPages(services: services)
    }

    /// Where an operator starts: the first section of the navigation their role opens.
    func home(_ actor: OperatorActor) -> String {
        sections.shown(to: actor.role).first?.path ?? ConsoleSection.operators.path
    }

    /// Whether the request came over HTTPS (configured so, or forwarded from HTTPS by a
    /// TLS-terminating proxy): its cookies are `Secure`, its own origin `https://`.
    func secure(_ request: Request) -> Bool {
        if configuration.secureCookies { return true }
        guard let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!] else { return false }
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }
}

extension ConsoleController: ConsoleGate {
    func session(_ request: Request) async throws -> (actor: OperatorActor, csrf: String)? {
        guard let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty,
            let session = try await services.operators.session(token: token), session.kind == .console
        else { return nil }
        return (session.actor, session.csrf)
    }

    func signIn(_ request: Request) -> Response {
        var location = "/console/sign-in"
        if request.method == .get, let next = Self.next(request.uri.description) {
            location += "?next=" + ConsoleLayout.queryValue(next)
        }
        return Response(status: .seeOther, headers: [.location: location])
    }

    func authorize(
        _ actor: OperatorActor, _ permission: OperatorPermission, action: String?, user: String?
    ) async throws {
        try await services.operators.authorize(actor, permission, action: action, user: user)
    }

    func formFields(_ request: Request, csrf: String) async throws -> [String: String] {
        try await ConsoleForm.fields(request, csrf: csrf, settings: configuration.console, secure: secure(request))
    }

    func render(
        _ page: ConsolePage, section: ConsoleSection, actor: OperatorActor, csrf: String, notice: String?
    ) -> Response {
        ConsoleLayout.page(
            page, section: section, navigation: sections.shown(to: actor.role), actor: actor, csrf: csrf,
            notice: notice)
    }

    func refusal(_ error: ServiceError, section: ConsoleSection, actor: OperatorActor, csrf: String) -> Response {
        let title =
            switch error.kind {
            case .forbidden: "Not allowed"
            case .notFound: "Not found"
            default: "Not done"
            }
        let details = error.fields.map { field -> ConsoleHTML in "<li><code>\(field.field)</code>: \(field.issue)</li>"
        }
        let list: ConsoleHTML = details.isEmpty ? "" : "<ul>\(ConsoleHTML(joining: details))</ul>"
        let body: ConsoleHTML = """
            <div class="error" role="alert"><p>\(error.message.prefix(1).uppercased() + error.message.dropFirst())</p>\(list)<p class="muted"><code>\(error.code)</code></p></div>
            """
        return render(
            ConsolePage(title: title, body: body, status: status(error)), section: section, actor: actor, csrf: csrf,
            notice: nil)
    }

    /// A console page to go to after signing in: a path under `/console`, never another
    /// site's address.
    static func next(_ value: String?) -> String? {
        guard let value, value == "/console" || value.hasPrefix("/console/"), !value.contains("\\"),
            !value.hasPrefix("//"), value.utf8.count <= 512,
            !value.contains(where: { $0.isNewline || $0 == " " }),
            !value.hasPrefix("/console/sign-")
        else { return nil }
        return value
    }
}
