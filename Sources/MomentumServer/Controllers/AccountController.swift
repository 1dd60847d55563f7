import Foundation
import HTTPTypes
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// The languages a profile can choose, `GET /v1/languages`.
struct LanguageList: Codable {
    var languages: [Language]
}

/// A language by its tag and its name in itself.
struct Language: Codable {
    var tag: String
    var name: String
}

/// `/v1/accounts`, `/v1/sessions…`, `/v1/devices…`, `/v1/account…`, `/v1/imports`,
/// `/v1/profile` and `/v1/languages`: each maps HTTP to an ``Accounts`` (or
/// ``HabitImports``) use case.
struct AccountController: Sendable {
    let accounts: Accounts
    let habitImports: HabitImports
    /// The most bytes a profile patch may hold (``ServerConfiguration/maxBodyBytes``).
    let maxBodyBytes: Int
    /// The current instant (the day in a download's name).
    let clock: @Sendable () -> Date
    /// Whether a profile's email is verified (``ProfileView/emailVerified``).
    var recovery: AccountRecovery? = nil

    /// Registers the routes open to anyone on `group` and the others on `authenticated`.
    func addRoutes(public group: RouterGroup<MomentumContext>, authenticated: RouterGroup<MomentumContext>) {
        group.post("accounts", use: register)
        group.get("languages", use: languages)
        group.post("sessions", use: signIn)
        authenticated.delete("sessions/current", use: signOut)
        authenticated.get("devices", use: devices)
        authenticated.delete("devices/:device", use: revokeDevice)
        authenticated.delete("account", use: deleteAccount)
        authenticated.post("account/password", use: changePassword)
        authenticated.get("account/archive", use: archive)
        authenticated.get("account/csv", use: csv)
        authenticated.post("imports", use: importHabits)
        authenticated.get("profile", use: profile)
        authenticated.patch("profile", use: updateProfile)
    }

    /// `POST /v1/accounts`: a new account and its first session; 201 with the device key.
    @Sendable func register(_ request: Request, context: MomentumContext) async throws -> Response {
        var body = try await JSONIO.decode(RegisterRequest.self, from: request, limit: 16_384)
        if body.language == nil {
            body.language = Translation.bestMatch(for: Wording.preferred(request.headers[.acceptLanguage]))
        }
        let session = try await accounts.register(body, address: context.addressKey)
        return await withDeviceKey(try JSONIO.response(session, status: .created), session: session, shown: nil)
    }

    /// `GET /v1/languages`: the languages a profile can choose.
    @Sendable func languages(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(
            LanguageList(languages: Wording.languages.map { Language(tag: $0, name: Wording.all[$0]?.name ?? $0) }))
    }

    /// `POST /v1/sessions`: signs in; 201 with the session and the device key.
    @Sendable func signIn(_ request: Request, context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(SignInRequest.self, from: request, limit: 16_384)
        let shown = request.headers[.momentumDeviceKey]
        let session = try await accounts.signIn(body, address: context.addressKey, deviceKey: shown)
        return await withDeviceKey(try JSONIO.response(session, status: .created), session: session, shown: shown)
    }

    /// `DELETE /v1/sessions/current`: signs this device out; 204.
    @Sendable func signOut(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await accounts.revoke(user: caller.user, tokenHash: caller.tokenHash)
        return Response(status: .noContent)
    }

    /// `GET /v1/devices`: the account's signed-in devices, this one marked.
    @Sendable func devices(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let devices = try await accounts.devices(of: caller.user)
        return try JSONIO.response(["devices": devices.map { DeviceView($0, current: caller.tokenHash) }])
    }

    /// `DELETE /v1/devices/{device}`: signs a device out; 204.
    @Sendable func revokeDevice(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await accounts.revokeDevice(try context.parameter("device"), of: caller.user)
        return Response(status: .noContent)
    }

    /// `DELETE /v1/account`: deletes the account and everything in it; 204.
    @Sendable func deleteAccount(_ request: Request, context: MomentumContext) async throws -> Response {
        try await accounts.deleteAccount(try context.requireCaller().user)
        return Response(status: .noContent)
    }

    /// `POST /v1/account/password`: changes the password; how many other devices were
    /// signed out.
    @Sendable func changePassword(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(ChangePasswordRequest.self, from: request, limit: 16_384)
        let ended = try await accounts.changePassword(body, caller: caller, address: context.addressKey)
        return try JSONIO.response(["signedOutDevices": ended])
    }

    /// `GET /v1/account/archive`: the account's data as a tar file.
    @Sendable func archive(_ request: Request, context: MomentumContext) async throws -> Response {
        let tar = try await accounts.archive(of: try context.requireCaller().user)
        return attachment(tar, type: "application/x-tar", name: "momentum-archive", suffix: "tar")
    }

    /// `GET /v1/account/csv`: the account's habits and check-ins as CSV files in a zip.
    @Sendable func csv(_ request: Request, context: MomentumContext) async throws -> Response {
        let zip = try await habitImports.csvZip(of: try context.requireCaller().user)
        return attachment(zip, type: "application/zip", name: "momentum-csv", suffix: "zip")
    }

    /// `POST /v1/imports`: history from another habit app.
    @Sendable func importHabits(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(HabitImportRequest.self, from: request, limit: HabitImports.maxBytes)
        return try JSONIO.response(try await habitImports.run(body, user: caller.user))
    }

    /// `GET /v1/profile`: the caller's profile.
    @Sendable func profile(_ request: Request, context: MomentumContext) async throws -> Response {
        let user = try context.requireCaller().user
        var view = ProfileView(try await accounts.profile(of: user))
        view.emailVerified = try await recovery?.emailVerified(user)
        return try JSONIO.response(view)
    }

    /// `PATCH /v1/profile`: changes the caller's profile; the profile now.
    @Sendable func updateProfile(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let patch = try await JSONIO.decode(ProfilePatch.self, from: request, limit: maxBodyBytes)
        var view = ProfileView(try await accounts.updateProfile(patch, caller: caller))
        view.emailVerified = try await recovery?.emailVerified(caller.user)
        return try JSONIO.response(view)
    }

    /// A download of the account's data: saved as `name-YYYY-MM-DD.suffix`, never cached.
    func attachment(_ bytes: some Sequence<UInt8>, type: String, name: String, suffix: String) -> Response {
        let day = RFC3339.format(clock()).prefix(10)
        return Response(
            status: .ok,
            headers: [
                .contentType: type,
                .contentDisposition: "attachment; filename=\"\(name)-\(day).\(suffix)\"",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A new session's answer with the device key its client shows when it signs in to
    /// the account again (`Momentum-Device-Key`, ``SignInDevices``), so that guesses at
    /// its password from elsewhere do not keep it out.
    func withDeviceKey(_ response: Response, session: SessionResponse, shown: String?) async -> Response {
        var response = response
        if let email = session.email, let key = await accounts.deviceKey(for: email, showing: shown) {
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
