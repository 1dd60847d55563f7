import Hummingbird
import MomentumServices

/// What the web app needs of a request's context: the client's address and the path's
/// parameters. The HTTP layer's context (`MomentumServer`'s `MomentumContext`) is one.
public protocol WebRequestContext: RequestContext {
    /// The client's address (behind trusted proxies, the address they forwarded): what
    /// sign-in throttling counts per address.
    var addressKey: String { get }

    /// A parameter of the route's path, percent-decoded.
    ///
    /// - Throws: When the route has no such parameter.
    func parameter(_ name: String) throws -> String
}

/// Who a browser's session cookie belongs to: the HTTP layer's authentication, which the
/// JSON API's bearer tokens go through too.
public protocol WebSessionAuthority: Sendable {
    /// The caller a session token names, or `nil` when it names none (unknown, expired,
    /// revoked).
    func caller(token: String) async throws -> Caller?

    /// Whether the caller's session still exists (a cached session may have ended on
    /// another instance a moment ago).
    func isLive(_ caller: Caller) async throws -> Bool
}
