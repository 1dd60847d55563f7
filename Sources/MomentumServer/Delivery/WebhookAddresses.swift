import Foundation
import MomentumServices
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where webhooks may be posted: not into the server's own networks.
///
/// A webhook's host is resolved and refused when any of its addresses is loopback,
/// private (RFC 1918), shared (100.64/10, carrier NAT), link-local (169.254/16, where cloud
/// metadata services answer), unspecified (0.0.0.0/8, `::`), multicast, reserved, IPv6
/// unique-local (fc00::/7) or link-local (fe80::/10), or an IPv4 address of those kinds
/// written as IPv6 (mapped, compatible, SIIT, NAT64, 6to4), or Teredo (refused whatever IPv4
/// address it carries) — unless one of the allowed networks
/// (`--webhook-allowed-networks`, for a self-hosted receiver) holds it. The check runs
/// when the admin makes the webhook and again before each post, and the post connects to
/// the address the check passed (``DeliveryHTTP/client(extraRootsPEM:connecting:to:)``),
/// so a name that resolves elsewhere between the check and the connection (DNS
/// rebinding) cannot move the post. A lookup is waited for at most a few seconds (on a few
/// threads of its own, shared by the vettings of one host, its failures kept briefly), so a
/// name whose servers do not answer cannot hold a pass of deliveries.
final class WebhookAddresses: Sendable {
    /// Resolves a host name to its addresses, as text.
    typealias Resolver = @Sendable (String) async throws -> [String]

    /// Where a post may go: its host, and the address to connect to when the host is a
    /// name (`nil` for an address written in the URL).
    struct Destination: Equatable, Sendable {
        var host: String
        var address: String?
    }

    /// Why a URL may not be posted to, in words an admin can act on.
    struct Refusal: Error, Equatable, Sendable {
        var reason: String
        /// Whether the host is not allowed (rather than not resolved).
        var forbidden: Bool
        /// Whether the host's lookup took longer than the vetting waits.
        var timedOut = false
    }

    private let allowed: [TrustedProxies.Network]
    private let resolver: Resolver
    /// The longest a vetting waits for a lookup: a lookup still running then goes on by
    /// itself (`getaddrinfo` cannot be stopped) while the post is retried later.
    private let timeout: Duration
    /// Recent resolutions, for the posts of one pass (a name is resolved once every few
    /// seconds, not once per post): the post still goes to the address that was checked.
    /// A failure (`nil` addresses) is kept too, for less time.
    private let recent = Mutex<[String: (addresses: [String]?, timedOut: Bool, until: Double)]>([:])
    /// The lookups under way, by `fresh` and host: a second vetting of the host waits for
    /// the same lookup rather than starting one more.
    private let running = Mutex<[String: Task<[String], any Error>]>([:])
    /// The address each name's posts connect to, kept while the name still resolves to it
    /// (a name whose servers rotate its addresses keeps one pinned client).
    private let pinned = Mutex<[String: String]>([:])
    /// How long a resolution is kept for posts, in seconds.
    private let keep: Double = 10
    /// How long a failed or timed-out resolution is kept for posts, in seconds.
    private let keepFailure: Double = 3

    /// - Parameters:
    ///   - allowed: Addresses and CIDR ranges a webhook may reach although they are of a
    ///     refused kind (entries that are neither are left out: ``ServerConfiguration/check()``
    ///     refuses them at start).
    ///   - resolver: How names are resolved (the system's `getaddrinfo` on a small pool of
    ///     its own by default).
    ///   - timeout: The longest a vetting waits for a name's lookup.
    init(allowed: [String], resolver: Resolver? = nil, timeout: Duration = .seconds(5)) {
        self.allowed = allowed.compactMap { try? TrustedProxies([$0]).networks.first }
        self.resolver = resolver ?? Self.system
        self.timeout = timeout
    }

