import MomentumServices
import NIOCore

/// One reply of an SMTP server: its code and its lines' text.
struct SMTPReply: Sendable, Hashable {
    /// The three-digit code.
    let code: Int
    /// The text of each line, without the code.
    let lines: [String]

    /// The reply as the log shows it (the first line).
    var summary: String { "\(code) \(lines.first ?? "")".prefix(200).description }
}

/// Reads an SMTP server's replies off a connection: lines, joined into multi-line replies
/// (`250-…` continues, `250 …` ends), handed to whoever waits for the next one.
///
/// Used on its channel's event loop only.
final class SMTPReplyReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private var bytes: [UInt8] = []
    private var lines: [String] = []
    private var replies: [SMTPReply] = []
    private var waiter: EventLoopPromise<SMTPReply>?
    private var failure: MailSendError?

    /// The longest a reply may grow, all lines together.
    static let maximumBytes = 64 * 1024

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        while failure == nil, let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            var line = bytes[..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            bytes.removeSubrange(...end)
            take(Array(line))
        }
        if bytes.count + lines.reduce(0, { $0 + $1.utf8.count }) > Self.maximumBytes {
            fail(MailSendError(permanent: false, "the mail server's reply is too long"))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(MailSendError(permanent: false, "the mail server closed the connection"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(MailSendError(permanent: false, "connection to the mail server failed: \(error)"))
        context.close(promise: nil)
    }

    /// The next reply: one already read, or the next to arrive.
    func next(on loop: any EventLoop) -> EventLoopFuture<SMTPReply> {
        if !replies.isEmpty { return loop.makeSucceededFuture(replies.removeFirst()) }
        if let failure { return loop.makeFailedFuture(failure) }
        let promise = loop.makePromise(of: SMTPReply.self)
        waiter = promise
        return promise.futureResult
    }

    /// Gives up waiting for a reply.
    func timeOut() {
        fail(MailSendError(permanent: false, "the mail server did not answer in time"))
    }

    /// Forgets what was read: after `STARTTLS`, anything the server sent before the
    /// handshake is not to be trusted (RFC 3207 §4.2).
    func discardBuffered() {
        bytes = []
        lines = []
        replies = []
    }

    private func take(_ line: [UInt8]) {
        guard line.count >= 3, line[0...2].allSatisfy({ (48...57).contains($0) }),
            line.count == 3 || line[3] == UInt8(ascii: " ") || line[3] == UInt8(ascii: "-")
        else {
            fail(MailSendError(permanent: false, "the mail server's reply is not SMTP"))
            return
        }
        let code = Int(String(decoding: line[0...2], as: UTF8.self)) ?? 0
        lines.append(line.count > 4 ? String(decoding: line[4...], as: UTF8.self) : "")
        if line.count > 3, line[3] == UInt8(ascii: "-") { return }
        let reply = SMTPReply(code: code, lines: lines)
        lines = []
        if let waiter {
            self.waiter = nil
            waiter.succeed(reply)
        } else {
            replies.append(reply)
        }
    }

    private func fail(_ error: MailSendError) {
        if failure == nil { failure = error }
        if let waiter {
            self.waiter = nil
            waiter.fail(error)
        }
    }
}
