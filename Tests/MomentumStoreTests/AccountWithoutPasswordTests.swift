import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Accounts that an app's backend or an identity provider created: no email, no password.
/// The columns are NOT NULL since version 1, so the store keeps `''` for none and gives
/// back `nil`.
@Suite(.serialized)
struct AccountWithoutPasswordTests {
    @Test(arguments: Backend.allCases)
    func anAccountWithoutEmailOrPasswordReadsBackAsNone(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let bare = Account(id: "u_app_1", email: nil, passwordHash: nil, createdAt: Fixtures.start)
            try await store.createAccount(bare, profile: Fixtures.profile())
            // A second one: no email means no row in the global email lookup to collide on.
            try await store.createAccount(
                Account(id: "u_app_2", email: nil, passwordHash: nil, createdAt: Fixtures.start),
                profile: Fixtures.profile())
            let read = try #require(try await store.account(id: "u_app_1"))
            #expect(read.email == nil)
            #expect(read.passwordHash == nil)
            #expect(read == bare)
            // '' is how "none" is stored, never an email that finds the account.
            #expect(try await store.account(email: "") == nil)
            // An email account still reads back whole.
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            #expect(try await store.account(email: "sam@example.com")?.passwordHash == "$2b$12$hash")
        }
    }

    @Test func anEmptyEmailOrPasswordHashIsNone() {
        let account = Account(id: "u_1", email: "  ", passwordHash: "", createdAt: Fixtures.start)
        #expect(account.email == nil)
        #expect(account.passwordHash == nil)
    }

    @Test(arguments: [(Backend.sqlite, Backend.postgres), (Backend.postgres, Backend.sqlite)])
    func anArchiveOfAnAccountWithoutEmailRoundTrips(_ from: Backend, _ to: Backend) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-bare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bare = Account(id: "u_app_1", email: nil, passwordHash: nil, createdAt: Fixtures.start)
        try await StoreFixture.withStore(from) { store in
            try await store.createAccount(bare, profile: Fixtures.profile())
            try await store.exportAccount("u_app_1").write(to: directory)
        }
        let line =
            try String(contentsOf: directory.appending(path: AccountArchive.accountFile), encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(!line.contains("email"))
        #expect(!line.contains("password_hash"))
        try await StoreFixture.withStore(to) { store in
            try await store.importAccount(try AccountArchive.read(from: directory), now: Fixtures.day(2))
            #expect(try await store.account(id: "u_app_1") == bare)
        }
    }
}
