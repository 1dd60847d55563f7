import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import Testing

@testable import MomentumServer
@_spi(Testing) @testable import MomentumServices

/// Every answer that carries state says which rules computed it: the engine's version and
/// the versions of the packs the account uses.
@Suite struct RuleVersionRouteTests {
    /// The `versions` object of an answer, as plain values.
    static func versions(_ json: [String: Any]) -> (engine: String?, packs: [String: String]?) {
        let object = json["versions"] as? [String: Any]
        return (object?["engine"] as? String, object?["packs"] as? [String: String])
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func todayPushAndPullCarryTheVersionsOfTheAccountsRules(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let token = try await client.register("vera")
            let now = harness.clock.value.withLock { $0 }
            let habits = ["habits": RulePack.habits.version]

            let pushed = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([habitCreated("read", at: now), completion("c1", habit: "read", at: now)]))
            #expect(pushed.status == .ok, "\(pushed.text)")
            #expect(Self.versions(pushed.json).engine == MomentumUser.engineVersion, "\(pushed.text)")
            #expect(Self.versions(pushed.json).packs == habits)

            let pulled = try await client.call(.get, "/v1/events?after=0", token: token)
            #expect(Self.versions(pulled.json).engine == MomentumUser.engineVersion, "\(pulled.text)")
            #expect(Self.versions(pulled.json).packs == habits)

            let today = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.versions(today.json).engine == MomentumUser.engineVersion, "\(today.text)")
            #expect(Self.versions(today.json).packs == habits)

            // A combination reports each member's version, under its own name.
            let changed = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"pack": "ollie+habits"}"#)
            #expect(changed.status == .ok, "\(changed.text)")
            let combined = try await client.call(.get, "/v1/today", token: token)
            #expect(
                Self.versions(combined.json).packs == [
                    "habits": RulePack.habits.version, "ollie": RulePack.ollie.version,
                ],
                "\(combined.text)")
            let pack = try await client.call(.get, "/v1/pack", token: token)
            let members = pack.json["members"] as? [[String: Any]] ?? []
            #expect(members.map { $0["version"] as? String } == [RulePack.habits.version, RulePack.ollie.version])
        }
    }

    /// The versions are the server's configuration's: what a test of newer rules relies on.
    @Test func theAnnouncedVersionsAreTheConfigurations() async throws {
        try await ServerHarness.with(configure: {
            $0.ruleVersions = { names in
                RuleVersions(engine: "7.0.0", packs: Dictionary(uniqueKeysWithValues: names.map { ($0, "3.0.0") }))
            }
        }) { _, client in
            let token = try await client.register("walt")
            let today = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.versions(today.json).engine == "7.0.0", "\(today.text)")
            #expect(Self.versions(today.json).packs == ["habits": "3.0.0"])
            let pulled = try await client.call(.get, "/v1/events", token: token)
            #expect(Self.versions(pulled.json).engine == "7.0.0", "\(pulled.text)")
        }
    }

    /// The change stream's `ready` and each `change` carry the versions, on a real socket.
    @Test(arguments: ServerHarness.Backend.allCases)
    func everyStreamMessageCarriesTheVersions(_ backend: ServerHarness.Backend) async throws {
        try await Self.live(backend) { client, port in
            let token = try await client.register("sol")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"name": "Walk", "habit": "walk"}"#)
            let stream = try await EventStreamReader.open(port: port, token: token)
            let expected =
                #""versions":{"engine":"\#(MomentumUser.engineVersion)","packs":{"habits":"\#(RulePack.habits.version)"}}"#
            let ready = try await stream.waitFor("event: ready")
            #expect(ready.contains(expected), "\(ready)")
            let checkIn = try await client.call(.post, "/v1/habits/walk/check-ins", token: token, json: "{}")
            #expect(checkIn.status == .ok, "\(checkIn.text)")
            let change = try await stream.waitFor("event: change")
            #expect(change.contains(#""kind":"events""#), "\(change)")
            #expect(change.contains(expected), "\(change)")
            // After a change of packs, the next messages carry the new packs' versions.
            _ = try await client.call(.patch, "/v1/profile", token: token, json: #"{"pack": "habits+savings"}"#)
            let profile = try await stream.waitFor(#""kind":"profile""#)
            #expect(profile.contains(#""versions""#), "\(profile)")
            try await stream.waitFor(#""savings":"\#(RulePack.savings.version)""#)
            await stream.close()
        }
    }

    /// Runs `body` with a live server (a real socket) on a fresh `backend` store.
    static func live(
        _ backend: ServerHarness.Backend, _ body: @escaping @Sendable (any TestClientProtocol, Int) async throws -> Void
    ) async throws {
        func run(_ store: any MomentumStore) async throws {
            try await store.migrate()
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.bcryptCost = 4
            configuration.userRequestsPerMinute = 0
            configuration.addressRequestsPerMinute = 0
            let state = ServerState(store: store, configuration: configuration, logger: ServerHarness.quietLogger)
            try await buildApplication(state).test(.live) { client in
                try await body(client, try #require(client.port))
            }
            await store.close()
        }
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-versions-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try await run(try SQLiteStore(path: directory.appending(path: "server.sqlite").path))
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_versions") { url in
                try await run(try PostgresStore(url: url))
            }
        }
    }
}
