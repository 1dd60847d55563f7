import Foundation
import MomentumClient
import MomentumCore
import Testing

/// `MomentumClient.signIn(backendSession:)`: the app's backend starts a session for its user
/// with a server key and the app signs in with the answer, as the same user the backend
/// records events for.
@Suite(.serialized) struct BackendSessionClientTests {
    @Test(arguments: Backend.allCases)
    func anAppSignsInWithTheSessionItsBackendStarted(_ backend: Backend) async throws {
        try await LiveServer.with(backend, configure: { $0.adminToken = "admin-secret" }) { server in
            // The admin token creates the first owner, who signs in and creates the key.
            let owner = try await RawHTTP.send(
                server.url.appending(path: "v1/admin/operators"), method: .POST, token: "admin-secret",
                json: #"{"email": "owner@example.com", "name": "Owner", "password": "owner-password-1"}"#)
            #expect(owner.status == 201, "\(String(decoding: owner.body, as: UTF8.self))")
            let signedIn = try await RawHTTP.send(
                server.url.appending(path: "v1/admin/sessions"), method: .POST,
                json: #"{"email": "owner@example.com", "password": "owner-password-1"}"#)
            let operatorToken = try #require(signedIn.json["token"] as? String)
            let created = try await RawHTTP.send(
                server.url.appending(path: "v1/admin/server-keys"), method: .POST, token: operatorToken,
                json: #"{"name": "backend", "scopes": ["events:write", "sessions:create"]}"#)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let key = try #require(created.json["key"] as? String)
            let at = RFC3339.format(server.clock.now)
            let recorded = try await RawHTTP.send(
                server.url.appending(path: "v1/server/users/ada/events"), method: .POST, token: key,
                json:
                    #"{"timeZone": "Europe/Berlin", "event": {"id": "walk-created", "type": "habit.created", "at": "\#(at)", "tz": "Europe/Berlin", "habit": "walk", "name": "Walk"}}"#
            )
            #expect(recorded.status == 200, "\(String(decoding: recorded.body, as: UTF8.self))")
            let started = try await RawHTTP.send(
                server.url.appending(path: "v1/server/users/ada/sessions"), method: .POST, token: key,
                json: #"{"deviceName": "phone"}"#)
            #expect(started.status == 201, "\(String(decoding: started.body, as: UTF8.self))")

            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            // What is not a session is refused, and nothing is signed in.
            await #expect(throws: ClientError.self) { try await phone.signIn(backendSession: Data("{}".utf8)) }
            #expect(try await phone.account == nil)
            try await phone.signIn(backendSession: Data(started.body))
            let account = try #require(try await phone.account)
            #expect(account.userID == recorded.json["userID"] as? String)
            // The backend's habit is on the phone, and the phone's check-in reaches the server.
            #expect(try await phone.today().habits.map(\.definition.id) == ["walk"])
            _ = try await phone.record(.completion(habit: "walk", day: nil, value: 1, note: nil))
            try await phone.sync()
            #expect(try await phone.pendingEvents().isEmpty)
        }
    }
}
