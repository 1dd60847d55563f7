import Foundation
import Hummingbird
import Logging
import MomentumServices
import MomentumWeb
import NIOCore
import Synchronization

/// The request context of every Momentum route: the caller once authenticated, the
/// client's address and the request id.
public struct MomentumContext: RequestContext, RemoteAddressRequestContext, WebRequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client's address, when the connection has one.
    public let remoteAddress: SocketAddress?
    /// The request's connection (an event stream watches for its end).
    let channel: any Channel
    /// The signed-in caller, set by the authentication middleware.
    public var caller: Caller?
    /// The app's backend, by the server key it showed (set by `ServerKeyMiddleware`).
    public var serverKey: ServerKeyCaller?
    /// The request id, echoed in `X-Request-ID` and every log line.
    public var requestID: String = ""
    /// What middleware inside the request log learns for its line (each middleware passes
    /// a copy of the context on; the copies share this).
    let logged = RequestLogFacts()

    /// Creates the context of a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// The client's address as a trusted proxy forwarded it, when one did.
    var clientAddress: String?

    /// The address used for per-address limits: the client's, else the socket peer's.
    public var addressKey: String { clientAddress ?? remoteAddress?.ipAddress ?? "local" }

    /// A path parameter, percent-decoded (ids may contain `/` or `:`).
    public func parameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        // Most parameters (ids) hold no escapes; Foundation's decoding costs a bridge.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        return raw.removingPercentEncoding ?? raw
    }

    /// The signed-in caller; throws 401 when the route ran without authentication.
    func requireCaller() throws -> Caller {
        guard let caller else { throw APIError.unauthorized }
        return caller
    }
}

/// Facts about a request that are learned after the request log's middleware has passed
/// its context on (who the caller is), shared by every copy of that context.
final class RequestLogFacts: Sendable {
    private let caller = Mutex<String?>(nil)

    /// The authenticated user, once known.
    var user: String? {
        get { caller.withLock { $0 } }
        set { caller.withLock { $0 = newValue } }
    }
}
