import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumStore

/// A device's session as listed to its owner.
struct DeviceView: Codable {
    var id: String
    var name: String
    var createdAt: Date
    var lastSeenAt: Date
    var expiresAt: Date?
    var current: Bool

    init(_ session: DeviceSession, current: String?) {
        id = Tokens.deviceID(session.tokenHash)
        name = session.deviceName
        createdAt = session.createdAt
        lastSeenAt = session.lastSeenAt
        expiresAt = session.expiresAt
        self.current = session.tokenHash == current
    }
}

/// The answer to registering or signing in: the new device's bearer token.
struct SessionResponse: Codable {
    var userID: String
    var email: String
    var token: String
    var device: DeviceView
    var profile: ProfileView
}

/// A profile as the API shows it.
struct ProfileView: Codable {
    var displayName: String
    var timeZone: String
    var dayStartHour: Int
    var pack: String
    var celebrationStyle: CelebrationStyle
    var reduceMotion: Bool
    var doNotDisturb: Bool
    var notifications: NotificationPreferences
    var updatedAt: Date

    init(_ profile: Profile) {
        displayName = profile.displayName
        timeZone = profile.timeZone
        dayStartHour = profile.dayStartHour
        pack = profile.pack
        celebrationStyle = profile.preferences.style
        reduceMotion = profile.preferences.accessibility.reduceMotion
        doNotDisturb = profile.preferences.doNotDisturb
        notifications = profile.notifications
        updatedAt = profile.updatedAt
    }
}

extension Routes {
    func addAccountRoutes(public group: RouterGroup<MomentumContext>, authenticated: RouterGroup<MomentumContext>) {
        group.post("accounts") { request, context in try await register(request, context) }
        group.post("sessions") { request, context in try await signIn(request, context) }
        authenticated.delete("sessions/current") { _, context in
            let caller = try context.requireCaller()
            try await server.revoke(user: caller.user, tokenHash: caller.tokenHash)
            return Response(status: .noContent)
        }
        authenticated.get("devices") { _, context in
            let caller = try context.requireCaller()
            let sessions = try await server.store.sessions(of: caller.user)
            return try JSONIO.response(["devices": sessions.map { DeviceView($0, current: caller.tokenHash) }])
        }
        authenticated.delete("devices/:device") { _, context in
            let caller = try context.requireCaller()
            let id = try context.parameter("device")
            let sessions = try await server.store.sessions(of: caller.user)
            guard let session = sessions.first(where: { Tokens.deviceID($0.tokenHash) == id }) else {
                throw APIError.notFound("device '\(id)'")
            }
            try await server.revoke(user: caller.user, tokenHash: session.tokenHash)
            return Response(status: .noContent)
        }
        authenticated.delete("account") { _, context in
            let caller = try context.requireCaller()
            try await server.store.deleteAccount(id: caller.user)
            server.sessions.forget(user: caller.user)
            await server.relayRevocation(of: caller.user, tokenHash: "*")
            return Response(status: .noContent)
        }
        authenticated.get("profile") { _, context in
            let caller = try context.requireCaller()
            guard let profile = try await server.store.profile(of: caller.user) else {
                throw APIError.notFound("profile")
            }
            return try JSONIO.response(ProfileView(profile))
        }
        authenticated.patch("profile") { request, context in
            let caller = try context.requireCaller()
            let patch = try await JSONIO.decode(
                ProfilePatch.self, from: request, limit: server.configuration.maxBodyBytes)
            guard var profile = try await server.store.profile(of: caller.user) else {
                throw APIError.notFound("profile")
            }
            profile = patch.applied(to: profile)
            profile.updatedAt = server.now()
            try validate(profile)
            try await server.store.updateProfile(profile, for: caller.user)
            server.publish(
                Change(kind: "profile", device: Tokens.deviceID(caller.tokenHash), at: profile.updatedAt),
                to: caller.user)
            return try JSONIO.response(ProfileView(profile))
        }
    }

    /// Validates a profile, naming the field at fault.
    func validate(_ profile: Profile) throws {
        do {
            try profile.validate()
        } catch {
            // The field at fault, and the issue beside it without the words that name it
            // ("display name must have …" → displayName: "must have …").
            let subjects = [
                ("display name ", "displayName"), ("time zone ", "timeZone"), ("day start hour ", "dayStartHour"),
                ("reminder hour ", "notifications.reminderHour"),
            ]
            let (field, issue) =
                subjects.first { error.message.hasPrefix($0.0) }.map {
                    ($0.1, String(error.message.dropFirst($0.0.count)))
                }
                ?? ("pack", error.message)
            throw APIError(
                .unprocessableContent, error.code == .unknownPack ? "unknown_pack" : "invalid_input", error.message,
                details: [.init(field: field, issue: issue)])
        }
    }

    func register(_ request: Request, _ context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(RegisterRequest.self, from: request, limit: 16_384)
        return try JSONIO.response(try await createAccount(body, address: context.addressKey), status: .created)
    }

