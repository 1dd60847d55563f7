import Foundation
import Hummingbird
import MomentumAPI
import MomentumServices
import Synchronization

// Request helpers several controllers share: query parameters and convenience-route bodies.

extension Request {
    /// A boolean query parameter: `true` or `1`, `false` or `0`.
    func boolean(_ name: String, default value: Bool) throws -> Bool {
        guard let text = uri.queryParameters[name[...]] else { return value }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.invalid("must be true or false", field: name)
        }
    }

    /// An integer query parameter within a range.
    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = uri.queryParameters[name[...]] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.invalid(
                "must be an integer from \(range.lowerBound) to \(range.upperBound == .max ? "…" : String(range.upperBound))",
                field: name)
        }
        return number
    }

    /// A convenience route's body, decoded once for its route.
    ///
    /// An empty body (a plain check-in) decodes to the same request every time for the
    /// same route, so it is decoded once per route and remembered (``EmptyBodies``):
    /// `JSONDecoder` on `{}` was 2–3 % of an everyday check-in's core.
    ///
    /// - Parameters:
    ///   - route: The convenience route the body is for (the habit and kind of event).
    ///   - limit: The most bytes the body may hold (`ServerConfiguration.maxBodyBytes`).
    ///   - emptyIsObject: Whether an empty body is read as `{}`.
    func eventRequest(
        for route: EventRequest.Route, limit: Int, emptyIsObject: Bool = false
    ) async throws -> EventRequest {
        let buffer = try await JSONIO.collect(self, limit: limit)
        let empty = emptyIsObject && buffer.readableBytes == 0
        if empty, let known = EmptyBodies.shared.request(for: route) { return known }
        let decoded = try JSONIO.decode(
            EventRequest.self, body: buffer, of: self, userInfo: [EventRequest.routeKey: route],
            emptyIsObject: emptyIsObject)
        if empty { EmptyBodies.shared.remember(decoded, for: route) }
        return decoded
    }
}

/// The request an empty body decodes to, by route: a pure function of the route (the
/// decoder is given nothing else), so remembering it changes no answer. A body that is
/// refused is not remembered and is refused again, with the same words.
final class EmptyBodies: Sendable {
    static let shared = EmptyBodies()

    /// The most routes remembered (one per habit and kind of convenience route); beyond
    /// it the memory starts over.
    static let maximumRoutes = 4_096

    private let requests = Mutex<[EventRequest.Route: EventRequest]>([:])

    func request(for route: EventRequest.Route) -> EventRequest? {
        requests.withLock { $0[route] }
    }

    func remember(_ request: EventRequest, for route: EventRequest.Route) {
        requests.withLock { requests in
            if requests.count >= Self.maximumRoutes { requests.removeAll() }
            requests[route] = request
        }
    }
}

/// Who may use the operator's routes (``AdminController``, ``OperatorController``, the
/// webhooks of ``PushController``, ``ServerKeyController``): an operator's session
/// (`Authorization: Bearer mop_…`) whose role allows what the route does, or the static
/// admin token, which only creates the first owner.
struct AdminGate: Sendable {
    /// The admin token (``ServerConfiguration/adminToken``).
    let token: String?
    /// The operators, their sessions, roles and audit log.
    let operators: Operators

    /// Checks that the request's operator may do what `permission` names, and says who
    /// they are; `action` and `user` are what the audit log records (a refusal is always
    /// recorded; an allowed request when `action` is given).
    ///
    /// Sessions are read from the store on every request, so an operator disabled through
    /// any instance is refused at once by all.
    ///
    /// - Throws: 404 when neither an admin token is configured nor an operator exists (the
    ///   endpoints do not exist then), 401 for a missing or unknown token, 403 for a role
    ///   without the permission, or the admin token for anything but creating the first owner.
    func authorize(
        _ request: Request, _ permission: OperatorPermission, action: String?, user: String? = nil,
        detail: String = ""
    ) async throws -> OperatorActor {
        let actor = try await actor(request)
        try await operators.authorize(actor, permission, action: action, user: user, detail: detail)
        return actor
    }

    /// Who the request's bearer token is: an operator with a live session, or the admin token.
    ///
    /// - Throws: 404 when the admin routes do not exist, 401 for a missing or unknown token.
    func actor(_ request: Request) async throws -> OperatorActor {
        let presented = Self.bearer(request)
        if presented.hasPrefix(Operators.tokenPrefix), let session = try await operators.session(token: presented) {
            return session.actor
        }
        if isAdminToken(presented) {
            return OperatorActor(id: OperatorActor.adminTokenID, email: "", role: .owner)
        }
        guard try await routesExist() else { throw APIError.notFound("endpoint") }
        throw APIError(
            .unauthorized, "unauthorized", "sign in as an operator and send 'Authorization: Bearer <token>'")
    }

    /// Whether the request shows the static admin token.
    func showsAdminToken(_ request: Request) -> Bool { isAdminToken(Self.bearer(request)) }

    /// Whether the admin routes exist: an admin token is configured, or an operator exists.
    func routesExist() async throws -> Bool {
        if let token, !token.isEmpty { return true }
        return try await !operators.list().isEmpty
    }

    /// The request's bearer token, or an empty one.
    static func bearer(_ request: Request) -> String {
        request.headers[.authorization].flatMap(AuthMiddleware.bearerToken) ?? ""
    }

    /// Whether `presented` is the admin token, compared in constant time in its bytes.
    private func isAdminToken(_ presented: String) -> Bool {
        guard let expected = token, !expected.isEmpty else { return false }
        let x = Array(presented.utf8)
        let y = Array(expected.utf8)
        return x.count == y.count && zip(x, y).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0
    }
}
