import Foundation
import HTTPTypes
import MomentumAPI
import MomentumClient
import MomentumCore
@_spi(Testing) import MomentumServices
import OpenAPIRuntime
import Synchronization
import Testing

/// A device against a real server whose rules are newer, the same, or older than its own
/// (the server's announced versions set through its configuration), and against a server
/// that sends no versions at all.
@Suite(.serialized) struct CompatibilityClientTests {
    /// A server that announces `engine` as its engine's version and `packs` over this build's.
    static func announcing(
        engine: String, packs: [String: String] = [:]
    )
        -> @Sendable (inout ServerConfiguration)
        -> Void
    {
        { configuration in
            configuration.ruleVersions = { names in
                var versions = RuleVersions(packs: names)
                versions.engine = engine
                versions.packs.merge(packs) { _, new in new }
                return versions
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aServerWithNewerRulesIsShownInsteadOfComputedAndSaidSo(_ backend: Backend) async throws {
        try await LiveServer.with(backend, configure: Self.announcing(engine: "99.0.0")) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("ana"))
            try await phone.record(habit("read", "Read"))
            try await phone.sync()

            // The device's rules are older than the server's, and it says so …
            let compatibility = try await phone.compatibility
            guard case .serverNewer(let serverVersions, let clientVersions) = compatibility else {
                Issue.record("expected serverNewer, got \(compatibility)")
                return
            }
            #expect(serverVersions.engine == "99.0.0")
            #expect(clientVersions == RuleVersions(packs: ["habits"]))
            #expect(compatibility.showsServerState)

            // … and shows the server's dashboard of the sync, byte for byte, not its own.
            let token = try await RawHTTP.signIn(server, email: "ana@example.com", device: "observer")
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            #expect(answer.status == 200)
            let synced = server.clock.now
            server.clock.advance(seconds: 60)
            let shown = try await phone.todayDashboard()
            #expect(shown.source == .server(fetchedAt: synced))
            #expect(shown.compatibility == compatibility)
            let local = try MomentumJSON.encodeBytes(shown.report)
            let remote = withoutFinalNewline(answer.body)
            #expect(local == remote, "\(firstDifference(local, remote))")
            #expect(try await phone.today().versions?.engine == "99.0.0")

            // A check-in recorded on the device does not make it compute a streak of its own:
            // the server's dashboard stays until the next sync brings the server's verdict.
            let checkIn = try await phone.checkIn("read")
            #expect(checkIn.habit?.current == 1)
            #expect(try await phone.today().habits.first?.current == 0)
            try await phone.sync()
            let after = try await phone.todayDashboard()
            #expect(after.source == .server(fetchedAt: server.clock.now))
            #expect(after.report.habits.first?.current == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func equalVersionsComputeOnTheDeviceByteEqualToTheServer(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("bo"))
            try await phone.record(habit("read", "Read"))
            _ = try await phone.checkIn("read")
            try await phone.sync()
            let versions = RuleVersions(packs: ["habits"])
            #expect(try await phone.compatibility == .current(versions))

            let token = try await RawHTTP.signIn(server, email: "bo@example.com", device: "observer")
            server.clock.advance(seconds: 60)
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            let shown = try await phone.todayDashboard(at: server.clock.now)
            #expect(shown.source == .device)
            #expect(shown.report.versions == versions)
            let local = try MomentumJSON.encodeBytes(shown.report)
            let remote = withoutFinalNewline(answer.body)
            #expect(local == remote, "\(firstDifference(local, remote))")
        }
    }

    /// A device whose app was updated before the server computes with its own rules.
    @Test func anOlderServerLeavesTheDeviceComputing() async throws {
        try await LiveServer.with(.sqlite, configure: Self.announcing(engine: "0.9.0", packs: ["habits": "0.9.0"])) {
            server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("cy"))
            try await phone.record(habit("read", "Read"))
            try await phone.sync()
            let compatibility = try await phone.compatibility
            #expect(
                compatibility
                    == .serverOlder(
                        server: RuleVersions(engine: "0.9.0", packs: ["habits": "0.9.0"]),
                        client: RuleVersions(packs: ["habits"])))
            _ = try await phone.checkIn("read")
            let shown = try await phone.todayDashboard()
            #expect(shown.source == .device)
            #expect(shown.report.habits.first?.current == 1)
        }
    }

    /// A device that holds no versions (its database is of a client older than versions, or
    /// the server sends none, or it has not synced yet) computes as it always did, and
    /// learns the versions at the first sync that brings them.
    @Test func noVersionsKeptMeansUnknownAndTheDeviceComputes() async throws {
        let strip = WithoutVersions()
        try await LiveServer.with(.sqlite, configure: Self.announcing(engine: "99.0.0")) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone", middlewares: [strip])
            try await phone.register(.test("di"))
            try await phone.record(habit("read", "Read"))
            _ = try await phone.checkIn("read")
            try await phone.sync()
            let unknown = try await phone.compatibility
            #expect(unknown == .unknown(client: RuleVersions(packs: ["habits"])))
            let shown = try await phone.todayDashboard()
            #expect(shown.source == .device)
            #expect(shown.report.habits.first?.current == 1)

            // The server's next answers carry versions: the device learns they are newer.
            strip.active.withLock { $0 = false }
            try await phone.sync()
            #expect(try await phone.compatibility.showsServerState)
            #expect(try await phone.todayDashboard().source == .server(fetchedAt: server.clock.now))
        }
    }
}

/// Removes `versions` from the pull answers while active: a server older than versions.
final class WithoutVersions: ClientMiddleware, Sendable {
    let active = Mutex(true)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answer) = try await next(request, body, baseURL)
        guard active.withLock({ $0 }), operationID == "pullEvents", let answer else { return (response, answer) }
        let bytes = try await Data(collecting: answer, upTo: 64 << 20)
        guard var json = try JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
            return (response, HTTPBody(bytes))
        }
        #expect(json.removeValue(forKey: "versions") != nil, "the server's pull answer carries versions")
        return (response, HTTPBody(try JSONSerialization.data(withJSONObject: json)))
    }
}
