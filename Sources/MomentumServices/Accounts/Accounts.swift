import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// Accounts, device sessions and profiles: registering, signing in and out, the devices a
/// user is signed in on, the profile and its settings.
///
/// The JSON routes and the web app's sign-in, sign-up, sign-out and profile pages all go
/// through here, so a page and the API never register, list or revoke two ways.
public struct Accounts: Sendable {
    let store: any AccountStore & AccountArchives
    let configuration: ServerConfiguration
    /// bcrypt's own pool, with a bounded queue.
    public let passwords: any PasswordHashing
    let throttle: SignInThrottle
    /// The keys of devices that signed in before, which the account's lockout of unknown
    /// clients lets through.
    public let devices: SignInDevices
    /// A bcrypt hash of nothing in particular, checked when an email has no account so
    /// that signing in takes as long either way.
    public let decoyHash: String
    /// Device sessions verified in the last few seconds.
    public let sessions: SessionCache
    let changes: ChangePublisher
    /// The notifications.
    public let notifications: Notifications

    private func now() -> Date { configuration.clock() }

    /// Validates a registration, creates the account and its first device session.
    ///
    /// Every field at fault is named at once, not one per attempt.
    ///
    /// - Parameter address: The client's address: its password checks running at once are
    ///   limited as a sign-in's are.
    public func register(_ body: RegisterRequest, address: String) async throws -> SessionResponse {
        let email = Account.normalize(email: body.email)
        var problems: [ServiceError.Field] = []
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") || email.count > 254
            || email.contains(where: \.isWhitespace) || Self.hasControlCharacters(email)
        {
            problems.append(.init(field: "email", issue: "is not an email address"))
        }
        if body.password.count < 8 || body.password.utf8.count > 72 {
            problems.append(
                .init(
                    field: "password",
                    issue: "must be 8 to 72 characters long (accents and emoji count as more than one)"))
        }
        let now = now()
        let profile = Profile(
            displayName: body.displayName.trimmingCharacters(in: .whitespaces), timeZone: body.timeZone ?? "UTC",
            dayStartHour: body.dayStartHour ?? 0,
            pack: Profile.canonicalPack(body.packs?.joined(separator: "+") ?? body.pack ?? configuration.pack),
            language: body.language, updatedAt: now)
        if body.packs?.isEmpty == true {
            problems.append(.init(field: "packs", issue: "must name at least one: habits, ollie, savings or growth"))
        } else if body.pack != nil, body.packs != nil {
            problems.append(.init(field: "packs", issue: "give pack or packs, not both"))
        }
        do {
            try Self.validate(profile)
        } catch let error as ServiceError where !problems.isEmpty {
            problems += error.fields
        }
        if !problems.isEmpty {
            throw ServiceError(
                .invalid, "invalid_input",
                problems.map { "\($0.field) \($0.issue)" }.joined(separator: "; "),
                fields: problems)
        }
        if try await store.account(email: email) != nil {
            throw ServiceError(
                .conflict, "email_taken", "an account with this email exists; sign in instead",
                fields: [.init(field: "email", issue: "is taken")])
        }
        let attempt = try await throttle.begin([addressKey(address)], now: uptime())
        defer { throttle.end(attempt, succeeded: true, now: uptime()) }
        let hash = try await passwords.hash(body.password, cost: configuration.bcryptCost)
        let account = Account(id: Tokens.id("u_"), email: email, passwordHash: hash, createdAt: now)
        // The new account's address is not remembered as one that signed in to it: mass
        // registrations would otherwise crowd real owners' addresses out of that memory.
        // Its client has the device key from the answer.
        try await store.createAccount(account, profile: profile)
        try await notifications.touch(account.id)
        return try await startSession(account, profile: profile, deviceName: body.deviceName)
    }

