import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// An operator signed in to the console through its sign-in form, for route tests of the
/// console's pages: the session cookie, the CSRF token its forms send back, and requests
/// that carry both (and the console's own `Origin`).
///
/// ```swift
/// try await ServerHarness.with(backend: backend) { harness, client in
///     let support = try await ConsoleSession.signIn(.support, harness: harness, client: client)
///     let page = try await support.get("/console/users?q=ada%40example.com")
///     let granted = try await support.post("/console/users/\(id)/grants", ["freezes": "1", "reason": "outage"])
/// }
/// ```
struct ConsoleSession: Sendable {
    /// The client the requests go through.
    let client: any TestClientProtocol
    /// The operator signed in.
    let actor: OperatorActor
    /// Their password.
    let password: String
    /// `momentum_console=<token>`, for a `Cookie` header.
    let cookie: String
    /// The session's CSRF token (the hidden `csrf` field of its forms).
    let csrf: String

    /// The origin a route test's requests come from (the router test client's host).
    static let origin = "http://localhost"
    /// The content type of a form.
    static let formType: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// The first owner's email, when ``signIn(_:harness:client:)`` had to create one.
    static let ownerEmail = "owner@example.com"
    /// Every operator's password here.
    static let password = "correct horse battery"

    /// Adds an operator of `role` (added by the first owner, who is bootstrapped as
    /// ``ownerEmail`` if there is none yet) and signs them in through the console's form.
    ///
    /// - Parameters:
    ///   - role: The operator's role.
    ///   - email: Their email; by default `<role>-<random>@example.com`.
    static func signIn(
        _ role: OperatorRole, email: String? = nil, harness: ServerHarness, client: any TestClientProtocol
    ) async throws -> ConsoleSession {
        let added = try await add(role, email: email, harness: harness)
        return try await signIn(added, password: password, client: client)
    }

    /// Adds an operator of `role` with ``password``, added by the first owner (who is
    /// bootstrapped as ``ownerEmail`` if there is none yet).
    static func add(_ role: OperatorRole, email: String? = nil, harness: ServerHarness) async throws -> OperatorActor {
        let operators = harness.state.services.operators
        let owner = try await firstOwner(operators)
        let email = email ?? "\(role.rawValue)-\(Tokens.id("").prefix(8))@example.com"
        return try await operators.add(
            email: email, name: role.rawValue.capitalized, role: role, password: password, by: owner
        ).actor
    }

    /// An enabled owner: the first one there is, or one bootstrapped as ``ownerEmail``.
    static func firstOwner(_ operators: Operators) async throws -> OperatorActor {
        if let owner = try await operators.list().first(where: { $0.role == .owner && !$0.disabled }) {
            return owner.actor
        }
        return try await operators.bootstrapOwner(email: ownerEmail, name: "Owner", password: password).actor
    }

    /// Signs an existing operator in through the console's form (its page first, for the
    /// form's token cookie), and reads the session's CSRF token from a page's form.
    static func signIn(
        _ actor: OperatorActor, password: String, client: any TestClientProtocol
    ) async throws -> ConsoleSession {
        let (formCookie, formToken) = try await signInForm(client)
        var headers = formType
        headers[.cookie] = formCookie
        headers[.origin] = origin
        let response = try await client.call(
            .post, "/console/sign-in", headers: headers,
            body: encode(["email": actor.email, "password": password, "csrf": formToken]))
        #expect(response.status == .seeOther, "\(response.text)")
        let cookie = try #require(Self.cookie(ConsoleController<MomentumContext>.sessionCookie, in: response))
        // Every page's layout has the sign-out form, which carries the session's token.
        let page = try await client.call(.get, "/console/operators", headers: [.cookie: cookie])
        let csrf = try #require(Self.csrf(in: page.text), "\(page.status) \(page.text)")
        return ConsoleSession(client: client, actor: actor, password: password, cookie: cookie, csrf: csrf)
    }

    /// A page, with the session's cookie.
    func get(_ path: String, headers: HTTPFields = [:]) async throws -> JSONResponse {
        var headers = headers
        headers[.cookie] = cookie
        return try await client.call(.get, path, headers: headers)
    }

    /// A form posted from the console's own origin with the session's cookie and CSRF token.
    ///
    /// - Parameters:
    ///   - fields: The form's fields (the `csrf` field is added unless given).
    ///   - origin: The `Origin` header; `nil` sends none.
    func post(
        _ path: String, _ fields: [String: String] = [:], origin: String? = ConsoleSession.origin,
        headers: HTTPFields = [:]
    ) async throws -> JSONResponse {
        var fields = fields
        if fields["csrf"] == nil { fields["csrf"] = csrf }
        var all = headers
        all[.contentType] = "application/x-www-form-urlencoded"
        all[.cookie] = cookie
        if let origin { all[.origin] = origin }
        return try await client.call(.post, path, headers: all, body: Self.encode(fields))
    }

    /// The sign-in form's cookie (`name=value`) and the token its hidden field holds.
    static func signInForm(_ client: any TestClientProtocol) async throws -> (cookie: String, token: String) {
        let page = try await client.call(.get, "/console/sign-in")
        #expect(page.status == .ok, "\(page.text)")
        let cookie = try #require(Self.cookie(ConsoleController<MomentumContext>.signInCookie, in: page))
        let token = try #require(Self.csrf(in: page.text))
        return (cookie, token)
    }

    /// `name=value` of the cookie a response sets.
    static func cookie(_ name: String, in response: JSONResponse) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("\(name)=") }.map { String($0.prefix { $0 != ";" }) }
    }

    /// The value of the first hidden `csrf` field of a page.
    static func csrf(in html: String) -> String? {
        guard let start = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Fields as an `application/x-www-form-urlencoded` body.
    static func encode(_ fields: [String: String]) -> String {
        let allowed = CharacterSet.alphanumerics.union(.init(charactersIn: "-._~"))
        return fields.sorted { $0.key < $1.key }.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }
}
