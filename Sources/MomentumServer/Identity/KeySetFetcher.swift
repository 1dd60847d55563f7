import AsyncHTTPClient
import Foundation
import MomentumServices
import NIOCore

/// Fetches an identity provider's key set (JWKS) within bounds: HTTPS only, every address
/// (the first and each redirect's) vetted as a webhook's is (``WebhookAddresses``: no
/// loopback, private or link-local address unless allowed) and connected to as vetted, at
/// most ``maximumRedirects`` redirects, the whole fetch within a timeout, and an answer
/// larger than the cap refused without being read in full.
struct KeySetFetcher: Sendable {
    /// A fetched key set's bytes, and how long its answer says it may be kept.
    struct Fetched: Sendable {
        var body: Data
        var maxAge: Int?
    }

    /// Why a fetch failed, for the log (the client only learns the provider is unavailable).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let maximumRedirects = 3

    let addresses: WebhookAddresses
    let extraRootsPEM: String?
    let timeout: Duration
    let maximumBytes: Int
    /// Whether `http://` is fetched too (tests only).
    var allowsPlainHTTP = false

    /// The key set at `url`, following redirects to vetted addresses.
    func fetch(_ url: String) async throws(Failure) -> Fetched {
        let timeout = timeout
        do {
            return try await withThrowingTaskGroup(of: Fetched?.self) { group in
                group.addTask { try await self.follow(url) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let fetched = first else {
                    throw Failure(description: "no answer within \(timeout)")
                }
                return fetched
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: DeliveryHTTP.status(of: String(describing: error)))
        }
    }

    private func follow(_ start: String) async throws -> Fetched {
        var current = start
        for _ in 0...Self.maximumRedirects {
            guard let url = URL(string: current),
                url.scheme?.lowercased() == "https" || (allowsPlainHTTP && url.scheme?.lowercased() == "http")
            else {
                throw Failure(description: "\(current) is not an https:// URL")
            }
            let destination: WebhookAddresses.Destination
            switch await addresses.vet(url, fresh: false) {
            case .success(let vetted): destination = vetted
            case .failure(let refusal): throw Failure(description: "refused: \(refusal.reason)")
            }
            let client =
                try destination.address.map {
                    try DeliveryHTTP.client(
                        extraRootsPEM: extraRootsPEM, connecting: destination.host, to: $0, limits: .within(timeout))
                } ?? DeliveryHTTP.client(extraRootsPEM: extraRootsPEM, limits: .within(timeout))
            var request = HTTPClientRequest(url: current)
            request.method = .GET
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await client.execute(request, timeout: .seconds(Int64(timeout.components.seconds) + 1))
            if [301, 302, 303, 307, 308].contains(response.status.code) {
                guard let location = response.headers.first(name: "location"),
                    let next = URL(string: location, relativeTo: url)?.absoluteString
                else { throw Failure(description: "a redirect without a location") }
                current = next
                continue
            }
            guard response.status == .ok else { throw Failure(description: "HTTP \(response.status.code)") }
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximumBytes {
                throw Failure(description: "an answer of \(length) bytes (at most \(maximumBytes) are read)")
            }
            var body = ByteBuffer()
            for try await var chunk in response.body {
                guard body.readableBytes + chunk.readableBytes <= maximumBytes else {
                    throw Failure(description: "an answer of more than \(maximumBytes) bytes")
                }
                body.writeBuffer(&chunk)
            }
            return Fetched(body: Data(body.readableBytesView), maxAge: Self.maxAge(response.headers["cache-control"]))
        }
        throw Failure(description: "more than \(Self.maximumRedirects) redirects")
    }

    /// `Cache-Control: max-age` in seconds, unless the answer says `no-store` or `no-cache`.
    static func maxAge(_ cacheControl: [String]) -> Int? {
        let directives = cacheControl.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if directives.contains("no-store") || directives.contains("no-cache") { return 0 }
        for directive in directives where directive.hasPrefix("max-age=") {
            return Int(directive.dropFirst("max-age=".count))
        }
        return nil
    }
}
