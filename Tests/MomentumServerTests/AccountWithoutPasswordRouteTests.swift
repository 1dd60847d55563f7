import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumStore
import Synchronization
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Accounts without a password (an app's backend's users, an identity provider's): a
/// password sign-in is refused exactly as a wrong password is, after the same bcrypt work,
/// and every page and answer that shows an email copes with none.
struct AccountWithoutPasswordRouteTests {
    /// Counts the hashes it is asked to check, and checks them.
    final class CountingPasswords: PasswordHashing {
        let inner: any PasswordHashing
        let checked = Mutex<[String]>([])
        init(_ inner: any PasswordHashing) { self.inner = inner }
        func hash(_ password: String, cost: UInt8) async throws -> String { try await inner.hash(password, cost: cost) }
        func verify(_ password: String, hash: String) async throws -> Bool {
            checked.withLock { $0.append(hash) }
            return try await inner.verify(password, hash: hash)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func passwordSignInToAnAccountWithoutPasswordIsAWrongPassword(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            // Given an account with an email but no password, and one with both.
            let store = harness.state.store
            try await store.createAccount(
                Account(id: "u_idp", email: "idp@example.com", passwordHash: nil, createdAt: harness.now),
                profile: Profile(
                    displayName: "Idp", timeZone: "UTC", dayStartHour: 0, pack: "habits", updatedAt: harness.now))
            _ = try await client.register("ada")
            // When each is signed in to with a password that is not its own…
            let none = try await client.call(
                .post, "/v1/sessions", json: #"{"email": "idp@example.com", "password": "correct horse"}"#)
            let wrong = try await client.call(
                .post, "/v1/sessions", json: #"{"email": "ada@example.com", "password": "wrong horse"}"#)
            let empty = try await client.call(
                .post, "/v1/sessions", json: #"{"email": "idp@example.com", "password": ""}"#)
            // …the answers are the same, and no session was started.
            #expect(none.status == .unauthorized)
            #expect(none.errorCode == "invalid_credentials")
            #expect(none.text == wrong.text)
            #expect(empty.text == wrong.text)
            #expect(try await store.sessions(of: "u_idp").isEmpty)
        }
    }

    @Test func signingInToAnAccountWithoutPasswordStillChecksTheDecoyHash() async throws {
        try await ServerHarness.with { harness, _ in
            let accounts = harness.state.services.accounts
            let counting = CountingPasswords(accounts.passwords)
            let checked = Accounts(
                store: accounts.store, configuration: accounts.configuration, passwords: counting,
                throttle: accounts.throttle, devices: accounts.devices, decoyHash: accounts.decoyHash,
                sessions: accounts.sessions, changes: accounts.changes, notifications: accounts.notifications)
            try await harness.state.store.createAccount(
                Account(id: "u_idp", email: "idp@example.com", passwordHash: nil, createdAt: harness.now),
                profile: Profile(
                    displayName: "Idp", timeZone: "UTC", dayStartHour: 0, pack: "habits", updatedAt: harness.now))
            await #expect(throws: ServiceError.self) {
                _ = try await checked.signIn(
                    SignInRequest(email: "idp@example.com", password: "whatever1"), address: "192.0.2.1")
            }
            // One bcrypt check, against the decoy: the same work as an unknown email's.
            #expect(counting.checked.withLock { $0 } == [accounts.decoyHash])
        }
    }

    @Test func theProfilePageOfAnAccountWithoutEmailOrPasswordHasNoPasswordForm() async throws {
        try await ServerHarness.with { harness, client in
            try await harness.state.store.createAccount(
                Account(id: "u_app", email: nil, passwordHash: nil, createdAt: harness.now),
                profile: Profile(
                    displayName: "Appy", timeZone: "UTC", dayStartHour: 0, pack: "habits", updatedAt: harness.now))
            let (token, hash) = Tokens.make(user: "u_app")
            try await harness.state.store.saveSession(
                DeviceSession(userID: "u_app", tokenHash: hash, deviceName: "phone", createdAt: harness.now))
            let page = try await client.call(.get, "/profile", headers: [.cookie: "momentum_session=\(token)"])
            #expect(page.status == .ok)
            #expect(page.text.contains(#"value="Appy""#))
            #expect(!page.text.contains(#"id="change-password""#))
            let change = try await client.call(
                .post, "/v1/account/password", token: token,
                json: #"{"currentPassword": "", "newPassword": "a new password"}"#)
            #expect(change.status == .forbidden, "\(change.text)")
            #expect(change.errorCode == "wrong_password")
            // Its archive leaves the email out.
            let archive = try await client.call(.get, "/v1/account/archive", token: token)
            #expect(archive.status == .ok)
            #expect(!archive.text.contains("\"email\""))
        }
    }
}
