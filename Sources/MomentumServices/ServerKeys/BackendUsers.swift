import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// An app's users as its backend sees them, by the app's own ids: recording their events,
/// reading their state, creating, updating and deleting them, with a server key.
///
/// The app's id is namespaced by the key's app: the same id under two apps is two users,
/// and a key reaches only its own app's. A user is created on its first event (or a `PUT`),
/// as an account without email or password, with the time zone the backend sends.
public struct BackendUsers: Sendable {
    let store: any AccountStore & ServerKeys
    let ingest: EventIngest
    let dashboard: Dashboard
    let accounts: Accounts
    let changes: ChangePublisher
    let now: @Sendable () -> Date
    let pack: String
    let maxEventsPerRequest: Int
    /// The app users named lately (the device sessions' cache: an account's deletion,
    /// here or relayed, forgets them).
    let cache: SessionCache?
    let relayListening: (@Sendable () -> Bool)?

    /// Creates the use case.
    public init(
        store: any AccountStore & ServerKeys, ingest: EventIngest, dashboard: Dashboard, accounts: Accounts,
        changes: ChangePublisher, configuration: ServerConfiguration, cache: SessionCache? = nil,
        relayListening: (@Sendable () -> Bool)? = nil
    ) {
        self.cache = cache
        self.relayListening = relayListening
        self.store = store
        self.ingest = ingest
        self.dashboard = dashboard
        self.accounts = accounts
        self.changes = changes
        now = configuration.clock
        pack = configuration.pack
        maxEventsPerRequest = configuration.maxEventsPerRequest
    }

    /// The Momentum user an app's id names for this key, if it exists.
    ///
    /// - Throws: `.invalid` for an id out of bounds.
    public func user(_ appUserID: String, key: ServerKeyCaller) async throws -> AppUser? {
        try Self.validate(appUserID)
        let now = now()
        if cacheTrusted, let cached = cache?.appUser(app: key.app, appUserID: appUserID, now: now) {
            return cached
        }
        let user = try await store.appUser(app: key.app, appUserID: appUserID)
        if let user { cache?.remember(user, now: now) }
        return user
    }

    /// Whether cached app users may be trusted: always on a single instance; with other
    /// instances only while the relay is receiving their accounts' deletions.
    var cacheTrusted: Bool { relayListening?() ?? true }

    /// The caller the events of an app's user are recorded as: the key stands for a device
    /// of the user, one id per key (`Tokens.deviceID` of the key's id).
    public static func caller(_ user: AppUser, key: ServerKeyCaller) -> Caller {
        Caller(user: user.userID, tokenHash: Tokens.hash("server-key:" + key.id), deviceName: "server key \(key.name)")
    }

    /// Checks a batch before anything is created for it: its size and its ids, as a push
    /// checks them (the engine judges the events themselves once the user exists).
    ///
    /// - Throws: `.invalid` naming the events at fault.
    public func validate(_ events: [Event]) throws {
        guard !events.isEmpty else {
            throw ServiceError.invalid("send one event (`event`) or a batch (`events`)", field: "events")
        }
        guard events.count <= maxEventsPerRequest else {
            throw ServiceError(
                .tooLarge, "too_many_events", "a request may carry at most \(maxEventsPerRequest) events")
        }
        var problems: [ServiceError.Field] = []
        var seen = Set<String>()
        for (index, event) in events.enumerated() {
            if event.id.isEmpty || event.id.count > 128 {
                problems.append(.init(field: "events[\(index)].id", issue: "must have 1 to 128 characters"))
            } else if !seen.insert(event.id).inserted {
                problems.append(.init(field: "events[\(index)].id", issue: "appears twice in this batch"))
            }
        }
        if !problems.isEmpty { throw ServiceError.invalid(problems) }
    }

