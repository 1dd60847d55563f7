import Foundation
import MomentumCore
import MomentumStore
import Testing

/// The mail outbox, the links mails carry and verified addresses: one suite, run
/// unchanged against every backend.
@Suite(.serialized)
struct MailOutboxConformanceTests {
    static func mail(_ id: String, to recipient: String = "sam@example.com") -> OutgoingMail {
        OutgoingMail(id: id, recipient: recipient, subject: "Hi", body: "A link", createdAt: Fixtures.start)
    }

    static func link(
        _ hash: String, user: String = "sam", purpose: AccountLink.Purpose = .passwordReset
    )
        -> AccountLink
    {
        AccountLink(
            tokenHash: hash, user: user, purpose: purpose, email: "\(user)@example.com", createdAt: Fixtures.start,
            expiresAt: Fixtures.start.addingTimeInterval(3_600))
    }

    @Test(arguments: Backend.allCases)
    func aClaimedMailIsNotClaimedAgainUntilItsLeaseEnds(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.enqueueMail(Self.mail("m_1"), link: nil)
            let now = Fixtures.start
            #expect(try await store.claimMail(now: now, lease: 60, limit: 10).map(\.id) == ["m_1"])
            #expect(try await store.claimMail(now: now.addingTimeInterval(30), lease: 60, limit: 10).isEmpty)
            // A sender that died: its claim runs out and the mail is claimed again.
            let again = try await store.claimMail(now: now.addingTimeInterval(61), lease: 60, limit: 10)
            #expect(again.map(\.id) == ["m_1"])
            #expect(again.first?.body == "A link")
        }
    }

    @Test(arguments: Backend.allCases)
    func aRetriedMailWaitsUntilItsNextAttemptAndASentOneIsDone(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.enqueueMail(Self.mail("m_1"), link: nil)
            let now = Fixtures.start
            _ = try await store.claimMail(now: now, lease: 60, limit: 10)
            try await store.finishMail("m_1", .retry(next: now.addingTimeInterval(300), error: "421 busy"), at: now)
            #expect(
                try await store.mailStatus("m_1") == MailStatus(state: "pending", attempts: 1, lastError: "421 busy"))
            #expect(try await store.claimMail(now: now.addingTimeInterval(299), lease: 60, limit: 10).isEmpty)
            let retried = try await store.claimMail(now: now.addingTimeInterval(300), lease: 60, limit: 10)
            #expect(retried.map(\.attempts) == [1])
            try await store.finishMail("m_1", .sent, at: now.addingTimeInterval(300))
            #expect(try await store.mailStatus("m_1")?.state == "sent")
            #expect(try await store.claimMail(now: now.addingTimeInterval(9_999), lease: 60, limit: 10).isEmpty)
            // Ended mails are forgotten after a while; pending ones never are.
            try await store.enqueueMail(Self.mail("m_2"), link: nil)
            #expect(try await store.pruneMail(finishedBefore: now.addingTimeInterval(10_000)) == 1)
            #expect(try await store.mailStatus("m_1") == nil)
            #expect(try await store.mailStatus("m_2")?.state == "pending")
        }
    }

    @Test(arguments: Backend.allCases)
    func aLinkWorksOnceAndNotAfterItExpires(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            try await store.enqueueMail(Self.mail("m_1"), link: Self.link("h1"))
            let now = Fixtures.start.addingTimeInterval(60)
            // The wrong purpose is no link.
            #expect(try await store.useLink(tokenHash: "h1", purpose: .emailVerification, now: now) == .unknown)
            #expect(
                try await store.useLink(tokenHash: "h1", purpose: .passwordReset, now: now)
                    == .used(user: "sam", email: "sam@example.com"))
            #expect(try await store.useLink(tokenHash: "h1", purpose: .passwordReset, now: now) == .alreadyUsed)
            try await store.enqueueMail(Self.mail("m_2"), link: Self.link("h2"))
            #expect(
                try await store.useLink(tokenHash: "h2", purpose: .passwordReset, now: now.addingTimeInterval(3_600))
                    == .expired)
            #expect(try await store.useLink(tokenHash: "nope", purpose: .passwordReset, now: now) == .unknown)
        }
    }

    @Test(arguments: Backend.allCases)
    func aNewerLinkSupersedesTheOlderOneOfTheSamePurpose(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            try await store.enqueueMail(Self.mail("m_1"), link: Self.link("old"))
            try await store.enqueueMail(
                Self.mail("m_2"), link: Self.link("verify", purpose: .emailVerification))
            try await store.enqueueMail(Self.mail("m_3"), link: Self.link("new"))
            let now = Fixtures.start
            #expect(try await store.useLink(tokenHash: "old", purpose: .passwordReset, now: now) == .unknown)
            let new = try await store.useLink(tokenHash: "new", purpose: .passwordReset, now: now)
            #expect(new == .used(user: "sam", email: "sam@example.com"))
            // Another purpose's link stays.
            let verify = try await store.useLink(tokenHash: "verify", purpose: .emailVerification, now: now)
            #expect(verify == .used(user: "sam", email: "sam@example.com"))
        }
    }

    @Test(arguments: Backend.allCases)
    func aLinkOfAnAccountThatDoesNotExistIsNotStoredNorItsMail(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            await #expect(throws: StoreError.self) {
                try await store.enqueueMail(Self.mail("m_1"), link: Self.link("h1", user: "ghost"))
            }
            let status = try await store.mailStatus("m_1")
            #expect(status == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aVerifiedAddressIsKeptAndGoesWithItsAccount(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            try await store.enqueueMail(Self.mail("m_1"), link: Self.link("h1"))
            #expect(try await store.verifiedEmail(of: "sam") == nil)
            try await store.markEmailVerified("sam@example.com", of: "sam", at: Fixtures.start)
            try await store.markEmailVerified("sam@example.com", of: "sam", at: Fixtures.start)
            #expect(try await store.verifiedEmail(of: "sam") == "sam@example.com")
            // No account, nothing recorded.
            try await store.markEmailVerified("x@example.com", of: "ghost", at: Fixtures.start)
            #expect(try await store.verifiedEmail(of: "ghost") == nil)
            try await store.deleteAccount(id: "sam")
            #expect(try await store.verifiedEmail(of: "sam") == nil)
            #expect(try await store.useLink(tokenHash: "h1", purpose: .passwordReset, now: Fixtures.start) == .unknown)
        }
    }
}
