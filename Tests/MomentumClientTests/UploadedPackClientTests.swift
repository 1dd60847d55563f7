import Foundation
import MomentumClient
import MomentumCore
import Testing

/// A device against a live server whose operator activates a new version of its pack: the
/// device's next sync carries the server's versions, and it shows the server's state.
@Suite(.serialized) struct UploadedPackClientTests {
    /// The first owner, created with the admin token and signed in: their token.
    static func owner(_ server: LiveServer) async throws -> String {
        let created = try await RawHTTP.send(
            server.url.appending(path: "v1/admin/operators"), method: .POST, token: "admin-secret",
            json: #"{"email": "owner@example.com", "name": "Owner", "password": "owner-password-1"}"#)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let session = try await RawHTTP.send(
            server.url.appending(path: "v1/admin/sessions"), method: .POST,
            json: #"{"email": "owner@example.com", "password": "owner-password-1"}"#)
        return session.json["token"] as? String ?? ""
    }

    @Test(arguments: Backend.allCases)
    func aNewVersionActivatedOnTheServerReachesTheDeviceAtItsNextSync(_ backend: Backend) async throws {
        try await LiveServer.with(backend, configure: { $0.adminToken = "admin-secret" }) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("ana"))
            try await phone.record(habit("read", "Read"))
            try await phone.sync()
            #expect(try await phone.compatibility.showsServerState == false)

            // The operator uploads habits 1.1.0 (a week's streak renamed) and activates it.
            let token = try await Self.owner(server)
            let habits = RulePack.habitsJSON.replacingOccurrences(
                of: #""version": "1.0.0""#, with: #""version": "1.1.0""#
            ).replacingOccurrences(of: "7-{unit} streak: {habit}", with: "A week of {habit}")
            let uploaded = try await RawHTTP.send(
                server.url.appending(path: "v1/admin/packs"), method: .POST, token: token,
                json: #"{"pack": \#(habits)}"#)
            #expect(uploaded.status == 201, "\(String(decoding: uploaded.body, as: UTF8.self))")
            let activated = try await RawHTTP.send(
                server.url.appending(path: "v1/admin/packs/habits/versions/1.1.0/activate"), method: .POST,
                token: token)
            #expect(activated.status == 200, "\(String(decoding: activated.body, as: UTF8.self))")

            // The device's next sync has the server's versions and shows its state.
            try await phone.sync()
            let compatibility = try await phone.compatibility
            guard case .serverNewer(let serverVersions, let clientVersions) = compatibility else {
                Issue.record("expected serverNewer, got \(compatibility)")
                return
            }
            #expect(serverVersions.packs == ["habits": "1.1.0"])
            #expect(clientVersions.packs == ["habits": "1.0.0"])
            let shown = try await phone.todayDashboard()
            #expect(shown.source == .server(fetchedAt: server.clock.now))
            #expect(shown.report.versions?.packs["habits"] == "1.1.0")
        }
    }
}
