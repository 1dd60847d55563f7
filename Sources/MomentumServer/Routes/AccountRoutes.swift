import Foundation
import HTTPTypes
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
/// The languages a profile can choose, `GET /v1/languages`.
struct LanguageList: Codable {
    var languages: [Language]
}

/// A language by its tag and its name in itself.
struct Language: Codable {
    var tag: String
    var name: String
}

struct ProfileView: Codable {
    var displayName: String
    var timeZone: String
    var dayStartHour: Int
    var pack: String
    var packs: [String]
    var celebrationStyle: CelebrationStyle
    var reduceMotion: Bool
    var doNotDisturb: Bool
    var notifications: NotificationPreferences
    var language: String?
    var updatedAt: Date

    init(_ profile: Profile) {
        displayName = profile.displayName
        timeZone = profile.timeZone
        dayStartHour = profile.dayStartHour
        pack = profile.pack
        packs = profile.packs
        celebrationStyle = profile.preferences.style
        reduceMotion = profile.preferences.accessibility.reduceMotion
        doNotDisturb = profile.preferences.doNotDisturb
        notifications = profile.notifications
        language = profile.language
        updatedAt = profile.updatedAt
    }
}

extension Routes {
    /// The account routes: each maps HTTP to an ``Accounts`` use case.
    func addAccountRoutes(public group: RouterGroup<MomentumContext>, authenticated: RouterGroup<MomentumContext>) {
        let accounts = server.accounts
        group.post("accounts") { request, context in
            var body = try await JSONIO.decode(RegisterRequest.self, from: request, limit: 16_384)
            if body.language == nil {
                body.language = Translation.bestMatch(for: WebStrings.preferred(request.headers[.acceptLanguage]))
            }
            let session = try await accounts.register(body, address: context.addressKey)
            return await Self.withDeviceKey(
                try JSONIO.response(session, status: .created), accounts: accounts, session: session, shown: nil)
        }
        group.get("languages") { _, _ in
            try JSONIO.response(
                LanguageList(
                    languages: WebStrings.languages.map { Language(tag: $0, name: WebStrings.all[$0]?.name ?? $0) }))
        }
        group.post("sessions") { request, context in
            let body = try await JSONIO.decode(SignInRequest.self, from: request, limit: 16_384)
            let shown = request.headers[.momentumDeviceKey]
            let session = try await accounts.signIn(body, address: context.addressKey, deviceKey: shown)
            return await Self.withDeviceKey(
                try JSONIO.response(session, status: .created), accounts: accounts, session: session, shown: shown)
        }
        authenticated.delete("sessions/current") { _, context in
            let caller = try context.requireCaller()
            try await accounts.revoke(user: caller.user, tokenHash: caller.tokenHash)
            return Response(status: .noContent)
        }
        authenticated.get("devices") { _, context in
            let caller = try context.requireCaller()
            let devices = try await accounts.devices(of: caller.user)
            return try JSONIO.response(["devices": devices.map { DeviceView($0, current: caller.tokenHash) }])
        }
        authenticated.delete("devices/:device") { _, context in
            let caller = try context.requireCaller()
            try await accounts.revokeDevice(try context.parameter("device"), of: caller.user)
            return Response(status: .noContent)
        }
        authenticated.delete("account") { _, context in
            try await accounts.deleteAccount(try context.requireCaller().user)
            return Response(status: .noContent)
        }
        authenticated.post("account/password") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(ChangePasswordRequest.self, from: request, limit: 16_384)
            let ended = try await accounts.changePassword(body, caller: caller, address: context.addressKey)
            return try JSONIO.response(["signedOutDevices": ended])
        }
        authenticated.get("account/archive") { _, context in
            let tar = try await accounts.archive(of: try context.requireCaller().user)
            return attachment(tar, type: "application/x-tar", name: "momentum-archive", suffix: "tar")
        }
        authenticated.get("account/csv") { _, context in
            let zip = try await server.habitImports.csvZip(of: try context.requireCaller().user)
            return attachment(zip, type: "application/zip", name: "momentum-csv", suffix: "zip")
        }
        authenticated.post("imports") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(HabitImportRequest.self, from: request, limit: HabitImports.maxBytes)
            return try JSONIO.response(try await server.habitImports.run(body, user: caller.user))
        }
        authenticated.get("profile") { _, context in
            try JSONIO.response(ProfileView(try await accounts.profile(of: try context.requireCaller().user)))
        }
        authenticated.patch("profile") { request, context in
            let caller = try context.requireCaller()
            let patch = try await JSONIO.decode(
                ProfilePatch.self, from: request, limit: server.configuration.maxBodyBytes)
            return try JSONIO.response(ProfileView(try await accounts.updateProfile(patch, caller: caller)))
        }
    }
}

extension Routes {
    /// A download of the account's data: saved as `name-YYYY-MM-DD.suffix`, never cached.
    func attachment(_ bytes: some Sequence<UInt8>, type: String, name: String, suffix: String) -> Response {
        let day = RFC3339.format(server.configuration.clock()).prefix(10)
        return Response(
            status: .ok,
            headers: [
                .contentType: type,
                .contentDisposition: "attachment; filename=\"\(name)-\(day).\(suffix)\"",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension ProfilePatch {
    /// The profile with this change made (`updatedAt` is the caller's to set). The display
    /// name is trimmed; nothing is validated here (``Accounts/validate(_:)`` does that).
    func applied(to profile: Profile) -> Profile {
        var changed = profile
        if let displayName { changed.displayName = displayName.trimmingCharacters(in: .whitespaces) }
        if let timeZone { changed.timeZone = timeZone }
        if let dayStartHour { changed.dayStartHour = dayStartHour }
        if let pack { changed.pack = Profile.canonicalPack(pack) }
        if let celebrationStyle { changed.preferences.style = celebrationStyle }
        if let reduceMotion { changed.preferences.accessibility.reduceMotion = reduceMotion }
        if let doNotDisturb { changed.preferences.doNotDisturb = doNotDisturb }
        if let notifications { changed.notifications = notifications.applied(to: changed.notifications) }
        if let language { changed.language = language }
        return changed
    }
}

extension Routes {
    /// A new session's answer with the device key its client shows when it signs in to
    /// the account again (`Momentum-Device-Key`, ``SignInDevices``), so that guesses at
    /// its password from elsewhere do not keep it out.
    static func withDeviceKey(
        _ response: Response, accounts: Accounts, session: SessionResponse, shown: String?
    ) async -> Response {
        var response = response
        if let key = await accounts.deviceKey(for: session.email, showing: shown) {
            response.headers[.momentumDeviceKey] = key
        }
        return response
    }
}

extension HTTPField.Name {
    /// `Momentum-Device-Key`: the key a client got with its last sign-in, shown with the
    /// next one (``SignInDevices``).
    static let momentumDeviceKey = HTTPField.Name("Momentum-Device-Key")!
}
