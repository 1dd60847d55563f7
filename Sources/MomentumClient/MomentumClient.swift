import Foundation
import MomentumAPI
import MomentumCore
import OpenAPIRuntime

/// An offline-first Momentum client for one device: the app's way to Momentum.
///
/// The client keeps the signed-in user's log in a local SQLite file and evaluates it with
/// `MomentumCore`, so a check-in shows its streak, reward and celebration at once, online
/// or not. What the device records waits in a durable outbox until the server has it:
/// ``sync()`` pushes the outbox (each event under its client id, so a resend is harmless)
/// and pulls what other devices did; ``keepInSync(retry:onSync:)`` listens to the server's change
/// stream and syncs whenever something changes, reconnecting after any failure. After a
/// sync, the client's ``today(at:)`` is the server's `GET /v1/today`, byte for byte.
///
/// ```swift
/// let client = try MomentumClient(
///     server: URL(string: "https://momentum.example.com")!, databasePath: documents + "/momentum.sqlite")
/// try await client.signIn(email: "sam@example.com", password: "correct horse", deviceName: "iPhone")
/// let checkIn = try await client.checkIn("read")       // at once, offline too
/// print(checkIn.habit?.current ?? 0)                     // 🔥 the new streak
/// _ = try? await client.sync()                           // when the network allows
/// ```
///
/// Every operation of the HTTP API is also there, typed, as ``api``.
public actor MomentumClient {
    /// The server's base URL.
    public nonisolated let server: URL
    /// The generated client of every API operation, signed in as this device once
    /// ``signIn(email:password:deviceName:)`` or ``register(_:)`` succeeded.
    public nonisolated let api: Client
    let database: ClientDatabase
    /// Where the session token and the sign-in device keys are kept.
    let tokens: any TokenStore
    let token: BearerToken
    /// Wakes ``keepInSync(retry:onSync:)`` when an event enters the outbox.
    let outboxSignal = OutboxSignal()
    let clock: @Sendable () -> Date
    let zone: String?
    /// The engine fed with the log and the outbox, while it is current.
    var engine: MomentumUser?
    /// The sync running now; another waits for it.
    var running: Task<SyncReport, any Error>?

    /// Opens the device's database and prepares a client of `server`.
    ///
    /// - Parameters:
    ///   - server: The server's base URL, such as `http://127.0.0.1:8080`.
    ///   - databasePath: The local SQLite file; created when missing.
    ///   - timeZone: The IANA zone events are logged in; by default the device's, or the
    ///     profile's when the device's is not an IANA zone or is plain UTC (a machine
    ///     whose zone was never set).
    ///   - clock: The current instant (tests pass their own).
    ///   - transport: How requests travel; by default URLSession on Apple platforms,
    ///     AsyncHTTPClient's shared client on Linux.
    ///   - tokenStore: Where the session token and the sign-in device keys are kept; by
    ///     default the Keychain on Apple platforms (`KeychainTokenStore`), a 0600 file
    ///     beside the database elsewhere (``FileTokenStore``). A database of an earlier
    ///     version moves its token there when it opens.
    ///   - retry: How one request is tried again after a lost answer, a 5xx or a 429 (every
    ///     write carries an `Idempotency-Key`, the same on each try); ``RetryPolicy/never``
    ///     sends each request once.
    ///   - middlewares: More middlewares for every request (logging, tracing), run after
    ///     the one that adds the device's token and the one that retries, once per try.
    /// - Throws: When the database cannot be opened or migrated.
    public init(
        server: URL, databasePath: String, timeZone: String? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }, transport: (any ClientTransport)? = nil,
        tokenStore: (any TokenStore)? = nil, retry: RetryPolicy = .requests,
        middlewares: [any ClientMiddleware] = []
    ) throws {
        self.server = server
        let tokens = tokenStore ?? Self.defaultTokenStore(databasePath: databasePath)
        self.tokens = tokens
        database = try ClientDatabase(path: databasePath, secrets: tokens)
        self.clock = clock
        self.zone = timeZone
        let token = BearerToken(store: tokens, key: try database.account().map(Self.sessionKey))
        self.token = token
        api = Client(
            serverURL: server, configuration: .momentum, transport: transport ?? Self.defaultTransport(),
            middlewares: [BearerTokenMiddleware(token: token), RetryingMiddleware(policy: retry)] + middlewares)
    }

    /// The token store's key of a stored account's session.
    /// An account without an email (one that signs in with an identity provider) is keyed
    /// by its user id.
    static func sessionKey(_ account: StoredAccount) -> TokenKey {
        TokenKey(
            .session, server: account.server,
            email: account.email.isEmpty ? "user:" + account.userID : normalized(email: account.email))
    }

    // MARK: Account

    /// The signed-in account on this device, if any.
    public var account: SignedInAccount? {
        get throws {
            try database.account().map {
                SignedInAccount(
                    userID: $0.userID, email: $0.email.isEmpty ? nil : $0.email, device: $0.device, server: $0.server)
            }
        }
    }

    /// Creates an account and signs this device in.
    ///
    /// - Parameter request: The new account's email, password, name and settings.
    /// - Throws: ``ClientError`` with the server's code (`email_taken`, `invalid_input`, …),
    ///   ``ClientError/offline``, or ``ClientError/pendingEvents`` while another account's
    ///   events wait in the outbox (sync or sign out first).
    public func register(_ request: Components.Schemas.RegisterRequest) async throws {
        try guardPendingEvents(ofAnotherThan: nil)
        let created = try await perform("registering") {
            try await api.register(body: .json(request))
        } success: {
            try $0.created
        }
        try await start(try created.body.json, deviceKey: created.headers.momentumDeviceKey)
    }

    /// Signs this device in. The same user's data already on the device is kept (and its
    /// outbox sent with the next sync); another user's is removed.
    ///
    /// - Parameters:
    ///   - email: The account's email.
    ///   - password: Its password.
    ///   - deviceName: How the device is listed among the account's devices.
    /// - Throws: ``ClientError`` `invalid_credentials`, ``ClientError/busy`` (throttled),
    ///   ``ClientError/offline``, or ``ClientError/pendingEvents`` while another account's
    ///   events wait in the outbox (sync or sign out first).
    public func signIn(email: String, password: String, deviceName: String? = nil) async throws {
        try guardPendingEvents(ofAnotherThan: email)
        let shown = try tokens.read(
            TokenKey(.deviceKey, server: server.absoluteString, email: Self.normalized(email: email)))
        let created = try await perform("signing in") {
            try await api.signIn(
                headers: .init(momentumDeviceKey: shown),
                body: .json(.init(deviceName: deviceName, email: email, password: password)))
        } success: {
            try $0.created
        }
        try await start(try created.body.json, deviceKey: created.headers.momentumDeviceKey)
    }

    /// Signs this device in with an ID token of the app's identity provider (Sign in with
    /// Apple, Firebase Auth, Google…), storing the session as ``signIn(email:password:deviceName:)``
    /// does. The identity's first sign-in creates its account on the server.
    ///
    /// - Parameters:
    ///   - idToken: The ID token the provider gave the app.
    ///   - provider: The provider's name as the server configures it (`apple`, `firebase`).
    ///   - nonce: The raw nonce the app generated for this sign-in, when it used one (the
    ///     token may carry it or its SHA-256 in hex, as Apple's and Firebase's clients send).
    ///   - deviceName: How the device is listed among the account's devices.
    ///   - timeZone: The time zone of an account this sign-in creates (IANA name).
    /// - Throws: ``ClientError`` `invalid_id_token` (the reason in its details),
    ///   `unknown_provider`, `link_required` (the token's email has a password account: sign
    ///   in with it, then link), `identity_provider_unavailable`, ``ClientError/offline``, or
    ///   ``ClientError/pendingEvents`` while the signed-in account's events wait in the outbox.
    public func signIn(
        idToken: String, provider: String, nonce: String? = nil, deviceName: String? = nil,
        timeZone: String? = nil
    ) async throws {
        try guardPendingEvents(ofAnotherThan: nil)
        let created = try await perform("signing in") {
            try await api.signInWithIdToken(
                body: .json(
                    .init(
                        deviceName: deviceName, idToken: idToken, nonce: nonce, provider: provider,
                        timeZone: timeZone)))
        } success: {
            try $0.created
        }
        try await start(try created.body.json, deviceKey: nil)
    }

    /// Ends this device's session and removes the user's data from the device.
    ///
    /// - Parameter discardingPending: Sign out even when recorded events have not reached
    ///   the server (they are lost). By default such a sign-out throws
    ///   ``ClientError/pendingEvents``: sync first.
    /// - Throws: ``ClientError/pendingEvents``; a server that cannot be reached does not
    ///   stop the device from forgetting the session.
    public func signOut(discardingPending: Bool = false) async throws {
        if !discardingPending, !(try database.outbox(limit: 1)).isEmpty { throw ClientError.pendingEvents }
        _ = try? await api.signOut()
        let key = try database.account().map(Self.sessionKey)
        try database.signOut()
        try token.delete(key)
        engine = nil
    }

    /// Refuses to sign another account in over events of the signed-in one that have not
    /// reached the server: signing in as someone else clears the device's data.
    func guardPendingEvents(ofAnotherThan email: String?) throws {
        guard let signedIn = try database.account(), !(try database.outbox(limit: 1)).isEmpty else { return }
        if let email, email.lowercased() == signedIn.email.lowercased() { return }
        throw ClientError.pendingEvents
    }

    func start(_ session: Components.Schemas.Session, deviceKey: String?) async throws {
        // The device stores '' for an account without an email.
        let email = Self.normalized(email: session.email ?? "")
        if !email.isEmpty, let deviceKey, Self.isDeviceKey(deviceKey) {
            try tokens.save(deviceKey, for: TokenKey(.deviceKey, server: server.absoluteString, email: email))
        }
        let previous = try database.account().map(Self.sessionKey)
        let account = StoredAccount(
            server: server.absoluteString, userID: session.userID, email: email, device: session.device.id,
            profileJSON: try Self.encode(session.profile), cursor: 0)
        // The token first: a database that names an account always has its token.
        try token.save(session.token, for: Self.sessionKey(account))
        try database.signIn(account)
        if let previous, previous != Self.sessionKey(account) { try? tokens.delete(previous) }
        engine = nil
        // The device's copy starts from the server's log; offline, it starts on the next sync.
        _ = try? await sync()
    }

    /// Whether the server's `Momentum-Device-Key` answer is one to keep: a key is at most
    /// 128 bytes; an empty or longer one is ignored (the previous key stays).
    ///
    /// The sign-in device key makes this device a known client of the email it signed in
    /// to: the server does not hold its next sign-in back when guesses at the password come
    /// from many addresses. It is opaque, kept per server and email in the ``TokenStore``
    /// (the Keychain on Apple platforms, like the session token; it outlives sign-out) and
    /// shown as the `Momentum-Device-Key` request header with the next sign-in.
    static func isDeviceKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 128
    }

    /// An email as the server compares it: trimmed and lowercased.
    static func normalized(email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    // MARK: Reads from the device

    /// Today's dashboard, computed on the device from the log and the outbox; the server's
    /// of the last sync while the server's rules are newer than the device's
    /// (``compatibility``; ``todayDashboard(at:)`` says which).
    ///
    /// - Parameter now: The instant; by default the clock's.
    /// - Returns: The dashboard. After a sync with nothing recorded since, it encodes
    ///   (`MomentumJSON`) to the same bytes as the server's `GET /v1/today` at `now`.
    /// - Throws: ``ClientError/notSignedIn``.
    public func today(at now: Date? = nil) throws -> TodayReport {
        try todayDashboard(at: now).report
    }

    /// The profile as the server last sent it.
    ///
    /// - Throws: ``ClientError/notSignedIn``.
    public func profile() throws -> Components.Schemas.Profile {
        guard let account = try database.account() else { throw ClientError.notSignedIn }
        do {
            return try MomentumJSON.decoder().decode(
                Components.Schemas.Profile.self, from: Data(account.profileJSON.utf8))
        } catch {
            throw ClientError.corruptDatabase("profile: \(error)")
        }
    }

    /// The rule pack in force (a combination when the account tracks several), with the
    /// logging forms an app renders: each member's `RulePack.forms`, methods and backfill
    /// window, offline, its titles and labels in the profile's language. (`GET /v1/pack`
    /// serves the same to clients in other programming languages.)
    ///
    /// - Throws: ``ClientError/notSignedIn``, or `unknown_pack` for a pack this client does
    ///   not bundle.
    public func pack() throws -> RulePack {
        try Self.pack(of: try profile())
    }

    /// The engine's texts in the profile's language (English when it has none or this
    /// client does not bundle it).
    public func translation() throws -> Translation {
        Self.translation(of: try profile())
    }

    static func translation(of profile: Components.Schemas.Profile) -> Translation {
        profile.language.flatMap(Translation.named) ?? .english
    }

    static func pack(of profile: Components.Schemas.Profile) throws -> RulePack {
        guard let pack = RulePack.named(profile.pack) else {
            throw ClientError.refused("unknown_pack", "this client does not know the rule pack '\(profile.pack)'")
        }
        return pack.translated(translation(of: profile))
    }

    /// Events recorded on this device that the server has not acknowledged yet, oldest first.
    public func pendingEvents() throws -> [PendingEvent] { try database.outbox() }

    /// Events the server refused, newest first.
    public func refusedEvents() throws -> [RefusedEvent] { try database.refused() }

    /// Every event of the user's log that the device holds from the server, in the
    /// server's order.
    public func syncedEvents() throws -> [Event] {
        try database.log().compactMap { Self.decodeEvent($0.body) }
    }

    /// The sequence number up to which the device has the server's log.
    public func cursor() throws -> Int64 { try database.account()?.cursor ?? 0 }

    /// The engine fed with the server's log (in its order, each event detected when it
    /// arrived there), then with the outbox (each detected when it was recorded): the
    /// server's own replay, followed by what the server has not seen yet.
    func localEngine() throws -> MomentumUser {
        if let engine { return engine }
        let profile = try profile()
        var user = MomentumUser(pack: try Self.pack(of: profile), dayStartHour: profile.dayStartHour)
        for logged in try database.log() {
            // As on the server: an event today's limits refuse counts for nothing.
            guard let event = Self.decodeEvent(logged.body) else { continue }
            _ = try? user.append(event, detectedAt: logged.receivedAt)
        }
        for pending in try database.outbox() {
            guard let event = Self.decodeEvent(pending.body) else { continue }
            _ = try? user.append(event, detectedAt: pending.recordedAt)
        }
        engine = user
        return user
    }

    // MARK: Coding

    static func decodeEvent(_ body: String) -> Event? {
        try? MomentumJSON.decoder().decode(Event.self, from: Data(body.utf8))
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try MomentumJSON.encode(value), as: UTF8.self)
    }
}

/// The account signed in on a device.
public struct SignedInAccount: Hashable, Sendable {
    /// The user's id on the server.
    public var userID: String
    /// The account's email; `nil` for an account without one (signed in with an identity
    /// provider that gave none).
    public var email: String?
    /// This device's id among the account's devices.
    public var device: String
    /// The server the device signed in to.
    public var server: String
}

extension MomentumClient {
    /// The server a device's database is signed in to, without opening a client.
    ///
    /// - Parameters:
    ///   - databasePath: The client's SQLite file.
    ///   - tokenStore: The store the client is opened with (by default the platform's),
    ///     where a database of an earlier version moves its secrets.
    /// - Returns: The server's URL as given at sign-in, or `nil` when no account is signed
    ///   in (or the file does not exist yet).
    public static func signedInServer(databasePath: String, tokenStore: (any TokenStore)? = nil) throws -> String? {
        guard FileManager.default.fileExists(atPath: databasePath) else { return nil }
        let secrets = tokenStore ?? defaultTokenStore(databasePath: databasePath)
        return try ClientDatabase(path: databasePath, secrets: secrets).account()?.server
    }
}
