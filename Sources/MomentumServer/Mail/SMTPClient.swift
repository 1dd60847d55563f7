import Foundation
import Logging
import MomentumServices
import MomentumStore
import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail through an SMTP server (RFC 5321): one connection per mail, `EHLO`,
/// `STARTTLS` (or TLS from the start), `AUTH PLAIN` or `AUTH LOGIN`, `MAIL FROM`,
/// `RCPT TO`, `DATA`, `QUIT`.
///
/// Every wait is bounded (``MailSettings/timeout``: the connection, then each reply). A
/// 5xx reply is a permanent failure; a 4xx reply, a refused or cut connection and a timeout
/// are transient (``MailSendError``), so the outbox tries again later.
struct SMTPClient: MailTransport {
    let server: SMTPServer
    let sender: MailAddress
    let timeout: Duration
    let tls: NIOSSLContext
    let clock: @Sendable () -> Date

    /// A client for the settings' server.
    ///
    /// - Throws: When the URL, the sender or the trust roots are wrong.
    init(settings: MailSettings, url: String, clock: @escaping @Sendable () -> Date) throws {
        server = try SMTPServer(url: url)
        sender = try MailAddress(parsing: settings.from)
        timeout = settings.timeout
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let pem = settings.trustRootsPEM {
            configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))]
        }
        tls = try NIOSSLContext(configuration: configuration)
        self.clock = clock
    }

    /// Sends one mail over a new connection.
    func send(_ mail: OutgoingMail) async throws {
        let message = try MailMessage(mail, from: sender, date: clock())
        let session = try await SMTPSession.open(server, tls: tls, timeout: timeout)
        do {
            try await session.deliver(message, server: server)
            await session.quit()
        } catch {
            await session.close()
            throw error
        }
    }
}

/// One connection to an SMTP server.
struct SMTPSession: Sendable {
    let channel: any Channel
    let reader: NIOLoopBound<SMTPReplyReader>
    let timeout: TimeAmount
    let tls: NIOSSLContext
    let host: String
    var secured: Bool