    /// Validates a registration, creates the account and its first device session.
    ///
    /// - Parameter address: The client's address: its password checks running at once are
    ///   limited as a sign-in's are.
    func createAccount(_ body: RegisterRequest, address: String) async throws -> SessionResponse {
        let email = Account.normalize(email: body.email)
        var problems: [APIError.Detail] = []
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") || email.count > 254
            || email.contains(where: \.isWhitespace)
        {
            problems.append(.init(field: "email", issue: "is not an email address"))
        }
        if body.password.count < 8 || body.password.utf8.count > 72 {
            problems.append(.init(field: "password", issue: "must have 8 to 72 bytes"))
        }
        let now = server.now()
        let profile = Profile(
            displayName: body.displayName.trimmingCharacters(in: .whitespaces), timeZone: body.timeZone ?? "UTC",
            dayStartHour: body.dayStartHour ?? 0, pack: body.pack ?? server.configuration.pack, updatedAt: now)
        do {
            try validate(profile)
        } catch let error as APIError where !problems.isEmpty {
            // Every field at fault at once, not one per attempt.
            problems += error.details
        }
        if !problems.isEmpty {
            throw APIError(
                .unprocessableContent, "invalid_input",
                problems.map { "\($0.field) \($0.issue)" }.joined(separator: "; "),
                details: problems)
        }
        if try await server.store.account(email: email) != nil {
            throw APIError(
                .conflict, "email_taken", "an account with this email exists; sign in instead",
                details: [.init(field: "email", issue: "is taken")])
        }
        let throttle = server.signInThrottle
        let attempt = try await throttle.begin([addressKey(address)], now: uptime())
        defer { throttle.end(attempt, succeeded: true, now: uptime()) }
        let hash = try await server.passwords.hash(body.password, cost: server.configuration.bcryptCost)
        let account = Account(id: Tokens.id("u_"), email: email, passwordHash: hash, createdAt: now)
        try await server.store.createAccount(account, profile: profile)
        return try await startSession(account, profile: profile, deviceName: body.deviceName)
    }

    func signIn(_ request: Request, _ context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(SignInRequest.self, from: request, limit: 16_384)
        return try JSONIO.response(try await signIn(body, address: context.addressKey), status: .created)
    }

    /// Checks an email and password and starts a device session.
    ///
    /// Failed attempts are throttled per email and per address (``SignInThrottle``): a
    /// throttled attempt gets 429 before any password work, with the same answer whether
    /// or not the email has an account.
    func signIn(_ body: SignInRequest, address: String) async throws -> SessionResponse {
        let configuration = server.configuration
        let email = Account.normalize(email: body.email)
        let emailKey = "email:" + email
        let throttle = server.signInThrottle
        let attempt = try await throttle.begin(
            [
                (emailKey, .init(free: configuration.signInFreeFailuresPerAccount, concurrent: 1)),
                addressKey(address),
            ], now: uptime())
        // Only a password that was checked and wrong counts as a failure: a sign-in that
        // got a 503 because bcrypt was busy (or the store failed) is not held against the user.
        var succeeded: Bool?
        defer { throttle.end(attempt, succeeded: succeeded, resetting: emailKey, now: uptime()) }
        let account = try await server.store.account(email: body.email)
        // A missing account costs the same bcrypt work as a wrong password, so timing
        // does not reveal which emails have accounts.
        let valid = try await server.passwords.verify(body.password, hash: account?.passwordHash ?? server.decoyHash)
        succeeded = account != nil && valid
        guard let account, valid, let profile = try await server.store.profile(of: account.id) else {
            throw APIError(.unauthorized, "invalid_credentials", "wrong email or password")
        }
        return try await startSession(account, profile: profile, deviceName: body.deviceName)
    }

    /// The sign-in throttle's key and policy of a client address.
    private func addressKey(_ address: String) -> (key: String, policy: SignInThrottle.Policy) {
        (
            "address:" + address,
            .init(
                free: server.configuration.signInFreeFailuresPerAddress,
                concurrent: max(1, server.configuration.passwordChecksPerAddress))
        )
    }

    /// Seconds on a monotonic clock, for the sign-in throttle.
    private func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private func startSession(
        _ account: Account, profile: Profile, deviceName: String?
    ) async throws
        -> SessionResponse
    {
        let name = (deviceName?.trimmingCharacters(in: .whitespaces)).flatMap {
            $0.isEmpty ? nil : String($0.prefix(100))
        }
        let (token, hash) = Tokens.make(user: account.id)
        let now = server.now()
        let session = DeviceSession(
            userID: account.id, tokenHash: hash, deviceName: name ?? "Unnamed device", createdAt: now)
        try await server.store.saveSession(session)
        return SessionResponse(
            userID: account.id, email: account.email, token: token, device: DeviceView(session, current: hash),
            profile: ProfileView(profile))
    }
}

extension ProfilePatch {
    /// The profile with this change made (`updatedAt` is the caller's to set). The display
    /// name is trimmed; nothing is validated here (``Routes/validate(_:)`` does that).
    func applied(to profile: Profile) -> Profile {
        var changed = profile
        if let displayName { changed.displayName = displayName.trimmingCharacters(in: .whitespaces) }
        if let timeZone { changed.timeZone = timeZone }
        if let dayStartHour { changed.dayStartHour = dayStartHour }
        if let pack { changed.pack = pack }
        if let celebrationStyle { changed.preferences.style = celebrationStyle }
        if let reduceMotion { changed.preferences.accessibility.reduceMotion = reduceMotion }
        if let doNotDisturb { changed.preferences.doNotDisturb = doNotDisturb }
        if let notifications { changed.notifications = notifications.applied(to: changed.notifications) }
        return changed
    }
}

extension NotificationsPatch {
    /// The preferences with this change made.
    func applied(to preferences: NotificationPreferences) -> NotificationPreferences {
        var changed = preferences
        if let reminders { changed.reminders = reminders }
        if let reminderHour { changed.reminderHour = reminderHour }
        if let celebrations { changed.celebrations = celebrations }
        if let weeklySummary { changed.weeklySummary = weeklySummary }
        return changed
    }
}