    /// Checks an email and password and starts a device session.
    ///
    /// Failed attempts are throttled per email from this client, per address, and per
    /// email across the clients that never signed in to it (``SignInThrottle``): a
    /// throttled attempt gets 429 before any password work, with the same answer whether
    /// or not the email has an account.
    ///
    /// - Parameters:
    ///   - address: The client's address.
    ///   - deviceKey: The key this client was given when it last signed in to an account
    ///     (``SignInDevices``), if it shows one: for this email, the client is known.
    public func signIn(_ body: SignInRequest, address: String, deviceKey: String? = nil) async throws -> SessionResponse
    {
        let email = Account.normalize(email: body.email)
        var account: Account?
        // A key is checked against the account's password hash (a key made before the
        // password changed is no key): only a client that shows one costs this read.
        var device: String?
        if deviceKey != nil, !Self.hasControlCharacters(email), let owner = try await store.account(email: body.email) {
            device = await devices.device(showing: deviceKey, for: email, passwordHash: owner.passwordHash, now: now())?
                .id
        }
        let valid = try await throttledPasswordCheck(email: email, client: .init(address: address, device: device)) {
            // An address with a control character (NUL, which PostgreSQL cannot even hold in
            // text) has no account: it is not looked up, and costs the same bcrypt work.
            account = Self.hasControlCharacters(email) ? nil : try await store.account(email: body.email)
            // A missing account costs the same bcrypt work as a wrong password, so timing
            // does not reveal which emails have accounts.
            let matches = try await passwords.verify(body.password, hash: account?.passwordHash ?? decoyHash)
            return account != nil && matches
        }
        guard let account, valid, let profile = try await store.profile(of: account.id) else {
            throw ServiceError(.unauthenticated, "invalid_credentials", "wrong email or password")
        }
        return try await startSession(account, profile: profile, deviceName: body.deviceName)
    }

    /// Changes the caller's password after checking the current one, and signs out every
    /// other device when asked (the one that changed it stays signed in).
    ///
    /// A wrong current password counts as a failed sign-in for the account from this
    /// address and for the address (``SignInThrottle``), so a stolen session cannot guess
    /// it at leisure.
    ///
    /// - Returns: How many devices were signed out.
    /// - Throws: 422 naming the new password when it is too short or too long, 403 when the
    ///   current password is wrong, 429 when throttled.
    public func changePassword(_ body: ChangePasswordRequest, caller: Caller, address: String) async throws -> Int {
        guard body.newPassword.count >= 8, body.newPassword.utf8.count <= 72 else {
            throw ServiceError(
                .invalid, "invalid_input",
                "newPassword must be 8 to 72 characters long (accents and emoji count as more than one)",
                fields: [
                    .init(
                        field: "newPassword",
                        issue: "must be 8 to 72 characters long (accents and emoji count as more than one)")
                ])
        }
        guard let account = try await store.account(id: caller.user) else { throw ServiceError.notFound("account") }
        // The caller holds a live session of the account: a known client.
        let valid = try await throttledPasswordCheck(
            email: account.email, client: .init(address: address, signedIn: true)
        ) {
            try await passwords.verify(body.currentPassword, hash: account.passwordHash)
        }
        guard valid else {
            throw ServiceError(
                .forbidden, "wrong_password", "the current password is not right",
                fields: [.init(field: "currentPassword", issue: "is not the account's password")])
        }
        let hash = try await passwords.hash(body.newPassword, cost: configuration.bcryptCost)
        guard
            let ended = try await store.changePassword(
                to: hash, of: caller.user, keeping: body.signOutOtherDevices == true ? caller.tokenHash : nil)
        else { throw ServiceError.notFound("account") }
        for tokenHash in ended {
            sessions.forget(tokenHash: tokenHash)
            await changes.relayRevocation(of: caller.user, tokenHash: tokenHash)
        }
        return ended.count
    }

    /// The whole account as a tar file (``AccountArchive/tar()``): the log, the profile, the
    /// memories with their photos and the celebrations, as `momentum export` writes it.
    public func archive(of user: String) async throws -> Data {
        try await store.exportAccount(user).tar()
    }

    /// Creates an account on this server from an archive another server (or `momentum
    /// export`) wrote: the operator's import (`POST /v1/admin/archives`).
    ///
    /// - Throws: 422 listing each problem of the archive (nothing is imported then), 409
    ///   when its account id or email is taken here.
    public func importArchive(_ tar: Data) async throws -> AccountArchive {
        let archive: AccountArchive
        do {
            archive = try AccountArchive.read(tar: tar, origin: "the archive")
        } catch {
            throw ServiceError(
                .invalid, "invalid_archive", error.message,
                fields: error.problems.map { problem in
                    .init(field: problem.line.map { "\(problem.file):\($0)" } ?? problem.file, issue: problem.reason)
                })
        }
        if try await store.account(id: archive.account.id) != nil {
            throw ServiceError(
                .conflict, "account_exists", "this server already has the account '\(archive.account.id)'",
                fields: [.init(field: "account", issue: "exists")])
        }
        if try await store.account(email: archive.account.email) != nil {
            throw ServiceError(
                .conflict, "email_taken", "an account with the email \(archive.account.email) exists on this server",
                fields: [.init(field: "email", issue: "is taken")])
        }
        try await store.importAccount(archive, now: now())
        try await notifications.touch(archive.account.id)
        return archive
    }

