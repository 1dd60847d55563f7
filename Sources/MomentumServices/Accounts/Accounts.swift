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
    /// Queues a new account's email-verification mail (``AccountRecovery/welcome(_:)``).
    var welcome: (@Sendable (String) -> Void)? = nil

    /// The current instant.
    func now() -> Date { configuration.clock() }

    /// Validates a registration, creates the account and its first device session.
    ///
    /// Every field at fault is named at once, not one per attempt.
    ///
    /// - Parameters:
    ///   - body: The registration, as the client sent it.
    ///   - address: The client's address: its password checks running at once are
    ///     limited as a sign-in's are.
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
            try Self.validate(profile, packs: store.packLibrary)
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
        welcome?(account.id)
        return try await startSession(account, profile: profile, deviceName: body.deviceName)
    }

    /// Checks an email and password and starts a device session.
    ///
    /// Failed attempts are throttled per email from this client, per address, and per
    /// email across the clients that never signed in to it (``SignInThrottle``): a
    /// throttled attempt gets `.tooMany` before any password work, with the same answer whether
    /// or not the email has an account.
    ///
    /// - Parameters:
    ///   - address: The client's address.
    ///   - body: The email, password and device name, as the client sent them.
    ///   - deviceKey: The key this client was given when it last signed in to an account
    ///     (``SignInDevices``), if it shows one: for this email, the client is known.
    public func signIn(_ body: SignInRequest, address: String, deviceKey: String? = nil) async throws -> SessionResponse
    {
        let email = Account.normalize(email: body.email)
        var account: Account?
        // A key is checked against the account's password hash (a key made before the
        // password changed is no key): only a client that shows one costs this read.
        var device: String?
        if deviceKey != nil, !Self.hasControlCharacters(email),
            let ownerHash = try await store.account(email: body.email)?.passwordHash
        {
            device = await devices.device(showing: deviceKey, for: email, passwordHash: ownerHash, now: now())?.id
        }
        let valid = try await throttledPasswordCheck(email: email, client: .init(address: address, device: device)) {
            // An address with a control character (NUL, which PostgreSQL cannot even hold in
            // text) has no account: it is not looked up, and costs the same bcrypt work.
            account = Self.hasControlCharacters(email) ? nil : try await store.account(email: body.email)
            // A missing account, or one without a password (an app's backend's user, an
            // identity provider's), costs the same bcrypt work as a wrong password and gets
            // the same answer, so timing does not reveal which emails have accounts.
            let hash = account?.passwordHash
            let matches = try await passwords.verify(body.password, hash: hash ?? decoyHash)
            return hash != nil && matches
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
    /// - Throws: `.invalid` naming the new password when it is too short or too long, `.forbidden` when the
    ///   current password is wrong, `.tooMany` when throttled.
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
        // The caller holds a live session of the account: a known client. An account without
        // a password has no current one to give: any answer is wrong, after the same work.
        let valid = try await throttledPasswordCheck(
            email: account.email ?? "user:" + account.id, client: .init(address: address, signedIn: true)
        ) {
            let matches = try await passwords.verify(body.currentPassword, hash: account.passwordHash ?? decoyHash)
            return account.passwordHash != nil && matches
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
    /// - Throws: `.tooMany` before `verify` runs when a key of the attempt is throttled.
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
        guard let account = try? await store.account(email: email), let hash = account.passwordHash else {
            return nil
        }
        if let device = await devices.device(showing: shown, for: email, passwordHash: hash, now: now),
            Double(SignInDevices.seconds(now) - device.issued) < SignInDevices.renewal
        {
            return shown
        }
        return try? await devices.issue(for: email, passwordHash: hash, now: now)
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

    /// A new device session of the account (a password, an identity provider or a server
    /// key vouched for it), named `deviceName` (trimmed to 100 characters).
    func startSession(
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
