import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices
import Synchronization

/// The console's sections, in the order its navigation lists them.
enum ConsoleSection: String, CaseIterable, Sendable {
    case users, reviewFlags = "review-flags", webhooks, notifications, keys, packs, amnesty, operators, audit

    /// The section's path under `/console`.
    var path: String { "/console/\(rawValue)" }

    /// The section's name in the navigation.
    var title: String {
        switch self {
        case .users: "Users"
        case .reviewFlags: "Review flags"
        case .webhooks: "Webhooks"
        case .notifications: "Notifications"
        case .keys: "Keys & identity"
        case .packs: "Packs"
        case .amnesty: "Amnesty"
        case .operators: "Operators"
        case .audit: "Audit log"
        }
    }

    /// What a section needs to be shown in the navigation.
    var permission: OperatorPermission {
        switch self {
        case .users: .viewUsers
        case .reviewFlags: .viewReviewFlags
        case .webhooks: .viewDeliveries
        case .notifications: .viewNotifications
        case .keys: .viewKeys
        case .packs: .viewPacks
        case .amnesty: .viewAmnesties
        case .operators: .viewOperators
        case .audit: .viewAudit
        }
    }
}

/// HTML the console writes: text is escaped where it is interpolated, markup is written
/// as literals. `"<td>\(name)</td>"` escapes `name`; `"\(raw: other)"` inserts HTML that
/// is already safe (another ``ConsoleHTML``'s, say).
struct ConsoleHTML: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The markup.
    var html: String

    init(stringLiteral value: String) { html = value }

    init(stringInterpolation: Interpolation) { html = stringInterpolation.html }

    /// Markup already safe.
    init(raw html: String) { self.html = html }

    /// Several pieces one after the other.
    init(joining pieces: [ConsoleHTML]) { html = pieces.map(\.html).joined() }

    /// `text` escaped for an element's content or a quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    struct Interpolation: StringInterpolationProtocol {
        var html = ""
        init(literalCapacity: Int, interpolationCount: Int) { html.reserveCapacity(literalCapacity * 2) }
        mutating func appendLiteral(_ literal: String) { html += literal }
        mutating func appendInterpolation(_ text: String) { html += ConsoleHTML.escape(text) }
        mutating func appendInterpolation(_ number: Int) { html += String(number) }
        mutating func appendInterpolation(_ other: ConsoleHTML) { html += other.html }
        mutating func appendInterpolation(raw: String) { html += raw }
    }
}

/// One page of the console: its title and its content. The layout adds the navigation,
/// the notice, and the title as the page's `<h1>` (unless the body starts with its own).
struct ConsolePage: Sendable {
    var title: String
    var body: ConsoleHTML
    /// The HTTP status (200 unless a page says otherwise, 404 for a user not found…).
    var status: HTTPResponse.Status = .ok
}

/// What a console route answers: a page, or a redirect after a form (with a notice the
/// next page shows once).
enum ConsoleAnswer: Sendable {
    case page(ConsolePage)
    case redirect(to: String, notice: String?)
}

/// One request to a console route, once its operator is known (and, for a form, its CSRF
/// token and origin checked).
struct ConsoleRequest: Sendable {
    /// The HTTP request.
    var request: Request
    /// Who is acting.
    var actor: OperatorActor
    /// The route's path parameters, percent-decoded.
    var parameters: [String: String]
    /// The query's parameters.
    var query: [String: String]
    /// A form's fields (`application/x-www-form-urlencoded`); empty for a page.
    var form: [String: String]
    /// The CSRF token the page's forms must send back (a hidden `csrf` field).
    var csrf: String

    /// A path parameter.
    func parameter(_ name: String) throws -> String {
        guard let value = parameters[name] else { throw ServiceError.invalid("missing '\(name)'", field: name) }
        return value
    }

    /// A form's hidden CSRF field, for a page's forms.
    var csrfField: ConsoleHTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">" }
}

/// What the console's routes need of the operators' sessions, implemented by
/// ``ConsoleController``: who a request's operator is, whether a form may act, how a page
/// is laid out.
protocol ConsoleGate: Sendable {
    /// The operator of `request`'s console session and the session's CSRF token; `nil`
    /// without a live one (no cookie, expired, signed out, the operator disabled).
    func session(_ request: Request) async throws -> (actor: OperatorActor, csrf: String)?

    /// Where a request without a session goes: the sign-in page, coming back to the page
    /// asked for.
    func signIn(_ request: Request) -> Response

    /// Checks that `actor`'s role allows `permission`, recording `action` (for `user`) in
    /// the audit log when given.
    ///
    /// - Throws: `ServiceError` forbidden for a role that does not allow it (the denial is
    ///   recorded).
    func authorize(
        _ actor: OperatorActor, _ permission: OperatorPermission, action: String?, user: String?
    ) async throws

    /// A form's fields, once its CSRF token (equal to the session's `csrf`) and its
    /// `Origin` (or `Referer`) are checked.
    ///
    /// - Throws: `ServiceError` forbidden when either is missing or wrong, too large for a
    ///   body past the console's bound.
    func formFields(_ request: Request, csrf: String) async throws -> [String: String]

