import Foundation
import Hummingbird
import MomentumServices
import MomentumStore
import MomentumWeb

/// Authenticates `Authorization: Bearer <token>` (or the web app's session cookie) against
/// the user's device sessions, or, on the change stream only, a stream ticket
/// (`GET /v1/stream?ticket=`, for an `EventSource`, which cannot send a header); then
/// applies the per-user rate limit.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    /// Who a token signs in.
    let sessions: SessionAuthentication
    /// Whose stream a stream ticket opens.
    let streamTickets: StreamAdmission
    /// Requests per user per minute.
    let userLimit: any RequestLimit

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let token: String
        if request.headers[.authorization] == nil, request.uri.path == CORSPolicy.streamPath,
            let ticket = request.uri.queryParameters["ticket"]
        {
            let caller = try await streamTickets.admit(String(ticket))
            return try await handle(request, context: context, caller: caller, next: next)
        }
        if let header = request.headers[.authorization] {
            guard let bearer = Self.bearerToken(header) else { throw APIError.unauthorized }
            token = bearer
        } else if let cookie = request.cookies[WebSession.cookieName]?.value {
            // The web app's session cookie (HttpOnly, SameSite=Strict). A write through a
            // cookie must also carry the app's header, which a cross-site form cannot send.
            if ![.get, .head, .options].contains(request.method),
                request.headers[WebSession.clientHeader] != WebSession.clientHeaderValue
            {
                throw APIError(
                    .forbidden, "missing_client_header", "a browser write needs the X-Momentum-Client header")
            }
            token = cookie
        } else {
            throw APIError.unauthorized
        }
        let caller = try await sessions.authenticate(token: token)
        return try await handle(request, context: context, caller: caller, next: next)
    }

    /// Goes on as `caller`, within their rate limit.
    private func handle(
        _ request: Request, context: Context, caller: Caller, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let user = caller.user
        try userLimit.check(user, scope: "for this account")
        var context = context
        context.caller = caller
        context.logged.user = user
        do {
            return try await next(request, context)
        } catch let error where APIError.from(error).status == .notFound {
            // A session trusted from the cache may have ended on another instance a moment
            // ago, before the relay brought the news (deleting the account ends them all):
            // the route then finds no account. That is the session's end, not a missing
            // resource.
            try await sessions.confirm(caller)
            throw error
        }
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case,
    /// spaces around the token ignored), or `nil` for another scheme or an empty token.
    static func bearerToken(_ header: String) -> String? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, bytes[scheme.count] == 0x20 else { return nil }
        // ASCII letters only: setting bit 5 lowercases them, and no other byte maps onto one.
        for index in 0..<scheme.count where bytes[index] | 0x20 != scheme[index] { return nil }
        var start = scheme.count + 1
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
    }
}

extension ServerState: WebSessionAuthority {
    /// The caller a web session's token names, or `nil` when it names none.
    public func caller(token: String) async throws -> Caller? {
        do {
            return try await services.sessionAuthentication.authenticate(token: token)
        } catch let error as ServiceError where error.kind == .unauthenticated {
            return nil
        }
    }

    /// Whether the caller's session still exists.
    public func isLive(_ caller: Caller) async throws -> Bool {
        do {
            try await services.sessionAuthentication.confirm(caller)
            return true
        } catch let error as ServiceError where error.kind == .unauthenticated {
            return false
        }
    }
}