    /// Connects, with TLS from the start for `smtps`, and reads the greeting.
    static func open(_ server: SMTPServer, tls: NIOSSLContext, timeout: Duration) async throws -> SMTPSession {
        let amount = TimeAmount.nanoseconds(
            timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        let implicit = server.security == .implicitTLS
        let hostname = Self.serverName(server.host)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(amount)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if implicit {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: tls, serverHostname: hostname))
                        }
                        try channel.pipeline.syncOperations.addHandler(SMTPReplyReader())
                    }
                }
                .connect(host: server.host, port: server.port).get()
        } catch {
            throw MailSendError(permanent: false, "could not connect to the mail server: \(error)")
        }
        let reader = try await channel.eventLoop.submit {
            NIOLoopBound(
                try channel.pipeline.syncOperations.handler(type: SMTPReplyReader.self), eventLoop: channel.eventLoop)
        }.get()
        let session = SMTPSession(
            channel: channel, reader: reader, timeout: amount, tls: tls, host: server.host, secured: implicit)
        do {
            try await session.expect(220, to: "the greeting")
        } catch {
            await session.close()
            throw error
        }
        return session
    }

    /// The TLS server name for a host: none for an address (SNI takes names only).
    static func serverName(_ host: String) -> String? {
        host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
    }

    /// Greets, secures, signs in and hands the mail over.
    func deliver(_ message: MailMessage, server: SMTPServer) async throws {
        var session = self
        var extensions = try await session.hello()
        if !session.secured, server.security != .implicitTLS {
            if extensions.contains("STARTTLS") {
                try await session.startTLS()
                extensions = try await session.hello()
            } else if server.security == .startTLSRequired {
                throw MailSendError(
                    permanent: true, "the mail server does not offer STARTTLS; the password is not sent in clear")
            }
        }
        if let user = server.user {
            try await session.authenticate(user: user, password: server.password ?? "", extensions: extensions)
        }
        try await session.command("MAIL FROM:<\(message.sender.address)>", expect: 250)
        try await session.command("RCPT TO:<\(message.recipient)>", expect: 250, 251)
        try await session.command("DATA", expect: 354)
        try await session.write(message.data + "\r\n.\r\n")
        try await session.expect(250, to: "the mail")
    }

    /// `EHLO` (or `HELO` when refused): the extensions the server announces, upper-cased
    /// keywords with their parameters.
    private func hello() async throws -> Set<String> {
        try await write("EHLO \(Self.helloName)\r\n")
        let reply = try await reply()
        if reply.code == 250 {
            var extensions: Set<String> = []
            for line in reply.lines.dropFirst() {
                let words = line.uppercased().split(separator: " ")
                guard let keyword = words.first else { continue }
                extensions.insert(String(keyword))
                for parameter in words.dropFirst() { extensions.insert("\(keyword) \(parameter)") }
            }
            return extensions
        }
        try await command("HELO \(Self.helloName)", expect: 250)
        return []
    }

    /// The name this client greets with.
    static let helloName: String = {
        let name = ProcessInfo.processInfo.hostName
        return MailAddress.isPlain("x@" + name) && !name.isEmpty ? name : "localhost"
    }()

    /// `STARTTLS`, then the TLS handshake on the same connection.
    private mutating func startTLS() async throws {
        try await command("STARTTLS", expect: 220)
        let channel = channel
        let tls = tls
        let name = Self.serverName(host)
        let reader = reader
        try await channel.eventLoop.submit {
            reader.value.discardBuffered()
            try channel.pipeline.syncOperations.addHandler(
                NIOSSLClientHandler(context: tls, serverHostname: name), position: .first)
        }.get()
        secured = true
    }

    /// `AUTH PLAIN` when offered, else `AUTH LOGIN`.
    private func authenticate(user: String, password: String, extensions: Set<String>) async throws {
        if extensions.contains("AUTH PLAIN") || !extensions.contains("AUTH LOGIN") {
            let credentials = Data(("\u{0}" + user + "\u{0}" + password).utf8).base64EncodedString()
            try await command("AUTH PLAIN \(credentials)", expect: 235, hiding: true)
        } else {
            try await command("AUTH LOGIN", expect: 334)
            try await command(Data(user.utf8).base64EncodedString(), expect: 334, hiding: true)
            try await command(Data(password.utf8).base64EncodedString(), expect: 235, hiding: true)
        }
    }

    /// Sends a command and checks its reply's code.
    private func command(_ line: String, expect codes: Int..., hiding: Bool = false) async throws {
        try await write(line + "\r\n")
        let what = hiding ? "the credentials" : String(line.prefix(while: { $0 != " " && $0 != ":" }))
        try await check(try await reply(), codes, what)
    }

    /// Reads a reply and checks its code.
    private func expect(_ code: Int, to what: String) async throws {
        try await check(try await reply(), [code], what)
    }

    private func check(_ reply: SMTPReply, _ codes: [Int], _ what: String) async throws {
        guard !codes.contains(reply.code) else { return }
        throw MailSendError(
            permanent: (500...599).contains(reply.code), "the mail server answered \(what) with \(reply.summary)")
    }

    private func write(_ text: String) async throws {
        do {
            try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
        } catch {
            throw MailSendError(permanent: false, "could not write to the mail server: \(error)")
        }
    }

    /// The next reply, within the timeout.
    private func reply() async throws -> SMTPReply {
        let reader = reader
        let timeout = timeout
        let loop = channel.eventLoop
        let channel = channel
        return try await loop.flatSubmit {
            let future = reader.value.next(on: loop)
            let timer = loop.scheduleTask(in: timeout) {
                reader.value.timeOut()
                channel.close(promise: nil)
            }
            future.whenComplete { _ in timer.cancel() }
            return future
        }.get()
    }

    /// `QUIT`, then closes (a failure here changes nothing: the mail was accepted).
    func quit() async {
        try? await write("QUIT\r\n")
        _ = try? await reply()
        await close()
    }

    /// Closes the connection.
    func close() async {
        try? await channel.close().get()
    }
}
