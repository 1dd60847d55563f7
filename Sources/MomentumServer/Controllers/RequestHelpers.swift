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

/// The admin token's check, for the operator's routes (``AdminController``, the webhooks
/// of ``PushController``).
struct AdminGate: Sendable {
    /// The admin token (``ServerConfiguration/adminToken``); with none, the admin routes
    /// do not exist.
    let token: String?

    /// Checks the admin token (`Authorization: Bearer <token>`, the scheme in any case).
    ///
    /// - Throws: 404 when no admin token is configured (the endpoints do not exist then),
    ///   401 for a missing or wrong token.
    func require(_ request: Request) throws {
        guard let expected = token, !expected.isEmpty else {
            throw APIError.notFound("endpoint")
        }
        let token = request.headers[.authorization].flatMap(AuthMiddleware.bearerToken) ?? ""
        let x = Array(token.utf8)
        let y = Array(expected.utf8)
        // Constant time in the token's bytes, so that timing tells nothing of the token.
        guard x.count == y.count, zip(x, y).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else {
            throw APIError(.unauthorized, "unauthorized", "send the admin token as 'Authorization: Bearer <token>'")
        }
    }

    /// Checks that the request's operator may do what `permission` names, and says who
    /// they are; `action` and `user` are what the audit log records.
    func authorize(
        _ request: Request, _ permission: OperatorPermission, action: String, user: String? = nil
    ) async throws -> OperatorActor {
        try require(request)
        return OperatorActor(id: OperatorActor.adminTokenID, email: "", role: .owner)
    }
}
