import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Identities linked to accounts: no linking by email, linking and unlinking by their owner,
/// and never the last way to sign in.
@Suite(.serialized)
struct IdentityProviderLinkTests {
    typealias Backend = ServerHarness.Backend

    static func token(
        _ harness: ServerHarness, subject: String, email: String? = nil, verified: Bool? = nil
    )
        async throws -> String
    {
        var claims = TestClaims(now: harness.now)
        claims.sub = subject
        claims.email = email
        claims.emailVerified = verified
        return try await TestTokens.rs256(claims)
    }

    @Test(arguments: Backend.allCases)
    func aVerifiedEmailOfAnExistingAccountIsNotLinkedBySigningIn(_ backend: Backend) async throws {
        try await IdentityProviderSignInTests.withProvider(backend) { harness, client, _ in
            _ = try await client.register("sam")
            #expect(try await IdentityProviderSignInTests.accounts(harness) == 1)
            let token = try await Self.token(harness, subject: "s-1", email: "Sam@Example.com", verified: true)
            let answer = try await IdentityProviderSignInTests.signIn(client, token)
            #expect(answer.status == .conflict, "\(answer.text)")
            #expect(answer.errorCode == "link_required")
            #expect(try await IdentityProviderSignInTests.accounts(harness) == 1)
            // The same email unverified is nobody's: a new account, without an email.
            let unverified = try await Self.token(harness, subject: "s-2", email: "sam@example.com", verified: false)
            let created = try await IdentityProviderSignInTests.signIn(client, unverified)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["email"] == nil)
            // A verified email nobody has becomes the new account's.
            let fresh = try await Self.token(harness, subject: "s-3", email: "new@example.com", verified: true)
            let withEmail = try await IdentityProviderSignInTests.signIn(client, fresh)
            #expect(withEmail.json["email"] as? String == "new@example.com")
            #expect(try await IdentityProviderSignInTests.accounts(harness) == 3)
        }
    }

    @Test(arguments: Backend.allCases)
    func anOwnerLinksListsAndUnlinksAnIdentity(_ backend: Backend) async throws {
        try await IdentityProviderSignInTests.withProvider(backend) { harness, client, _ in
            let sam = try await client.register("sam")
            let me = try await client.call(.get, "/v1/profile", token: sam)
            #expect(me.status == .ok)
            let body =
                #"{"provider": "test", "idToken": "\#(try await Self.token(harness, subject: "s-1", email: "sam@example.com", verified: true))"}"#
            let linked = try await client.call(.post, "/v1/me/identities", token: sam, json: body)
            #expect(linked.status == .created, "\(linked.text)")
            #expect(linked.json["subject"] as? String == "s-1")
            let list = try await client.call(.get, "/v1/me/identities", token: sam)
            #expect((list.json["identities"] as? [[String: Any]])?.map { $0["provider"] as? String } == ["test"])
            // Now the identity signs in to Sam's account.
            let signedIn = try await IdentityProviderSignInTests.signIn(
                client, try await Self.token(harness, subject: "s-1", email: "sam@example.com", verified: true))
            #expect(signedIn.status == .created, "\(signedIn.text)")
            let devices = try await client.call(.get, "/v1/devices", token: sam)
            #expect((devices.json["devices"] as? [Any])?.count == 2)
            // A second identity of the provider, or another account's identity, is refused.
            let second = #"{"provider": "test", "idToken": "\#(try await Self.token(harness, subject: "s-9"))"}"#
            let refused = try await client.call(.post, "/v1/me/identities", token: sam, json: second)
            #expect(refused.errorCode == "provider_linked")
            let ada = try await client.register("ada")
            let taken = try await client.call(.post, "/v1/me/identities", token: ada, json: body)
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == "identity_taken")
            // Sam keeps a password: the identity may go.
            #expect(try await client.call(.delete, "/v1/me/identities/test", token: sam).status == .noContent)
            #expect(try await client.call(.delete, "/v1/me/identities/test", token: sam).status == .notFound)
            let empty = try await client.call(.get, "/v1/me/identities", token: sam)
            #expect((empty.json["identities"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: Backend.allCases)
    func theLastWayToSignInIsNotUnlinked(_ backend: Backend) async throws {
        try await IdentityProviderSignInTests.withProvider(backend) { harness, client, _ in
            let created = try await IdentityProviderSignInTests.signIn(
                client, try await Self.token(harness, subject: "only-1"))
            let token = try #require(created.json["token"] as? String)
            let refused = try await client.call(.delete, "/v1/me/identities/test", token: token)
            #expect(refused.status == .conflict, "\(refused.text)")
            #expect(refused.errorCode == "last_sign_in_method")
            let list = try await client.call(.get, "/v1/me/identities", token: token)
            #expect((list.json["identities"] as? [Any])?.count == 1)
            // Unauthenticated calls are refused; a provider the account has no identity of is 404.
            #expect(try await client.call(.get, "/v1/me/identities").status == .unauthorized)
            #expect(try await client.call(.delete, "/v1/me/identities/nope", token: token).status == .notFound)
        }
    }
}