    /// The devices the user is signed in on: their live sessions, the most recently used
    /// first.
    public func devices(of user: String) async throws -> [DeviceSession] {
        let now = now()
        return try await store.sessions(of: user)
            .filter { $0.isLive(at: now, lifetime: configuration.sessionLifetime) }
            .sorted { ($0.lastSeenAt, $0.tokenHash) > ($1.lastSeenAt, $1.tokenHash) }
    }

    /// Signs one of the user's devices out, by its id (``Tokens/deviceID(_:)``).
    ///
    /// - Throws: 404 when the user has no device of that id.
    public func revokeDevice(_ id: String, of user: String) async throws {
        guard let session = try await store.sessions(of: user).first(where: { Tokens.deviceID($0.tokenHash) == id })
        else { throw ServiceError.notFound("device '\(id)'") }
        try await revoke(user: user, tokenHash: session.tokenHash)
    }

    /// Ends one device session, in the store and then here (in that order, so that a
    /// request verifying the token meanwhile cannot cache the session again), and tells
    /// the other instances.
    public func revoke(user: String, tokenHash: String) async throws {
        try await store.deleteSession(of: user, tokenHash: tokenHash)
        sessions.forget(tokenHash: tokenHash)
        await changes.relayRevocation(of: user, tokenHash: tokenHash)
    }

    /// Deletes the account with everything it holds, and signs out every device.
    public func deleteAccount(_ user: String) async throws {
        try await store.deleteAccount(id: user)
        sessions.forget(user: user)
        await changes.relayRevocation(of: user, tokenHash: "*")
    }

    /// The user's account (its email, when it was made).
    ///
    /// - Throws: 404 when the account is gone.
    public func account(of user: String) async throws -> Account {
        guard let account = try await store.account(id: user) else { throw ServiceError.notFound("account") }
        return account
    }

    /// The user's profile.
    ///
    /// - Throws: 404 when the account is gone.
    public func profile(of user: String) async throws -> Profile {
        guard let profile = try await store.profile(of: user) else { throw ServiceError.notFound("profile") }
        return profile
    }

    /// Changes the fields of the profile a patch names, validates the result, stores it,
    /// and tells the user's other devices.
    public func updateProfile(_ patch: ProfilePatch, caller: Caller) async throws -> Profile {
        var profile = patch.applied(to: try await profile(of: caller.user))
        profile.updatedAt = now()
        try Self.validate(profile)
        try await store.updateProfile(profile, for: caller.user)
        // Its zone, day start or notification preferences may move the next notification.
        try await notifications.touch(caller.user)
        changes.publish(
            Change(kind: "profile", device: Tokens.deviceID(caller.tokenHash), at: profile.updatedAt),
            to: caller.user)
        return profile
    }

    /// Whether `text` holds a control character (U+0000–U+001F, U+007F–U+009F): no email
    /// address does.
    public static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Validates a profile, naming the field at fault.
    public static func validate(_ profile: Profile) throws {
        do {
            try profile.validate()
        } catch {
            // The field at fault, and the issue beside it without the words that name it
            // ("display name must have …" → displayName: "must have …").
            let subjects = [
                ("display name ", "displayName"), ("time zone ", "timeZone"), ("day start hour ", "dayStartHour"),
                ("reminder hour ", "notifications.reminderHour"), ("weekly hour ", "notifications.weeklyHour"),
                ("language ", "language"),
            ]
            let (field, issue) =
                subjects.first { error.message.hasPrefix($0.0) }.map {
                    ($0.1, String(error.message.dropFirst($0.0.count)))
                }
                ?? (Self.notificationField(error.message) ?? "pack", error.message)
            throw ServiceError(
                .invalid, error.code == .unknownPack ? "unknown_pack" : "invalid_input", error.message,
                fields: [.init(field: field, issue: issue)])
        }
    }

