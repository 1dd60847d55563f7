import Foundation
import HTTPTypes
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

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

extension Routes {
    /// The account routes: each maps HTTP to an ``Accounts`` use case.
    func addAccountRoutes(public group: RouterGroup<MomentumContext>, authenticated: RouterGroup<MomentumContext>) {
        let accounts = server.services.accounts
        group.post("accounts") { request, context in
            var body = try await JSONIO.decode(RegisterRequest.self, from: request, limit: 16_384)
            if body.language == nil {
                body.language = Translation.bestMatch(for: Wording.preferred(request.headers[.acceptLanguage]))
            }
            let session = try await accounts.register(body, address: context.addressKey)
            return await Self.withDeviceKey(
                try JSONIO.response(session, status: .created), accounts: accounts, session: session, shown: nil)
        }
        group.get("languages") { _, _ in
            try JSONIO.response(
                LanguageList(
                    languages: Wording.languages.map { Language(tag: $0, name: Wording.all[$0]?.name ?? $0) }))
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
            let zip = try await server.services.habitImports.csvZip(of: try context.requireCaller().user)
            return attachment(zip, type: "application/zip", name: "momentum-csv", suffix: "zip")
        }
        authenticated.post("imports") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(HabitImportRequest.self, from: request, limit: HabitImports.maxBytes)
            return try JSONIO.response(try await server.services.habitImports.run(body, user: caller.user))
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
