import Foundation
import Hummingbird
import MomentumStore

/// Authenticates `Authorization: Bearer <token>` against the user's device sessions,
/// then applies the per-user rate limit.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    let server: ServerState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthorized
        }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard let user = Tokens.user(of: token) else { throw APIError.unauthorized }
        let hash = Tokens.hash(token)
        let now = server.now()
        guard let session = try await server.store.session(of: user, tokenHash: hash),
            session.expiresAt.map({ $0 > now }) ?? true,
            now.timeIntervalSince(session.lastSeenAt) < Double(server.configuration.sessionLifetime.components.seconds)
        else { throw APIError.unauthorized }
        // Seen-at is refreshed at most every five minutes, so reads do not write.
        if now.timeIntervalSince(session.lastSeenAt) > 300 {
            try await server.store.touchSession(of: user, tokenHash: hash, at: now)
        }
        try server.userLimiter.check(user, scope: "for this account")
        var context = context
        context.caller = Caller(user: user, tokenHash: hash, deviceName: session.deviceName)
        return try await next(request, context)
    }
}
