import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

/// An activation on one instance is in force on another sharing its PostgreSQL within the
/// refresh (`packs.refresh_seconds`, 2 by default).
@Suite(.serialized) struct PacksAcrossInstancesTests {
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
            while ContinuousClock.now - started < .seconds(5) {
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
            let elapsed = ContinuousClock.now - started
            #expect(!token.isEmpty)
            #expect(elapsed < .seconds(3), "the other instance took \(elapsed)")
            let today = try await b.call(.get, "/v1/today", token: token)
            #expect(PacksRouteTests.packVersions(today.json) == ["puppy": "1.0.0"], "\(today.text)")

            // A new version activated on the first is what the second answers with soon after.
            _ = try await a.call(
                .post, "/v1/admin/packs", token: owner,
                json: PacksRouteTests.puppy("1.1.0", extraRule: PacksRouteTests.threeSwims))
            _ = try await a.call(.post, "/v1/admin/packs/puppy/versions/1.1.0/activate", token: owner)
            let second = ContinuousClock.now
            var version: String?
            while ContinuousClock.now - second < .seconds(5) {
                version = PacksRouteTests.packVersions(try await b.call(.get, "/v1/today", token: token).json)?["puppy"]
                if version == "1.1.0" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(version == "1.1.0")
            #expect(ContinuousClock.now - second < .seconds(3))
        }
    }
}
