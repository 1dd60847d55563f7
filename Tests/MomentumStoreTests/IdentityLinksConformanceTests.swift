import Foundation
import MomentumCore
import MomentumStore
import Testing

/// The identities at app identity providers that sign in to accounts (``IdentityLinks``),
/// on every backend.
@Suite(.serialized)
struct IdentityLinksConformanceTests {
    static func identity(_ subject: String, provider: String = "apple", user: String = "") -> LinkedIdentity {
        LinkedIdentity(provider: provider, subject: subject, userID: user, email: nil, linkedAt: Fixtures.start)
    }

    static func bare(_ id: String) -> Account {
        Account(id: id, email: nil, passwordHash: nil, createdAt: Fixtures.start)
    }

    @Test(arguments: Backend.allCases)
    func aFirstSignInCreatesTheAccountAndASecondFindsIt(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let owner = try await store.createAccount(
                Self.bare("u_1"), profile: Fixtures.profile(), identity: Self.identity("sub-1"))
            #expect(owner == "u_1")
            #expect(try await store.linkedIdentity(provider: "apple", subject: "sub-1")?.userID == "u_1")
            // The same identity's first sign-in racing the first one: the account it made is found,
            // and no second account is created.
            let again = try await store.createAccount(
                Self.bare("u_2"), profile: Fixtures.profile(), identity: Self.identity("sub-1"))
            #expect(again == "u_1")
            #expect(try await store.account(id: "u_2") == nil)
            #expect(try await store.linkedIdentity(provider: "google", subject: "sub-1") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func anAccountWhoseEmailIsTakenIsNotCreated(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            let taken = Account(id: "u_new", email: "sam@example.com", passwordHash: nil, createdAt: Fixtures.start)
            await #expect(throws: StoreError.self) {
                try await store.createAccount(taken, profile: Fixtures.profile(), identity: Self.identity("sub-9"))
            }
            #expect(try await store.account(id: "u_new") == nil)
            #expect(try await store.linkedIdentity(provider: "apple", subject: "sub-9") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func linkingIsRefusedForAnotherAccountsIdentityOrASecondOfAProvider(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            _ = try await store.createAccount(
                Self.bare("u_other"), profile: Fixtures.profile(), identity: Self.identity("theirs"))
            #expect(try await store.link(Self.identity("mine", user: "sam")) == "sam")
            // Linking it again is no change.
            #expect(try await store.link(Self.identity("mine", user: "sam")) == "sam")
            // Another account's identity names that account and links nothing.
            #expect(try await store.link(Self.identity("theirs", user: "sam")) == "u_other")
            // A second identity of the same provider is refused.
            await #expect(throws: StoreError.self) { try await store.link(Self.identity("second", user: "sam")) }
            #expect(try await store.link(Self.identity("g-1", provider: "google", user: "sam")) == "sam")
            let linked = try await store.linkedIdentities(of: "sam")
            #expect(linked.map(\.provider) == ["apple", "google"])
            #expect(linked.map(\.subject) == ["mine", "g-1"])
            await #expect(throws: StoreError.self) { try await store.link(Self.identity("x", user: "u_nobody")) }
        }
    }

    @Test(arguments: Backend.allCases)
    func theLastWayToSignInIsNotUnlinked(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            _ = try await store.createAccount(
                Self.bare("u_1"), profile: Fixtures.profile(), identity: Self.identity("a-1"))
            #expect(try await store.link(Self.identity("g-1", provider: "google", user: "u_1")) == "u_1")
            #expect(try await store.unlink(provider: "google", of: "u_1") == .unlinked)
            // No password, one identity left: it stays.
            #expect(try await store.unlink(provider: "apple", of: "u_1") == .lastSignInMethod)
            #expect(try await store.unlink(provider: "google", of: "u_1") == .notLinked)
            // An account with a password may unlink its only identity.
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            #expect(try await store.link(Self.identity("s-1", user: "sam")) == "sam")
            #expect(try await store.unlink(provider: "apple", of: "sam") == .unlinked)
            #expect(try await store.linkedIdentities(of: "sam").isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func deletingTheAccountFreesItsIdentities(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            _ = try await store.createAccount(
                Self.bare("u_1"), profile: Fixtures.profile(), identity: Self.identity("a-1"))
            #expect(try await store.deleteAccount(id: "u_1"))
            #expect(try await store.linkedIdentity(provider: "apple", subject: "a-1") == nil)
            // The identity signs up afresh.
            #expect(
                try await store.createAccount(
                    Self.bare("u_2"), profile: Fixtures.profile(), identity: Self.identity("a-1")) == "u_2")
        }
    }
}