    /// Checks a webhook's URL: its host's addresses, resolved now.
    ///
    /// - Parameter fresh: `false` lets a resolution of the last few seconds serve (a post);
    ///   `true` resolves again (a webhook being made).
    func vet(_ url: URL, fresh: Bool) async -> Result<Destination, Refusal> {
        guard let host = url.host, !host.isEmpty else {
            return .failure(Refusal(reason: "the URL names no host", forbidden: false))
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let bytes = TrustedProxies.bytes(of: bare) {
            if let kind = refusedKind(bytes) { return .failure(Refusal(reason: "\(bare) is \(kind)", forbidden: true)) }
            return .success(Destination(host: bare, address: nil))
        }
        let addresses: [String]
        do {
            addresses = try await resolve(bare, fresh: fresh)
        } catch is TimedOut {
            return .failure(Refusal(reason: "\(bare): the DNS lookup timed out", forbidden: false, timedOut: true))
        } catch {
            return .failure(Refusal(reason: "\(bare) does not resolve", forbidden: false))
        }
        guard !addresses.isEmpty else { return .failure(Refusal(reason: "\(bare) does not resolve", forbidden: false)) }
        for address in addresses {
            guard let bytes = TrustedProxies.bytes(of: address) else {
                return .failure(Refusal(reason: "\(bare) resolves to '\(address)', not an address", forbidden: true))
            }
            if let kind = refusedKind(bytes) {
                return .failure(Refusal(reason: "\(bare) resolves to \(address), \(kind)", forbidden: true))
            }
        }
        return .success(Destination(host: bare, address: pin(bare, among: addresses)))
    }

    /// The kind of a refused address (`"a loopback address"`), or `nil` when a webhook may
    /// reach it.
    func refusedKind(_ bytes: [UInt8]) -> String? {
        if allowed.contains(where: { $0.contains(bytes) }) { return nil }
        return Self.internalKind(bytes)
    }

    /// The kind of an address of the server's own networks, or `nil` for a public one.
    static func internalKind(_ bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return internalKind(v4: bytes) }
        guard bytes.count == 16 else { return "not an IP address" }
        let zeroPrefix = bytes[0..<12].allSatisfy { $0 == 0 }
        if zeroPrefix, bytes[12..<15].allSatisfy({ $0 == 0 }), bytes[15] <= 1 {
            return bytes[15] == 0 ? "the unspecified address" : "a loopback address"
        }
        // IPv4 in IPv6: compatible (::a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4.
        if zeroPrefix { return internalKind(v4: Array(bytes[12...])) ?? "an IPv4-compatible address" }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return internalKind(v4: Array(bytes[12...]))
        }
        if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return "a local-use NAT64 address" }
        // SIIT (::ffff:0:a.b.c.d, ::ffff:0:0/96): the IPv4 address it carries is checked.
        if bytes[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0], let kind = internalKind(v4: Array(bytes[12...]))
        {
            return "an IPv4-translated (SIIT, ::ffff:0:0/96) form of \(kind)"
        }
        // Teredo (2001::/32) tunnels to an IPv4 address of its own choosing: refused whatever it carries.
        if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] {
            return "a Teredo address (2001::/32), refused whatever IPv4 address it carries"
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return internalKind(v4: Array(bytes[2..<6])) }
        if bytes[0] & 0xFE == 0xFC { return "a unique-local address (fc00::/7)" }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return "a link-local address (fe80::/10)" }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return "a site-local address (fec0::/10)" }
        if bytes[0] == 0xFF { return "a multicast address" }
        if bytes[0..<8] == [0x01, 0, 0, 0, 0, 0, 0, 0] { return "a discard-only address (100::/64)" }
        return nil
    }

    private static func internalKind(v4 bytes: [UInt8]) -> String? {
        let (a, b) = (bytes[0], bytes[1])
        switch a {
        case 0: return "an unspecified address (0.0.0.0/8)"
        case 10: return "a private address (10.0.0.0/8)"
        case 127: return "a loopback address"
        case 100 where b & 0xC0 == 64: return "a shared carrier-NAT address (100.64.0.0/10)"
        case 169 where b == 254:
            return "a link-local address (169.254.0.0/16, where cloud metadata services answer)"
        case 172 where b & 0xF0 == 16: return "a private address (172.16.0.0/12)"
        case 192 where b == 168: return "a private address (192.168.0.0/16)"
        case 192 where b == 0 && bytes[2] == 0: return "an IETF protocol address (192.0.0.0/24)"
        case 198 where b & 0xFE == 18: return "a benchmarking address (198.18.0.0/15)"
        case 224...239: return "a multicast address"
        case 240...255: return "a reserved address (240.0.0.0/4)"
        default: return nil
        }
    }

    /// The address a name's posts connect to: the one pinned before while the name still
    /// resolves to it, otherwise the lowest IPv4 address (the one more often reachable, as
    /// happy eyeballs cannot try the other once the connection is tied to one address),
    /// otherwise the lowest IPv6 one.
    private func pin(_ host: String, among addresses: [String]) -> String {
        pinned.withLock { pinned in
            if let previous = pinned[host], addresses.contains(previous) { return previous }
            let ordered = addresses.compactMap { address in TrustedProxies.bytes(of: address).map { (address, $0) } }
                .sorted { $0.1.count != $1.1.count ? $0.1.count < $1.1.count : $0.1.lexicographicallyPrecedes($1.1) }
            let chosen = ordered.first?.0 ?? addresses[0]
            if pinned.count >= 1_000 { pinned.removeAll() }
            pinned[host] = chosen
            return chosen
        }
    }

    private func resolve(_ host: String, fresh: Bool) async throws -> [String] {
        let now = Self.seconds()
        if !fresh, let cached = recent.withLock({ $0[host] }), cached.until > now {
            guard let addresses = cached.addresses else { throw cached.timedOut ? TimedOut() : Unresolved() }
            return addresses
        }
        let key = "\(fresh ? "fresh" : "post")\u{0}\(host)"
        let lookup = running.withLock { running in
            if let lookup = running[key] { return lookup }
            let resolver = self.resolver
            let lookup = Task { [weak self] in
                let result: Result<[String], any Error>
                do { result = .success(try await resolver(host)) } catch { result = .failure(error) }
                // Only posts share a resolution: a webhook being made leaves its posts to resolve again.
                self?.finished(key, host: host, result: fresh ? nil : result)
                return try result.get()
            }
            running[key] = lookup
            return lookup
        }
        do {
            return try await Self.bounded(lookup, by: timeout)
        } catch is TimedOut {
            if !fresh { remember(host, addresses: nil, timedOut: true) }
            throw TimedOut()
        }
    }

    private func finished(_ key: String, host: String, result: Result<[String], any Error>?) {
        running.withLock { _ = $0.removeValue(forKey: key) }
        guard let result else { return }
        remember(host, addresses: try? result.get(), timedOut: false)
    }

    private func remember(_ host: String, addresses: [String]?, timedOut: Bool) {
        let now = Self.seconds()
        recent.withLock { recent in
            if recent.count >= 1_000 { recent = recent.filter { $0.value.until > now } }
            if recent.count < 1_000 {
                recent[host] = (addresses, timedOut, now + (addresses == nil ? keepFailure : keep))
            }
        }
    }

    /// A lookup's answer, or ``TimedOut`` once `timeout` has passed (the lookup goes on).
    private static func bounded(
        _ lookup: Task<[String], any Error>, by timeout: Duration
    ) async throws -> [String] {
        let waiting = Mutex<CheckedContinuation<[String], any Error>?>(nil)
        let finish: @Sendable (Result<[String], any Error>) -> Void = { result in
            let continuation = waiting.withLock { waiting in
                let continuation = waiting
                waiting = nil
                return continuation
            }
            continuation?.resume(with: result)
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.withLock { $0 = continuation }
            let timer = Task {
                try await Task.sleep(for: timeout)
                finish(.failure(TimedOut()))
            }
            Task {
                let result = await lookup.result
                timer.cancel()
                finish(result)
            }
        }
    }

    private static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The threads `getaddrinfo` runs on: few, and not the shared pool, so lookups that
    /// hang (a name whose servers do not answer) hold at most these.
    static let lookupThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// The system's resolution of a name (`getaddrinfo`, `/etc/hosts` included), off the
    /// event loops, on ``lookupThreads``.
    static let system: Resolver = { host in
        try await lookupThreads.runIfActive {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Darwin)
                hints.ai_socktype = SOCK_STREAM
            #else
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #endif
            var first: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &first) == 0, let first else { throw Unresolved() }
            defer { freeaddrinfo(first) }
            var addresses: [String] = []
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let info = next {
                next = info.pointee.ai_next
                guard let socketAddress = info.pointee.ai_addr else { continue }
                let address: SocketAddress
                switch info.pointee.ai_family {
                case AF_INET:
                    address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        SocketAddress($0.pointee, host: host)
                    }
                case AF_INET6:
                    address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        SocketAddress($0.pointee, host: host)
                    }
                default:
                    continue
                }
                if let text = address.ipAddress, !addresses.contains(text) { addresses.append(text) }
            }
            return addresses
        }
    }

    private struct Unresolved: Error {}
    private struct TimedOut: Error {}
}

extension WebhookAddresses: WebhookAddressVetting {
    /// Why `url` may not be posted to, looked up afresh; `nil` when it may.
    func refusal(of url: URL) async -> WebhookAddressRefusal? {
        guard case .failure(let refusal) = await vet(url, fresh: true) else { return nil }
        return WebhookAddressRefusal(reason: refusal.reason, forbidden: refusal.forbidden, timedOut: refusal.timedOut)
    }
}
