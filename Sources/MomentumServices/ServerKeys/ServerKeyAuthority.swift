import Crypto
import Foundation
import MomentumStore
import Synchronization

/// Server keys: an operator creates, lists and revokes them; an app's backend shows one
/// (`Authorization: Bearer msk_<id>_<secret>`) and is told which app and scopes it holds.
///
/// The key's secret has 256 random bits, so the store keeps its SHA-256 rather than a
/// bcrypt hash: a slow hash protects guessable passwords, and nothing guesses 256 bits; a
/// fast one keeps a backend's every call cheap.
///
/// A key checked in the last few seconds is trusted from the session cache, like a device
/// session: one revoked through an instance is refused there at once, and on the other
/// instances as soon as the relay brings the revocation (milliseconds; while the relay is
/// not receiving, the cache is not used). A key's last use is written at
/// most once a minute, so calls do not each write.
public struct ServerKeyAuthority: Sendable {
    let store: any ServerKeys
    let now: @Sendable () -> Date
    /// Failed attempts per client address per minute (``ServerConfiguration/serverKeyFailuresPerMinute``).
    let failures: any RequestLimit
    let cache: SessionCache?
    let relayListening: (@Sendable () -> Bool)?
    let changes: ChangePublisher?
    private let blocked: Blocked

    /// The scopes a key may hold.
    public static let scopes = ["events:write", "state:read", "users:manage", "sessions:create"]
    /// The prefix of every key.
    public static let prefix = "msk_"

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The keys.
    ///   - now: The current instant.
    ///   - failures: The limit of failed attempts per client address.
    ///   - cache: Keys checked in the last few seconds (the device sessions' cache, which
    ///     the same relay keeps current); `nil` reads every key from the store.
    ///   - relayListening: Whether other instances' revocations are arriving; `nil` when
    ///     this is the only instance.
    ///   - changes: Tells the other instances of a revocation.
    public init(
        store: any ServerKeys, now: @escaping @Sendable () -> Date, failures: any RequestLimit,
        cache: SessionCache? = nil, relayListening: (@Sendable () -> Bool)? = nil, changes: ChangePublisher? = nil
    ) {
        self.store = store
        self.now = now
        self.failures = failures
        self.cache = cache
        self.relayListening = relayListening
        self.changes = changes
        blocked = Blocked()
    }

    /// Whether cached keys may be trusted: always on a single instance; with other
    /// instances only while the relay is receiving their revocations.
    var cacheTrusted: Bool { relayListening?() ?? true }

    /// Creates a key; the answer holds the key itself, shown this once.
    ///
    /// - Throws: `.invalid` naming the field at fault.
    public func create(_ request: ServerKeyCreateRequest) async throws -> CreatedServerKey {
        let name = request.name.trimmingCharacters(in: .whitespaces)
        let app = request.app ?? "default"
        var problems: [ServiceError.Field] = []
        if name.isEmpty || name.utf8.count > 200 || Accounts.hasControlCharacters(name) {
            problems.append(.init(field: "name", issue: "must have 1 to 200 bytes, without control characters"))
        }
        if !Self.isAppName(app) {
            problems.append(.init(field: "app", issue: "must be 1 to 64 letters, digits, '.', '_' or '-'"))
        }
        let scopes = Array(Set(request.scopes.map(\.rawValue))).sorted()
        if scopes.isEmpty || !scopes.allSatisfy(Self.scopes.contains) {
            problems.append(
                .init(field: "scopes", issue: "must name at least one of \(Self.scopes.joined(separator: ", "))"))
        }
        if !problems.isEmpty { throw ServiceError.invalid(problems) }
        var generator = SystemRandomNumberGenerator()
        let secret = Tokens.base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let id = String(Tokens.id("").prefix(16))
        let key = ServerKey(
            id: id, app: app, name: name, scopes: scopes, secretHash: Tokens.hash(secret), createdAt: now())
        try await store.createServerKey(key)
        let stored = try await store.serverKey(id: id) ?? key
        return CreatedServerKey(key: "\(Self.prefix)\(id)_\(secret)", serverKey: ServerKeyView(stored))
    }

    /// Every key, newest first, without secrets.
    public func list() async throws -> [ServerKeyView] {
        try await store.serverKeys().map(ServerKeyView.init)
    }

    /// Revokes a key; revoking it again changes nothing.
    ///
    /// - Throws: `.notFound` when there is no such key.
    public func revoke(_ id: String) async throws -> ServerKeyView {
        guard Self.isKeyID(id) else { throw ServiceError.notFound("server key") }
        // Not `guard …, let key = try await …`: Swift 6.3's optimizer crashed splitting
        // that coroutine in release builds.
        let revoked = try await store.revokeServerKey(id: id, at: now())
        guard let revoked else { throw ServiceError.notFound("server key") }
        // In the store first, then here and on the other instances (as a device session's
        // revocation): a request that read the key meanwhile cannot cache it again.
        cache?.forget(serverKey: id)
        await changes?.relayRevocation(of: "", tokenHash: SessionCache.serverKeyPrefix + id)
        return ServerKeyView(revoked)
    }