    /// A page in the console's layout, its navigation showing what `actor` may open.
    func render(
        _ page: ConsolePage, section: ConsoleSection, actor: OperatorActor, csrf: String, notice: String?
    )
        -> Response

    /// A refusal as the console shows it (a page in the layout with the reason).
    func refusal(_ error: ServiceError, section: ConsoleSection, actor: OperatorActor, csrf: String) -> Response
}

/// Registers the console's routes, each behind the operator's session and a permission:
/// pages (`GET`) and forms (`POST`, CSRF-checked and audited).
struct ConsoleRoutes<Context: WebRequestContext> {
    /// The `/console` group: its middleware checks the host and sets the security headers.
    let router: RouterGroup<Context>
    let gate: any ConsoleGate
    /// The sections whose page is registered (`page("<section>", …)`): the navigation
    /// links only to those.
    let sections: ConsoleSections

    /// A page at `/console/<path>` (`users/:user`), for operators whose role allows
    /// `permission`; with an `action`, opening it is recorded in the audit log (for the
    /// path's `user` parameter, if any).
    func page(
        _ path: String, _ permission: OperatorPermission, section: ConsoleSection, action: String? = nil,
        _ handler: @escaping @Sendable (ConsoleRequest) async throws -> ConsoleAnswer
    ) {
        let names = Self.parameterNames(path)
        let gate = gate
        if let section = ConsoleSection(rawValue: path) { sections.insert(section) }
        router.get(RouterPath(path)) { request, context in
            let parameters = try Self.parameters(names, context)
            guard let (actor, csrf) = try await gate.session(request) else { return gate.signIn(request) }
            let query = Self.query(request)
            let console = ConsoleRequest(
                request: request, actor: actor, parameters: parameters, query: query, form: [:], csrf: csrf)
            return try await Self.answer(gate, section, console, notice: query["notice"]) {
                try await gate.authorize(actor, permission, action: action, user: parameters["user"])
                return try await handler(console)
            }
        }
    }

    /// A form's target at `/console/<path>`, for operators whose role allows `permission`;
    /// its CSRF token and origin are checked and `action` is recorded in the audit log (for
    /// the path's or the form's `user`).
    func form(
        _ path: String, _ permission: OperatorPermission, section: ConsoleSection, action: String,
        _ handler: @escaping @Sendable (ConsoleRequest) async throws -> ConsoleAnswer
    ) {
        let names = Self.parameterNames(path)
        let gate = gate
        router.post(RouterPath(path)) { request, context in
            let parameters = try Self.parameters(names, context)
            guard let (actor, csrf) = try await gate.session(request) else { return gate.signIn(request) }
            var console = ConsoleRequest(
                request: request, actor: actor, parameters: parameters, query: Self.query(request), form: [:],
                csrf: csrf)
            return try await Self.answer(gate, section, console, notice: nil) {
                // A forged form is refused before anything, the audit log included, sees it.
                console.form = try await gate.formFields(request, csrf: csrf)
                try await gate.authorize(
                    actor, permission, action: action, user: parameters["user"] ?? console.form["user"])
                return try await handler(console)
            }
        }
    }

    private static func answer(
        _ gate: any ConsoleGate, _ section: ConsoleSection, _ console: ConsoleRequest, notice: String?,
        _ body: () async throws -> ConsoleAnswer
    ) async throws -> Response {
        do {
            switch try await body() {
            case .page(let page):
                return gate.render(page, section: section, actor: console.actor, csrf: console.csrf, notice: notice)
            case .redirect(let target, let notice):
                var location = target
                if let notice {
                    let encoded =
                        notice.addingPercentEncoding(
                            withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))
                        ?? ""
                    location += (target.contains("?") ? "&" : "?") + "notice=" + encoded
                }
                return Response(status: .seeOther, headers: [.location: location])
            }
        } catch let error as ServiceError {
            return gate.refusal(error, section: section, actor: console.actor, csrf: console.csrf)
        }
    }

    private static func parameterNames(_ path: String) -> [String] {
        path.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    private static func parameters(_ names: [String], _ context: Context) throws -> [String: String] {
        var values: [String: String] = [:]
        for name in names { values[name] = try context.parameter(name) }
        return values
    }

    private static func query(_ request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { values[String(key)] = String(value) }
        return values
    }
}

/// The sections that have a page, filled in as the routes are registered (once, at start).
final class ConsoleSections: Sendable {
    private let registered = Mutex<Set<ConsoleSection>>([])

    func insert(_ section: ConsoleSection) { registered.withLock { _ = $0.insert(section) } }

    /// The registered sections `role` may open, in the navigation's order.
    func shown(to role: OperatorRole) -> [ConsoleSection] {
        let registered = registered.withLock { $0 }
        return ConsoleSection.allCases.filter { registered.contains($0) && role.allows($0.permission) }
    }
}