    /// The app's user, created when it does not exist yet (with `timeZone`, `UTC` when
    /// absent, and the server's default pack).
    ///
    /// - Returns: The user, and whether this call created it.
    /// - Throws: `.invalid` for an id or a profile field out of bounds (nothing is created).
    public func findOrCreate(
        _ appUserID: String, key: ServerKeyCaller, timeZone: String?, displayName: String? = nil,
        language: String? = nil
    ) async throws -> (user: AppUser, created: Bool) {
        if let existing = try await user(appUserID, key: key) { return (existing, false) }
        let now = now()
        let name = (displayName ?? "").trimmingCharacters(in: .whitespaces)
        let profile = Profile(
            displayName: name.isEmpty ? String(appUserID.prefix(50)) : name, timeZone: timeZone ?? "UTC",
            dayStartHour: 0, pack: Profile.canonicalPack(pack), language: language, updatedAt: now)
        try Accounts.validate(profile, packs: store.packLibrary)
        let id = Tokens.id("u_")
        let made = try await store.provisionAppUser(
            AppUser(app: key.app, appUserID: appUserID, userID: id),
            account: Account(id: id, email: nil, passwordHash: nil, createdAt: now), profile: profile)
        return (made, made.userID == id)
    }

    /// Records events for an app's user, creating the user on its first.
    ///
    /// - Returns: The user, whether this call created it, and what the push did.
    public func record(
        _ events: [Event], for appUserID: String, timeZone: String?, key: ServerKeyCaller
    ) async throws -> (user: AppUser, created: Bool, push: PushResponse) {
        try key.require("events:write")
        try Self.validate(appUserID)
        try validate(events)
        let (user, created) = try await findOrCreate(appUserID, key: key, timeZone: timeZone)
        let push = try await ingest.append(events, caller: Self.caller(user, key: key))
        return (user, created, push)
    }

    /// The app's user's state: today's dashboard (its habits with their streaks) and the
    /// wallet.
    ///
    /// - Throws: `.notFound` `user_not_found` for a user never created.
    public func state(_ appUserID: String, key: ServerKeyCaller) async throws -> BackendUserState {
        try key.require("state:read")
        let user = try await existing(appUserID, key: key)
        let today = try await dashboard.today(user.userID)
        let wallet = try await dashboard.wallet(user.userID).wallet
        return BackendUserState(
            app: user.app, appUserID: user.appUserID, userID: user.userID, today: today, wallet: wallet)
    }

    /// Creates the app's user, or changes its time zone, display name or language.
    ///
    /// - Returns: The user, its profile, and whether this call created it.
    public func put(
        _ appUserID: String, timeZone: String?, displayName: String?, language: String?, key: ServerKeyCaller
    ) async throws -> (user: AppUser, profile: Profile, created: Bool) {
        try key.require("users:manage")
        let (user, created) = try await findOrCreate(
            appUserID, key: key, timeZone: timeZone, displayName: displayName, language: language)
        if created {
            return (user, try await accounts.profile(of: user.userID), true)
        }
        // An absent language keeps the profile's (`.some(nil)` would clear it).
        let newLanguage: String?? = language.map { Optional($0) }
        let patch = ProfilePatch(displayName: displayName, timeZone: timeZone, language: newLanguage)
        let profile = try await accounts.updateProfile(patch, caller: Self.caller(user, key: key))
        return (user, profile, false)
    }

    /// Deletes the app's user with all its data.
    ///
    /// - Throws: `.notFound` `user_not_found` for a user never created.
    public func delete(_ appUserID: String, key: ServerKeyCaller) async throws {
        try key.require("users:manage")
        let user = try await existing(appUserID, key: key)
        try await accounts.deleteAccount(user.userID)
    }

    private func existing(_ appUserID: String, key: ServerKeyCaller) async throws -> AppUser {
        guard let user = try await user(appUserID, key: key) else {
            throw ServiceError(.notFound, "user_not_found", "this app has no user '\(appUserID)'")
        }
        return user
    }

    /// An app's user id: 1 to 128 bytes, no control characters.
    static func validate(_ appUserID: String) throws {
        guard (1...128).contains(appUserID.utf8.count), !Accounts.hasControlCharacters(appUserID) else {
            throw ServiceError.invalid(
                "an app's user id has 1 to 128 bytes, without control characters", field: "appUserId")
        }
    }
}

/// An app's user's state, as `GET /v1/server/users/{appUserId}` answers it.
public struct BackendUserState: Encodable, Sendable {
    /// The app.
    public var app: String
    /// The app's id for the user.
    public var appUserID: String
    /// The Momentum user.
    public var userID: String
    /// Today's dashboard: the habits with their streaks.
    public var today: TodayReport
    /// The wallet.
    public var wallet: Wallet
}