    /// The notification preference a validation message is about, if one.
    public static func notificationField(_ message: String) -> String? {
        if message.contains("reminder time") { return "notifications.reminderTimes" }
        if message.contains("quiet hours") { return "notifications.quietHours" }
        if message.contains("daily cap") { return "notifications.dailyCap" }
        if message.contains("channel") || message.contains("inbox") { return "notifications.channels" }
        return nil
    }

    /// Who checks a password, as the sign-in throttle tells clients apart.
    public struct Client: Sendable {
        /// The client's address.
        public var address: String
        /// The id of the device key it showed for this email (``SignInDevices``).
        public var device: String?
        /// Whether it holds a live session of the account (a password change).
        public var signedIn = false
    }

    /// The addresses an email's failures from unknown clients must come from before they
    /// hold such clients back: one guessing address (and the owner's own typos from
    /// another) never does.
    public static let guessingAddresses = 3

    /// Runs a password check under the sign-in throttle: a check that `verify` answers
    /// wrong counts as a failure of the email from this client (its device key, else its
    /// address), of the address, and, when the client is not known to the account (no
    /// device key, no session, not an address that signed in to it lately), of the email
    /// across such clients, which holds them back once its failures came from
    /// ``guessingAddresses`` addresses. A right one resets the email's failures from this
    /// client and makes its address known. Only a password that was checked counts: a
    /// check that never ran (bcrypt busy, the store failed: `verify` threw) is not held
    /// against the user.
    ///
    /// - Throws: 429 before `verify` runs when a key of the attempt is throttled.
    private func throttledPasswordCheck(
        email: String, client: Client, verify: () async throws -> Bool
    ) async throws -> Bool {
        let now = uptime()
        let own = client.device.map { "device:\($0) " } ?? "from:\(client.address) "
        let ownKey = SignInThrottle.Key(
            own + email, .init(free: configuration.signInFreeFailuresPerAccount, concurrent: 1))
        var keys = [ownKey, addressKey(client.address)]
        if client.device == nil, !client.signedIn, !throttle.knows(client.address, signedInTo: email, now: now) {
            keys.append(
                .init(
                    "email:" + email,
                    .init(
                        free: configuration.signInFreeFailuresAcrossAddresses, concurrent: 2,
                        sources: Self.guessingAddresses, concurrentFromSources: 1),
                    source: client.address))
        }
        let attempt = try await throttle.begin(keys, now: now)
        var succeeded: Bool?
        defer {
            throttle.end(attempt, succeeded: succeeded, resetting: ownKey.name, now: uptime())
            if succeeded == true { throttle.remember(client.address, signedInTo: email, now: uptime()) }
        }
        let valid = try await verify()
        succeeded = valid
        return valid
    }

    /// The key a client that signed in to the account of `email` shows next time: the one
    /// it showed, when that is a live key for this email and its password issued less than
    /// ``SignInDevices/renewal`` ago, else a new one (`nil` when the store cannot give the
    /// account or the secret now: the client signs in without one next time).
    public func deviceKey(for email: String, showing shown: String?) async -> String? {
        let email = Account.normalize(email: email)
        let now = now()
        guard let account = try? await store.account(email: email) else { return nil }
        if let device = await devices.device(showing: shown, for: email, passwordHash: account.passwordHash, now: now),
            Double(SignInDevices.seconds(now) - device.issued) < SignInDevices.renewal
        {
            return shown
        }
        return try? await devices.issue(for: email, passwordHash: account.passwordHash, now: now)
    }

    /// The sign-in throttle's key of a client address.
    private func addressKey(_ address: String) -> SignInThrottle.Key {
        .init(
            "address:" + address,
            .init(
                free: configuration.signInFreeFailuresPerAddress,
                concurrent: max(1, configuration.passwordChecksPerAddress)))
    }

    /// Seconds on a monotonic clock, for the sign-in throttle.
    private func uptime() -> Double { configuration.signInClock() }

    private func startSession(
        _ account: Account, profile: Profile, deviceName: String?
    ) async throws
        -> SessionResponse
    {
        let name = (deviceName?.trimmingCharacters(in: .whitespaces)).flatMap {
            $0.isEmpty ? nil : String($0.prefix(100))
        }
        let (token, hash) = Tokens.make(user: account.id)
        let session = DeviceSession(
            userID: account.id, tokenHash: hash, deviceName: name ?? "Unnamed device", createdAt: now())
        try await store.saveSession(session)
        return SessionResponse(
            userID: account.id, email: account.email, token: token, device: DeviceView(session, current: hash),
            profile: ProfileView(profile))
    }
}
