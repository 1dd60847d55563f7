import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Server keys and an app's users by its own ids, on every backend.
@Suite(.serialized)
struct ServerKeysConformanceTests {
    static func key(_ id: String, app: String = "default") -> ServerKey {
        ServerKey(
            id: id, app: app, name: "backend", scopes: ["events:write", "state:read"],
            secretHash: String(repeating: "a", count: 64), createdAt: Fixtures.start)
    }

    @Test(arguments: Backend.allCases)
    func keysAreStoredListedRevokedOnceAndTouched(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createServerKey(Self.key("k1aaaaaaaaaaaaaa"))
            try await store.createServerKey(Self.key("k2aaaaaaaaaaaaaa", app: "other"))
            await #expect(throws: StoreError.self) { try await store.createServerKey(Self.key("k1aaaaaaaaaaaaaa")) }
            #expect(try await store.serverKeys().count == 2)
            #expect(try await store.serverKey(id: "k1aaaaaaaaaaaaaa") == Self.key("k1aaaaaaaaaaaaaa"))
            #expect(try await store.serverKey(id: "nope") == nil)
            let revoked = try #require(try await store.revokeServerKey(id: "k1aaaaaaaaaaaaaa", at: Fixtures.day(2)))
            #expect(revoked.revokedAt == Fixtures.day(2))
            // Revoking again keeps the first time.
            #expect(
                try await store.revokeServerKey(id: "k1aaaaaaaaaaaaaa", at: Fixtures.day(3))?.revokedAt
                    == Fixtures.day(2))
            #expect(try await store.revokeServerKey(id: "nope", at: Fixtures.day(3)) == nil)
            try await store.touchServerKey(id: "k2aaaaaaaaaaaaaa", at: Fixtures.day(4))
            #expect(try await store.serverKey(id: "k2aaaaaaaaaaaaaa")?.lastUsedAt == Fixtures.day(4))
        }
    }

    @Test(arguments: Backend.allCases)
    func appUsersAreNamespacedByAppCreatedOnceAndDeletedWithTheirAccount(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            func provision(_ app: String, _ appUserID: String, as id: String) async throws -> AppUser {
                try await store.provisionAppUser(
                    AppUser(app: app, appUserID: appUserID, userID: id),
                    account: Account(id: id, email: nil, passwordHash: nil, createdAt: Fixtures.start),
                    profile: Fixtures.profile(zone: "Europe/Berlin"))
            }
            let first = try await provision("a", "123", as: "u_a123")
            #expect(first.userID == "u_a123")
            // The same app's id again maps to the first user and creates nothing.
            #expect(try await provision("a", "123", as: "u_other").userID == "u_a123")
            #expect(try await store.account(id: "u_other") == nil)
            // Another app's "123" is another user.
            #expect(try await provision("b", "123", as: "u_b123").userID == "u_b123")
            #expect(try await store.appUser(app: "a", appUserID: "123")?.userID == "u_a123")
            #expect(try await store.appUser(of: "u_b123") == AppUser(app: "b", appUserID: "123", userID: "u_b123"))
            #expect(try await store.profile(of: "u_a123")?.timeZone == "Europe/Berlin")
            #expect(try await store.account(id: "u_a123")?.email == nil)
            // An account with an email is never provisioned as an app's user.
            await #expect(throws: StoreError.self) {
                _ = try await store.provisionAppUser(
                    AppUser(app: "a", appUserID: "9", userID: "u_x"), account: Fixtures.account("u_x"),
                    profile: Fixtures.profile())
            }
            #expect(try await store.deleteAccount(id: "u_a123"))
            #expect(try await store.appUser(app: "a", appUserID: "123") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func concurrentFirstUsesOfOneAppUserCreateOneUser(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.provisionAppUser(
                            AppUser(app: "a", appUserID: "same", userID: "u_race\(index)"),
                            account: Account(
                                id: "u_race\(index)", email: nil, passwordHash: nil, createdAt: Fixtures.start),
                            profile: Fixtures.profile()
                        ).userID
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            var accounts = 0
            for index in 0..<8 where try await store.account(id: "u_race\(index)") != nil { accounts += 1 }
            #expect(accounts == 1)
        }
    }
}
