import Foundation
import Logging
import Synchronization
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// How often an identity provider's keys are fetched (``IdentityKeySets``), counted by the
/// key set server's hits, on a clock the test moves.
@Suite(.serialized)
struct IdentityKeySetsTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_784_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    static func withKeySets(
        answer: JWKSServer.Answer? = nil,
        _ body: (IdentityKeySets, IdentityProvider, JWKSServer, Clock) async throws -> Void
    ) async throws {
        let certificate = try LoopbackCertificate.make()
        let server = try await JWKSServer.start(
            certificate: certificate, answer: try answer ?? .keys(IdentityTestKeys.shared.jwks(), cacheControl: nil))
        let clock = Clock()
        let fetcher = KeySetFetcher(
            addresses: WebhookAddresses(allowed: ["127.0.0.1"]), extraRootsPEM: certificate.certificatePEM,
            timeout: .seconds(30), maximumBytes: 256 << 10)  // long: the parallel pass loads the machine
        let keySets = IdentityKeySets(
            fetcher: fetcher, settings: IdentityProviderSettings(), clock: { clock.now.withLock { $0 } },
            logger: Logger(label: "momentum.test.jwks"))
        let provider = IdentityProvider(
            name: "test", issuer: "https://issuer.test", audiences: ["app"], jwksURL: server.url)
        do {
            try await body(keySets, provider, server, clock)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func found(_ lookup: IdentityKeySets.Lookup) -> Bool {
        if case .key = lookup { true } else { false }
    }

    @Test func anUnknownKidRefetchesOnceAMinuteAndAKnownOneNever() async throws {
        try await Self.withKeySets { keySets, provider, server, clock async throws in
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            #expect(Self.found(try await keySets.key("ec-1", of: provider)))
            #expect(server.hits == 1)
            // Within the minute of the fetch, an unknown kid is refused without a fetch.
            #expect(!Self.found(try await keySets.key("new-0", of: provider)))
            #expect(server.hits == 1)
            clock.advance(61)
            #expect(!Self.found(try await keySets.key("new-1", of: provider)))
            #expect(server.hits == 2)
            #expect(!Self.found(try await keySets.key("new-2", of: provider)))
            #expect(server.hits == 2)
            // The provider rotates; a minute later its new key is fetched, then kept.
            server.answer(
                .keys(
                    try IdentityTestKeys.shared.jwks([try IdentityTestKeys.shared.rsaJWK(kid: "new-3")]),
                    cacheControl: nil))
            clock.advance(61)
            #expect(Self.found(try await keySets.key("new-3", of: provider)))
            #expect(Self.found(try await keySets.key("new-3", of: provider)))
            #expect(server.hits == 3)
        }
    }

    @Test func keysAreKeptAsLongAsMaxAgeSaysWithinBounds() async throws {
        let json = try IdentityTestKeys.shared.jwks()
        let answer = JWKSServer.Answer.keys(json, cacheControl: "public, max-age=600")
        try await Self.withKeySets(answer: answer) { keySets, provider, server, clock async throws in
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            clock.advance(590)
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            #expect(server.hits == 1)
            clock.advance(20)
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            #expect(server.hits == 2)
            // max-age=0 is held to the five-minute floor.
            server.answer(.keys(json, cacheControl: "max-age=0"))
            clock.advance(601)
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            clock.advance(290)
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            #expect(server.hits == 3)
        }
    }

    @Test func concurrentSignInsShareOneFetch() async throws {
        let json = try IdentityTestKeys.shared.jwks()
        let answer = JWKSServer.Answer.slowKeys(json, delay: .milliseconds(300))
        try await Self.withKeySets(answer: answer) { keySets, provider, server, _ async throws in
            let found = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { Self.found(try await keySets.key("rsa-1", of: provider)) } }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(found == 8)
            #expect(server.hits == 1)
        }
    }

    /// The fetch timeout is the whole bound: a provider answering after 11 s is fetched
    /// within a 30-s timeout (the webhooks' client gave up after 10 s of reading, whatever
    /// `identityProviderTimeout` said).
    @Test func aSlowProviderWithinTheFetchTimeoutIsFetched() async throws {
        let json = try IdentityTestKeys.shared.jwks()
        try await Self.withKeySets(answer: .slowKeys(json, delay: .seconds(11))) {
            keySets, provider, server, _ async throws in
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            #expect(server.hits == 1)
        }
    }

    @Test func keptKeysServeWhenAFetchFails() async throws {
        try await Self.withKeySets { keySets, provider, server, clock async throws in
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            server.answer(.redirect("https://10.0.0.1/keys"))
            clock.advance(4_000)
            #expect(Self.found(try await keySets.key("rsa-1", of: provider)))
            #expect(server.hits == 2)
        }
    }
}