    /// The key a backend shows, when it is a live one.
    ///
    /// A malformed key, an unknown id and a wrong secret take one path and get one answer
    /// (`invalid_server_key`): the secret's hash is compared in constant time with the
    /// stored one, or with a stand-in when the id is unknown. Each failure counts against
    /// the client's address; past the limit, the address is refused before any check.
    ///
    /// - Parameters:
    ///   - token: The bearer token.
    ///   - address: The client's address.
    /// - Throws: `.unauthenticated` `invalid_server_key`, or `.tooMany` for an address
    ///   that failed too often.
    public func authenticate(_ token: String, address: String) async throws -> ServerKeyCaller {
        if let wait = blocked.wait(address, now: now()) { throw Self.tooMany(wait) }
        let (id, secret) = Self.parts(of: token)
        // An id that is not one (empty) is looked up too: every key takes one path.
        let key: ServerKey?
        if cacheTrusted, !id.isEmpty, let cached = cache?.serverKey(id, now: now()) {
            key = cached
        } else {
            key = try await store.serverKey(id: id)
            if let key { cache?.remember(key, now: now()) }
        }
        let expected = key?.secretHash ?? Self.standIn
        let matches = Self.constantTimeEqual(Tokens.hash(secret), expected)
        guard let key, matches, key.revokedAt == nil else {
            // The failure past the limit is refused as such, and so is the address for a while.
            if let wait = failures.take(address) {
                blocked.block(address, seconds: wait, now: now())
                throw Self.tooMany(wait)
            }
            throw ServiceError(.unauthenticated, "invalid_server_key", "this server key is not valid")
        }
        let now = now()
        if key.lastUsedAt.map({ now.timeIntervalSince($0) >= 60 || now < $0 }) ?? true {
            try await store.touchServerKey(id: key.id, at: now)
            var touched = key
            touched.lastUsedAt = now
            cache?.remember(touched, now: now)
        }
        return ServerKeyCaller(id: key.id, app: key.app, name: key.name, scopes: Set(key.scopes))
    }

    static func tooMany(_ wait: Int) -> ServiceError {
        ServiceError(
            .tooMany(retryAfterSeconds: wait), "rate_limited",
            "too many failed server keys from this address; try again in \(wait) s")
    }

    /// The id and secret of `msk_<id>_<secret>`; empty strings for anything else.
    static func parts(of token: String) -> (id: String, secret: String) {
        guard token.hasPrefix(prefix) else { return ("", token) }
        let rest = token.dropFirst(prefix.count)
        guard let underscore = rest.firstIndex(of: "_") else { return ("", token) }
        let id = String(rest[..<underscore])
        guard isKeyID(id) else { return ("", token) }
        return (id, String(rest[rest.index(after: underscore)...]))
    }

    /// A key id as made here: 16 lower-case base32 characters.
    static func isKeyID(_ id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x32...0x39).contains($0) }
    }

    /// An app's name: 1 to 64 ASCII letters, digits, `.`, `_` or `-`.
    static func isAppName(_ app: String) -> Bool {
        (1...64).contains(app.utf8.count)
            && app.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                    || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
            }
    }

    /// What an unknown id's secret is compared with: the hash of no secret anyone holds.
    static let standIn = Tokens.hash(Tokens.id("stand-in_") + Tokens.id(""))

    /// Whether two strings are equal, in time that depends on their lengths only.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Addresses refused until an instant, after too many failures.
    final class Blocked: Sendable {
        private let until = Mutex([String: Date]())

        func wait(_ address: String, now: Date) -> Int? {
            until.withLock { until in
                guard let end = until[address] else { return nil }
                guard end > now else {
                    until[address] = nil
                    return nil
                }
                return max(1, Int(end.timeIntervalSince(now).rounded(.up)))
            }
        }

        func block(_ address: String, seconds: Int, now: Date) {
            until.withLock { until in
                if until.count > 100_000 { until = until.filter { $0.value > now } }
                until[address] = now.addingTimeInterval(Double(max(1, seconds)))
            }
        }
    }
}

/// The app's backend a request comes from: the key it showed.
public struct ServerKeyCaller: Sendable, Hashable {
    /// The key's id.
    public var id: String
    /// The app whose users it reaches.
    public var app: String
    /// The key's name.
    public var name: String
    /// What it may do.
    public var scopes: Set<String>

    /// Creates a caller.
    public init(id: String, app: String, name: String, scopes: Set<String>) {
        self.id = id
        self.app = app
        self.name = name
        self.scopes = scopes
    }

    /// Throws unless the key holds `scope`.
    ///
    /// - Throws: `.forbidden` `scope_missing`, naming the scope.
    public func require(_ scope: String) throws {
        guard scopes.contains(scope) else {
            throw ServiceError(
                .forbidden, "scope_missing", "this server key does not have the scope '\(scope)'",
                fields: [.init(field: "scope", issue: scope)])
        }
    }
}

/// A limit that never refuses.
struct NoRequestLimit: RequestLimit {
    func take(_ key: String) -> Int? { nil }
}
