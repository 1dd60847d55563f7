import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

/// An activation on one instance is in force on another sharing its PostgreSQL within the
/// refresh (`packs.refresh_seconds`, 2 by default).
///
/// What is bounded is when the first request that sees the change *started*: a request that
/// began after the refresh must see it, however long a loaded machine then takes to answer.
/// The bound is the refresh plus two seconds for a timer that fires late under load.
@Suite(.serialized) struct PacksAcrossInstancesTests {
    static let refresh = Duration.seconds(2)
    static let slack = Duration.seconds(2)

    @Test func anActivationOnOneInstanceReachesTheOtherWithinTheRefresh() async throws {
        try await TwoInstances.with { a, b in
            let owner = ServerHarness.ownerToken
            let uploaded = try await a.call(
                .post, "/v1/admin/packs", token: owner, json: PacksRouteTests.puppy())
            #expect(uploaded.status == .created, "\(uploaded.text)")
            let activated = try await a.call(.post, "/v1/admin/packs/puppy/versions/1.0.0/activate", token: owner)
            #expect(activated.status == .ok, "\(activated.text)")
            let started = ContinuousClock.now
            // The other instance takes accounts that use the pack once it has reloaded.
            var token = ""
            var seenAfter = Duration.zero
            while ContinuousClock.now - started < .seconds(30) {
                seenAfter = ContinuousClock.now - started
                let created = try await b.call(
                    .post, "/v1/accounts",
                    json:
                        #"{"email": "pip@example.com", "password": "correct horse", "displayName": "Pip", "timeZone": "UTC", "deviceName": "phone", "pack": "puppy"}"#
                )
                if created.status == .created {
                    token = created.json["token"] as? String ?? ""
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(!token.isEmpty)
            #expect(seenAfter < Self.refresh + Self.slack, "the other instance first took it \(seenAfter) after")
            let today = try await b.call(.get, "/v1/today", token: token)
            #expect(PacksRouteTests.packVersions(today.json) == ["puppy": "1.0.0"], "\(today.text)")

            // A new version activated on the first is what the second answers with soon after.
            _ = try await a.call(
                .post, "/v1/admin/packs", token: owner,
                json: PacksRouteTests.puppy("1.1.0", extraRule: PacksRouteTests.threeSwims))
            _ = try await a.call(.post, "/v1/admin/packs/puppy/versions/1.1.0/activate", token: owner)
            let second = ContinuousClock.now
            var version: String?
            seenAfter = .zero
            while ContinuousClock.now - second < .seconds(30) {
                seenAfter = ContinuousClock.now - second
                version = PacksRouteTests.packVersions(try await b.call(.get, "/v1/today", token: token).json)?["puppy"]
                if version == "1.1.0" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(version == "1.1.0")
            #expect(
                seenAfter < Self.refresh + Self.slack, "the other instance first answered with it \(seenAfter) after")
        }
    }
}
