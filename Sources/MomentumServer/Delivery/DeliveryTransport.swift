import AsyncHTTPClient
import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore
import NIOSSL
import Synchronization

/// The HTTP clients of the senders: one per set of trusted roots, made once and kept for
/// the life of the process (as AsyncHTTPClient's own shared client is), so that nothing has
/// to shut them down. HTTP/2 is negotiated where the service offers it (APNs requires it).
enum DeliveryHTTP {
    private static let clients = Mutex<[String: HTTPClient]>([:])

    /// How long a client waits for a connection (TCP and TLS) and then for each read.
    struct Limits: Hashable, Sendable {
        var connect: Duration
        var read: Duration

        /// A delivery's: 5 s to connect, 10 s for each read (a send's whole ``deadline`` is
        /// longer).
        static let delivery = Limits(connect: .seconds(5), read: .seconds(10))

        /// A fetch bounded as a whole by `timeout` (an identity provider's keys,
        /// `identityProviderTimeout`): neither the connection nor a read gives up before it.
        static func within(_ timeout: Duration) -> Limits { Limits(connect: timeout, read: timeout) }

        var key: String { "\(connect)/\(read)" }
    }

    /// The client that trusts the system's roots and, when given, the roots in a PEM
    /// bundle (a private CA; the tests' loopback receivers).
    static func client(extraRootsPEM: String?, limits: Limits = .delivery) throws -> HTTPClient {
        try clients.withLock { clients in
            let key = "\(extraRootsPEM ?? "")\u{0}\(limits.key)"
            if let client = clients[key] { return client }
            let client = try make(extraRootsPEM: extraRootsPEM, dnsOverride: [:], limits: limits)
            clients[key] = client
            return client
        }
    }

    /// The clients that connect to one checked address for one host name, by
    /// `<roots>\0<host>\0<address>\0<limits>`, the least recently made first.
    private static let pinned = Mutex<(clients: [String: HTTPClient], order: [String])>(([:], []))

    /// The most such clients kept; the oldest is shut down when one more is made.
    static let maximumPinned = 64

    /// A client that connects to `address` whatever `host` resolves to when it connects,
    /// while it still sends `host` as the request's host and TLS server name and checks the
    /// certificate against it: a webhook's post goes to the address
    /// ``WebhookAddresses`` checked, not to one a second resolution might give.
    static func client(
        extraRootsPEM: String?, connecting host: String, to address: String, limits: Limits = .delivery
    ) throws -> HTTPClient {
        let key = "\(extraRootsPEM ?? "")\u{0}\(host)\u{0}\(address)\u{0}\(limits.key)"
        let (client, evicted) = try pinned.withLock { pinned -> (HTTPClient, HTTPClient?) in
            if let client = pinned.clients[key] { return (client, nil) }
            let client = try make(extraRootsPEM: extraRootsPEM, dnsOverride: [host: address], limits: limits)
            var evicted: HTTPClient?
            if pinned.order.count >= maximumPinned {
                let oldest = pinned.order.removeFirst()
                evicted = pinned.clients.removeValue(forKey: oldest)
            }
            pinned.clients[key] = client
            pinned.order.append(key)
            return (client, evicted)
        }
        if let evicted {
            // After the longest a send (``deadline``) or a key set's fetch
            // (`identityProviderTimeout`, at most 60 s) may take, so none of it is cut short.
            Task {
                try? await Task.sleep(for: .seconds(90))
                try? await evicted.shutdown()
            }
        }
        return client
    }

    private static func make(
        extraRootsPEM: String?, dnsOverride: [String: String], limits: Limits
    ) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let extraRootsPEM {
            tls.additionalTrustRoots = [
                .certificates(try NIOSSLCertificate.fromPEMBytes(Array(extraRootsPEM.utf8)))
            ]
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: .init(limits.connect), read: .init(limits.read)))
        configuration.httpVersion = .automatic
        configuration.dnsOverride = dnsOverride
        // The client span is ``execute(_:client:)``'s (``OutgoingSpans``), under whichever
        // tracer is bootstrapped when a request leaves, not the one when the client was made.
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The longest a send may take in all.
    static let deadline: TimeAmount = .seconds(15)

    /// The most bytes of an answer read (its reason, for the log).
    static let maximumAnswer = 16 << 10

    /// Sends a request and reads the status, the headers and the start of the answer;
    /// network failures are `nil` with what happened. The request is a client span of the
    /// work that sends it, or of `origin` (the request that queued it), and carries its
    /// `traceparent` (``OutgoingSpans``).
    static func execute(
        _ request: HTTPClientRequest, client: HTTPClient, origin: TraceOrigin? = nil
    ) async -> (response: HTTPClientResponse?, body: String, error: String?) {
        await OutgoingSpans.send(request, origin: origin) { request in await executeUntraced(request, client: client) }
    }

    private static func executeUntraced(
        _ request: HTTPClientRequest, client: HTTPClient
    ) async -> (response: HTTPClientResponse?, body: String, error: String?) {
        do {
            let response = try await client.execute(request, timeout: deadline)
            var body = ByteBuffer()
            for try await var chunk in response.body {
                if body.readableBytes < maximumAnswer { body.writeBuffer(&chunk) }
            }
            return (response, String(buffer: body).prefix(500).description, nil)
        } catch {
            return (nil, "", String(describing: error).prefix(300).description)
        }
    }

    /// What a failed send met, in a few words ("connection refused", "timed out"): what a
    /// webhook's status shows, never an error's full text.
    static func status(of error: String) -> String {
        let text = error.lowercased()
        if text.contains("refused") || text.contains("errno: 111") { return "connection refused" }
        if text.contains("timeout") || text.contains("timed out") || text.contains("deadline") { return "timed out" }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") || text.contains("handshake") {
            return "TLS failed"
        }
        if text.contains("unreachable") { return "unreachable" }
        if text.contains("reset") || text.contains("closed") || text.contains("eof") { return "connection closed" }
        if text.contains("dns") || text.contains("resolve") || text.contains("lookup") { return "does not resolve" }
        return "could not connect"
    }

    /// A payload as JSON: dates in ISO 8601, keys sorted (the same bytes for the same
    /// notification, so that a signature or a receiver's duplicate check is stable).
    static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    /// `Retry-After` in seconds, when the answer has one.
    static func retryAfter(_ response: HTTPClientResponse) -> TimeInterval? {
        response.headers.first(name: "retry-after").flatMap { Int($0) }.map { TimeInterval(min(max($0, 1), 86_400)) }
    }
}
