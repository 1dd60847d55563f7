import Foundation
import JWTKit
import Logging
import MomentumServices

/// The key sets (JWKS) of the identity providers, fetched on first use and kept.
///
/// A key set is kept as long as its answer's `Cache-Control: max-age` says, within the
/// bounds of ``IdentityProviderSettings`` (an hour when it says nothing), so a sign-in with
/// a known key makes no network call. A token whose `kid` the kept set lacks (the provider
/// rotated its keys) fetches the set again, at most once per ``IdentityProviderSettings/refreshInterval``
/// per provider: more unknown keys within it are refused without a fetch. Sign-ins that need
/// a provider's keys at once share one fetch. When a fetch fails, a kept set still serves
/// the keys it has.
actor IdentityKeySets {
    /// A provider's keys by `kid`, and when they were fetched.
    struct KeySet: Sendable {
        var keys: [String: JWK]
        var fetchedAt: Date
        var expiresAt: Date
    }

    /// What a provider's key lookup found.
    enum Lookup: Sendable {
        case key(JWK)
        case unknownKey
    }

    private let fetcher: KeySetFetcher
    private let settings: IdentityProviderSettings
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private var sets: [String: KeySet] = [:]
    private var lastFetch: [String: Date] = [:]
    private var lastFailure: [String: (at: Date, reason: String)] = [:]
    private var running: [String: Task<KeySet, any Error>] = [:]

    init(
        fetcher: KeySetFetcher, settings: IdentityProviderSettings, clock: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.fetcher = fetcher
        self.settings = settings
        self.clock = clock
        self.logger = logger
    }

    /// The provider's key with this `kid`.
    ///
    /// - Throws: ``ServiceError/identityProviderUnavailable(_:)`` when the keys are needed
    ///   and cannot be fetched.
    func key(_ kid: String, of provider: IdentityProvider) async throws -> Lookup {
        let now = clock()
        if let set = sets[provider.name], now < set.expiresAt {
            if let key = set.keys[kid] { return .key(key) }
            // An unknown key: the set is fetched again, once per refresh interval.
            if let last = lastFetch[provider.name], now.timeIntervalSince(last) < Self.seconds(settings.refreshInterval)
            {
                return .unknownKey
            }
        }
        let set: KeySet
        do {
            set = try await fetched(provider)
        } catch {
            if let kept = sets[provider.name], let key = kept.keys[kid] { return .key(key) }
            if sets[provider.name] != nil { return .unknownKey }
            throw ServiceError.identityProviderUnavailable(provider.name)
        }
        return set.keys[kid].map(Lookup.key) ?? .unknownKey
    }

    /// What is held of each provider's keys that was ever fetched or tried.
    func status() -> [IdentityKeySetStatus] {
        Set(sets.keys).union(lastFailure.keys).sorted().map { name in
            IdentityKeySetStatus(
                provider: name, keys: sets[name]?.keys.count ?? 0, fetchedAt: sets[name]?.fetchedAt,
                expiresAt: sets[name]?.expiresAt, lastFailureAt: lastFailure[name]?.at,
                lastFailure: lastFailure[name]?.reason)
        }
    }

    /// A fresh fetch of the provider's set, shared with the sign-ins that need it meanwhile.
    private func fetched(_ provider: IdentityProvider) async throws -> KeySet {
        if let task = running[provider.name] { return try await task.value }
        lastFetch[provider.name] = clock()
        let fetcher = fetcher
        let settings = settings
        let clock = clock
        let task = Task { () throws -> KeySet in
            let fetched = try await fetcher.fetch(provider.jwksURL)
            return try Self.keySet(fetched, settings: settings, now: clock())
        }
        running[provider.name] = task
        defer { running[provider.name] = nil }
        do {
            let set = try await task.value
            sets[provider.name] = set
            return set
        } catch {
            lastFailure[provider.name] = (clock(), String(String(describing: error).prefix(300)))
            logger.warning(
                "identity provider keys not fetched",
                metadata: ["provider": "\(provider.name)", "error": "\(error)"])
            throw error
        }
    }

    /// The signing keys of a fetched set: keys with a `kid`, of a kind that signs (RSA, EC,
    /// OKP), not marked for encryption only.
    static func keySet(_ fetched: KeySetFetcher.Fetched, settings: IdentityProviderSettings, now: Date) throws -> KeySet
    {
        struct Document: Decodable {
            var keys: [Entry]
        }
        struct Entry: Decodable {
            var key: JWK?
            var use: String?
            init(from decoder: any Decoder) throws {
                key = try? JWK(from: decoder)
                use = try? decoder.container(keyedBy: Use.self).decodeIfPresent(String.self, forKey: .use)
            }
            enum Use: String, CodingKey { case use }
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: fetched.body)
        } catch {
            throw KeySetFetcher.Failure(description: "not a JSON Web Key Set")
        }
        var keys: [String: JWK] = [:]
        for entry in document.keys {
            guard let key = entry.key, let kid = key.keyIdentifier?.string, entry.use == nil || entry.use == "sig"
            else { continue }
            keys[kid] = key
        }
        let lifetime = fetched.maxAge.map { TimeInterval($0) } ?? seconds(settings.cacheLifetime)
        let bounded = min(max(lifetime, seconds(settings.minimumCacheLifetime)), seconds(settings.maximumCacheLifetime))
        return KeySet(keys: keys, fetchedAt: now, expiresAt: now.addingTimeInterval(bounded))
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
