import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumPostgres
import MomentumServer
import MomentumServices
import MomentumTestSupport
import Testing

/// Rate limits behind a load balancer: per user and per address across every instance
/// that shares one PostgreSQL database, and the client address from trusted proxies only.
@Suite(.serialized) struct RateLimitAcrossInstancesTests {
    @Test func aUsersLimitHoldsAcrossTwoInstances() async throws {
        try await Self.twoInstances { configuration in
            configuration.userRequestsPerMinute = 10
        } _: { a, b in
            try await LiveServer.register(port: a, "sam")
            let answer = try await LiveServer.signIn(port: b, "sam")
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])?["token"] as? String)
            let auth = ["Authorization": "Bearer \(token)"]
            try await Self.expectLimit(10, a: a, b: b) { port in
                try await RawHTTP.send(port: port, "GET", "/v1/profile", headers: auth)
            }
        }
    }

    @Test func anAddressesLimitHoldsAcrossTwoInstancesBehindATrustedProxy() async throws {
        try await Self.twoInstances { configuration in
            configuration.addressRequestsPerMinute = 10
            configuration.trustedProxies = ["127.0.0.0/8", "::1"]
        } _: { a, b in
            try await Self.expectLimit(10, a: a, b: b) { port in
                try await RawHTTP.send(port: port, "GET", "/healthz", headers: ["X-Forwarded-For": "198.51.100.7"])
            }
            // Another client behind the same proxy has its own limit.
            let other = try await RawHTTP.send(
                port: a, "GET", "/healthz", headers: ["X-Forwarded-For": "2001:db8::5"])
            #expect(other.status == 200, "\(other.raw)")
        }
    }

    /// `n` requests spread over both instances are answered; the next is refused on both.
    private static func expectLimit(
        _ n: Int, a: Int, b: Int, _ request: @escaping @Sendable (Int) async throws -> RawHTTP.Answer
    ) async throws {
        for index in 0..<n {
            let answer = try await request(index < n / 2 ? a : b)
            #expect(answer.status == 200, "request \(index + 1): \(answer.raw)")
            // Each instance shares its counts every 100 ms.
            if index == n / 2 - 1 || index == n - 1 { try await Task.sleep(for: .milliseconds(350)) }
        }
        for port in [a, b] {
            let refused = try await request(port)
            #expect(refused.status == 429, "\(refused.raw)")
            #expect(refused.headerLines.contains { $0.hasPrefix("retry-after: ") }, "\(refused.headerLines)")
        }
    }

    static func twoInstances(
        _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (_ a: Int, _ b: Int) async throws -> Void
    ) async throws {
        try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_limits") { url in
            let first = try PostgresStore(url: url)
            let second = try PostgresStore(url: url)
            do {
                try await first.migrate()
                try await run(first, configure) { a in
                    try await run(second, configure) { b in try await body(a, b) }
                }
            } catch {
                await first.close()
                await second.close()
                throw error
            }
            await first.close()
            await second.close()
        }
    }

    static let frozenNow = Date()

    private static func run(
        _ store: PostgresStore, _ configure: (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        // One instant for both instances and the whole test: the shared counts are per
        // wall-clock minute, and a test that crossed a minute's end would start afresh.
        let frozen = Self.frozenNow
        configuration.clock = { frozen }
        configure(&configuration)
        var logger = Logger(label: "momentum.live-test")
        logger.logLevel = .error
        let state = ServerState(
            store: store, configuration: configuration, relay: PostgresRelay(store: store), logger: logger)
        try await buildApplication(state).test(.live) { client in
            let port = try #require(client.port)
            let deadline = ContinuousClock.now + .seconds(10)
            while try await RawHTTP.send(port: port, "GET", "/readyz").status != 200 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the instance never became ready")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await body(port)
        }
    }
}

/// Which headers name the client: a trusted proxy's, never anyone else's.
struct TrustedProxyAddressTests {
    /// The limits refill a token every 20 or 30 seconds; frozen clocks keep a slow machine
    /// (a CI run took 52 s for one of these tests) from refilling one mid-test.
    static let frozen: @Sendable () -> Date = { RateLimitAcrossInstancesTests.frozenNow }

