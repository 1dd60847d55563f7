import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// A backend starts device sessions for its users (`POST /v1/server/users/{id}/sessions`),
/// so that the events it records and those the user's phone records are one user's.
struct ServerKeySessionTests {
    static let scopes = #"["events:write","state:read","sessions:create"]"#

    @Test(arguments: ServerHarness.Backend.allCases)
    func aSessionFromTheBackendIsTheSameUserItsEventsGoTo(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let key = try await ServerKeyRouteTests.createKey(client, scopes: Self.scopes)
            // The backend records first: the user is created with its time zone.
            let recorded = try await ServerKeyRouteTests.record(
                client, key: key, user: "ada",
                body: #"{"timeZone": "Europe/Berlin", "events": [\#(habitCreated("walk", at: harness.now))]}"#)
            #expect(recorded.status == .ok, "\(recorded.text)")
            let user = try #require(recorded.json["userID"] as? String)
            let started = try await client.call(
                .post, "/v1/server/users/ada/sessions", token: key, json: #"{"deviceName": "Ada's phone"}"#)
            #expect(started.status == .created, "\(started.text)")
            #expect(started.json["userID"] as? String == user)
            let token = try #require(started.json["token"] as? String)
            #expect((started.json["device"] as? [String: Any])?["name"] as? String == "Ada's phone")
            #expect((started.json["profile"] as? [String: Any])?["timeZone"] as? String == "Europe/Berlin")
            // The phone sees the backend's habit, and what it records, the backend reads.
            let habits = try await client.call(.get, "/v1/habits", token: token)
            #expect(habits.status == .ok)
            #expect(habits.text.contains("\"walk\""), "\(habits.text)")
            let checkIn = try await client.call(
                .post, "/v1/habits/walk/check-ins", token: token,
                json: "{}")
            #expect(checkIn.status.code < 300, "\(checkIn.text)")
            let state = try await client.call(.get, "/v1/server/users/ada", token: key)
            let today = try #require(state.json["today"] as? [String: Any])
            let walk = try #require((today["habits"] as? [[String: Any]])?.first)
            #expect((walk["today"] as? [String: Any])?["state"] as? String == "completed", "\(walk)")
            #expect(walk["current"] as? Int == 1, "\(walk)")
            // A user never seen is created by its first session, in the time zone sent.
            let fresh = try await client.call(
                .post, "/v1/server/users/new-user/sessions", token: key, json: #"{"timeZone": "Asia/Tokyo"}"#)
            #expect(fresh.status == .created, "\(fresh.text)")
            #expect((fresh.json["profile"] as? [String: Any])?["timeZone"] as? String == "Asia/Tokyo")
            #expect(try await harness.state.store.appUser(app: "default", appUserID: "new-user") != nil)
        }
    }

    @Test func startingASessionNeedsItsScopeAndRefusalsCreateNothing() async throws {
        try await ServerHarness.with { harness, client in
            let key = try await ServerKeyRouteTests.createKey(client)
            let refused = try await client.call(.post, "/v1/server/users/bo/sessions", token: key, json: "{}")
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "scope_missing")
            #expect(refused.text.contains("sessions:create"))
            let scoped = try await ServerKeyRouteTests.createKey(client, scopes: Self.scopes)
            for body in [#"{"timeZone": "Mars/Olympus"}"#, #"{"deviceName": 7}"#, #"{"token": "x"}"#] {
                let bad = try await client.call(.post, "/v1/server/users/bo/sessions", token: scoped, json: body)
                #expect(bad.status.code >= 400 && bad.status.code < 500, "\(body): \(bad.text)")
            }
            let long = String(repeating: "x", count: 129)
            let badID = try await client.call(.post, "/v1/server/users/\(long)/sessions", token: scoped, json: "{}")
            #expect(badID.status.code >= 400 && badID.status.code < 500)
            #expect(try await harness.state.store.appUser(app: "default", appUserID: "bo") == nil)
            // A device's token cannot start sessions for anyone.
            let device = try await client.call(
                .post, "/v1/server/users/bo/sessions", token: try await client.register("bo"), json: "{}")
            #expect(device.status == .unauthorized)
        }
    }
}
