import AsyncHTTPClient
import Foundation
import MomentumCore
import MomentumStore
import NIOCore
import NIOSSL
import Synchronization

/// What a channel's service answered to one message.
enum TransportResult: Equatable, Sendable {
    /// Accepted.
    case delivered
    /// A failure that may pass (a timeout, a 5xx, a 429), and how long the service asked us
    /// to wait, if it did.
    case retry(String, after: TimeInterval?)
    /// The device is gone for good (Web Push 404/410, APNs 410 Unregistered): its target is
    /// removed.
    case gone(String)
    /// This message will never be accepted (too large, malformed): no retry.
    case rejected(String)
}

/// Sends one notification to one device or webhook.
protocol DeliveryTransport: Sendable {
    /// Sends a notification; never throws: every failure is a ``TransportResult``.
    func send(_ delivery: PendingDelivery, now: Date) async -> TransportResult
}

/// The HTTP clients of the senders: one per set of trusted roots, made once and kept for
/// the life of the process (as AsyncHTTPClient's own shared client is), so that nothing has
/// to shut them down. HTTP/2 is negotiated where the service offers it (APNs requires it).
enum DeliveryHTTP {
    private static let clients = Mutex<[String: HTTPClient]>([:])

    /// The client that trusts the system's roots and, when given, the roots in a PEM
    /// bundle (a private CA; the tests' loopback receivers).
    static func client(extraRootsPEM: String?) throws -> HTTPClient {
        try clients.withLock { clients in
            let key = extraRootsPEM ?? ""
            if let client = clients[key] { return client }
            var tls = TLSConfiguration.makeClientConfiguration()
            if let extraRootsPEM {
                tls.additionalTrustRoots = [
                    .certificates(try NIOSSLCertificate.fromPEMBytes(Array(extraRootsPEM.utf8)))
                ]
            }
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: tls, redirectConfiguration: .disallow,
                timeout: .init(connect: .seconds(5), read: .seconds(10)))
            configuration.httpVersion = .automatic
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[key] = client
            return client
        }
    }

    /// The longest a send may take in all.
    static let deadline: TimeAmount = .seconds(15)

    /// The most bytes of an answer read (its reason, for the log).
    static let maximumAnswer = 16 << 10

    /// Sends a request and reads the status, the headers and the start of the answer;
    /// network failures are `nil` with what happened.
    static func execute(
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
