import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Connection: close` with `Connection: close`, and makes the server close the
/// connection for any spelling of it.
///
/// Hummingbird ends a connection after the answer only when the request's header is
/// exactly `close`, and does not say so in the answer. Here the header's tokens are read
/// case-insensitively (`Connection: Keep-Alive, Close` counts), the request's header is
/// set to `close` so that Hummingbird ends the connection, and the matching answer gets
/// `Connection: close` (RFC 9112 §9.6). Answers are written in request order, so a queue
/// pairs them with their requests.
final class ConnectionCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var closing: [Bool] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let close = Self.asksToClose(head.headerFields)
        closing.append(close)
        if close {
            head.headerFields[.connection] = "close"
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.kind != .informational else {
            context.write(data, promise: promise)
            return
        }
        let close = closing.isEmpty ? false : closing.removeFirst()
        if close, head.headerFields[.connection]?.lowercased() != "close" {
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        } else {
            context.write(data, promise: promise)
        }
    }

    /// Whether a request's `Connection` header lists `close`.
    static func asksToClose(_ fields: HTTPFields) -> Bool {
        fields[values: .connection].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
        }
    }
}