    @Test func forwardedHeadersFromAnUntrustedPeerAreIgnored() async throws {
        try await LiveServer.with { configuration in
            configuration.addressRequestsPerMinute = 3
            configuration.clock = Self.frozen
            configuration.rateLimitClock = { 0 }
        } _: { port in
            for index in 1...3 {
                let answer = try await RawHTTP.send(
                    port: port, "GET", "/healthz", headers: ["X-Forwarded-For": "198.51.100.\(index)"])
                #expect(answer.status == 200)
            }
            let spoofed = try await RawHTTP.send(
                port: port, "GET", "/healthz",
                headers: ["X-Forwarded-For": "198.51.100.99", "Forwarded": "for=192.0.2.1"])
            #expect(spoofed.status == 429, "\(spoofed.raw)")
        }
    }

    @Test func forwardedHeadersFromATrustedProxyNameTheRightmostUntrustedHop() async throws {
        try await LiveServer.with { configuration in
            configuration.addressRequestsPerMinute = 3
            configuration.trustedProxies = ["127.0.0.1", "::1", "10.0.0.0/8"]
            configuration.clock = Self.frozen
            configuration.rateLimitClock = { 0 }
        } _: { port in
            // A client that puts its own spoofed hops in front still gets its real address,
            // the one the proxy appended (10.1.2.3 is a trusted inner proxy).
            for index in 1...3 {
                let answer = try await RawHTTP.send(
                    port: port, "GET", "/healthz",
                    headers: ["X-Forwarded-For": "192.0.2.\(index), 198.51.100.7, 10.1.2.3"])
                #expect(answer.status == 200)
            }
            let fourth = try await RawHTTP.send(
                port: port, "GET", "/healthz", headers: ["X-Forwarded-For": "192.0.2.50, 198.51.100.7"])
            #expect(fourth.status == 429, "\(fourth.raw)")
            // A `Forwarded` header the proxy did not set (it sets X-Forwarded-For) names
            // nothing: the spoofed client is the proxy's peer's next hop, not 192.0.2.61.
            let spoofed = try await RawHTTP.send(
                port: port, "GET", "/healthz",
                headers: ["Forwarded": "for=192.0.2.61", "X-Forwarded-For": "192.0.2.51, 198.51.100.7"])
            #expect(spoofed.status == 429, "\(spoofed.raw)")
            let someoneElse = try await RawHTTP.send(
                port: port, "GET", "/healthz", headers: ["X-Forwarded-For": "198.51.100.8"])
            #expect(someoneElse.status == 200, "\(someoneElse.raw)")
        }
    }

    @Test func aProxyThatSetsForwardedIsReadFromForwardedOnly() async throws {
        try await LiveServer.with { configuration in
            configuration.addressRequestsPerMinute = 2
            configuration.trustedProxies = ["127.0.0.1", "::1"]
            configuration.forwardedHeader = .forwarded
            configuration.clock = Self.frozen
            configuration.rateLimitClock = { 0 }
        } _: { port in
            for _ in 1...2 {
                let answer = try await RawHTTP.send(
                    port: port, "GET", "/healthz", headers: ["Forwarded": #"for=192.0.2.60, for="198.51.100.7:5000""#])
                #expect(answer.status == 200, "\(answer.raw)")
            }
            // The client's own X-Forwarded-For, passed through by this proxy, is ignored.
            let third = try await RawHTTP.send(
                port: port, "GET", "/healthz",
                headers: ["Forwarded": "for=198.51.100.7", "X-Forwarded-For": "203.0.113.9"])
            #expect(third.status == 429, "\(third.raw)")
            let ipv6 = try await RawHTTP.send(
                port: port, "GET", "/healthz", headers: ["Forwarded": #"for="[2001:db8::5]:4711";proto=https"#])
            #expect(ipv6.status == 200, "\(ipv6.raw)")
        }
    }
}
