import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Authority that must not outlive its reason, through the API and the web pages on both
/// backends: a co-owner's invitations end with their role, a shared achievement category
/// does not reveal a private habit, and a block ends a family membership both ways.
@Suite(.serialized) struct SocialAuthorityRouteTests {
    /// A family invitation `person` makes, and its code.
    func invite(
        _ client: some TestClientProtocol, _ family: String, by person: Person, as role: String
    ) async throws -> String {
        let made = try await client.call(
            .post, family + "/invitations", token: person.token, json: #"{"role": "\#(role)"}"#)
        #expect(made.status == .created, "\(made.text)")
        return try #require(made.json["code"] as? String, "\(made.text)")
    }

    /// The codes of a family's open invitations as `person` lists them.
    func openCodes(_ client: some TestClientProtocol, _ family: String, by person: Person) async throws -> Set<String> {
        let listed = try await client.call(.get, family + "/invitations", token: person.token)
        #expect(listed.status == .ok, "\(listed.text)")
        return Set((listed.json["invitations"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String })
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aCoOwnersInvitationsEndWithTheirRoleAndTheOwnerSeesAndWithdrawsEveryOpenOne(
        _ backend: ServerHarness.Backend
    ) async throws {
        try await ServerHarness.with(backend: backend) { _, client in
            let ada = try await client.person("ada", pack: "habits+ollie")
            let bob = try await client.person("bob")
            // Bob's second account, which his own codes must not let in once he is demoted.
            let bobby = try await client.person("bobby")
            let cy = try await client.person("cy")
            let dee = try await client.person("dee")
            _ = try await client.call(
                .post, "/v1/subjects", token: ada.token,
                json: #"{"subject": "ollie", "name": "Ollie", "kind": "puppy"}"#)
            let family = "/v1/families/\(ada.id)/ollie"
            for (person, role) in [(bob, "co-owner"), (cy, "caregiver")] {
                let code = try await invite(client, family, by: ada, as: role)
                #expect(
                    try await client.call(.post, "/v1/invitations/\(code)/accept", token: person.token).status == .ok)
            }
            let b1 = try await invite(client, family, by: bob, as: "co-owner")
            let b2 = try await invite(client, family, by: bob, as: "caregiver")
            let a1 = try await invite(client, family, by: ada, as: "viewer")

            // The owner sees every open invitation with who made it; a co-owner their own;
            // a caregiver gets the answer of a family that does not exist.
            let listed = try await client.call(.get, family + "/invitations", token: ada.token)
            let entries = listed.json["invitations"] as? [[String: Any]] ?? []
            #expect(Set(entries.compactMap { $0["code"] as? String }) == [b1, b2, a1], "\(listed.text)")
            let bobs = entries.first { $0["code"] as? String == b1 }
            #expect(bobs?["inviter"] as? String == bob.id && bobs?["inviterName"] as? String == "Bob")
            #expect(bobs?["role"] as? String == "co-owner" && bobs?["state"] as? String == "pending")
            #expect(try await openCodes(client, family, by: bob) == [b1, b2])
            let caregiver = try await client.call(.get, family + "/invitations", token: cy.token)
            let nowhere = try await client.call(.get, "/v1/families/\(ada.id)/nobody/invitations", token: cy.token)
            #expect(caregiver.status == .notFound && caregiver.errorCode == nowhere.errorCode, "\(caregiver.text)")

            // Bob is made a caregiver: the codes he made admit nobody, not even to a preview.
            let demoted = try await client.call(
                .patch, family + "/members/\(bob.id)", token: ada.token, json: #"{"role": "caregiver"}"#)
            #expect(demoted.status == .ok, "\(demoted.text)")
            for code in [b1, b2] {
                let preview = try await client.call(.get, "/v1/invitations/\(code)", token: bobby.token)
                let accepted = try await client.call(.post, "/v1/invitations/\(code)/accept", token: bobby.token)
                #expect(preview.status == .notFound, "\(preview.text)")
                #expect(accepted.status == .notFound && accepted.errorCode == "not_found", "\(accepted.text)")
            }
            let his = try await client.call(.get, "/v1/invitations", token: bob.token)
            let states = (his.json["invitations"] as? [[String: Any]] ?? []).filter {
                [b1, b2].contains($0["code"] as? String ?? "")
            }
            #expect(states.count == 2 && states.allSatisfy { $0["state"] as? String == "revoked" }, "\(his.text)")
            #expect(try await openCodes(client, family, by: ada) == [a1])
            #expect(
                try await client.call(.get, family + "/invitations", token: bob.token).status == .notFound)

            // A co-owner again, Bob makes another; removed, that one admits nobody either.
            _ = try await client.call(
                .patch, family + "/members/\(bob.id)", token: ada.token, json: #"{"role": "co-owner"}"#)
            let b3 = try await invite(client, family, by: bob, as: "co-owner")
            #expect(
                try await client.call(.delete, family + "/members/\(bob.id)", token: ada.token).status == .noContent)
            #expect(
                try await client.call(.post, "/v1/invitations/\(b3)/accept", token: bobby.token).status == .notFound)
            #expect(try await client.call(.get, family, token: bobby.token).status == .notFound)

            // The owner withdraws any open invitation; a co-owner only their own.
            let d = try await invite(client, family, by: ada, as: "co-owner")
            #expect(try await client.call(.post, "/v1/invitations/\(d)/accept", token: dee.token).status == .ok)
            let d1 = try await invite(client, family, by: dee, as: "viewer")
            let othersCode = try await client.call(.delete, family + "/invitations/\(a1)", token: dee.token)
            #expect(othersCode.status == .notFound && othersCode.errorCode == "not_found", "\(othersCode.text)")
            #expect(
                try await client.call(.delete, family + "/invitations/\(d1)", token: dee.token).status == .noContent)
            #expect(
                try await client.call(.delete, family + "/invitations/\(a1)", token: cy.token).status == .notFound)
            let withdrawn = try await client.call(
                .delete, family + "/invitations/\(a1.lowercased())", token: ada.token)
            #expect(withdrawn.status == .noContent, "\(withdrawn.text)")
            #expect(try await client.call(.delete, family + "/invitations/\(a1)", token: ada.token).status == .notFound)
            #expect(
                try await client.call(.post, "/v1/invitations/\(a1)/accept", token: bobby.token).status == .notFound)
            #expect(try await openCodes(client, family, by: ada).isEmpty)

            // The family page lists the open invitations to those who may withdraw them.
            let e1 = try await invite(client, family, by: ada, as: "caregiver")
            let page = try await client.call(
                .get, "/families/\(ada.id)/ollie", headers: [.cookie: try await client.signInCookie("ada")])
            #expect(page.status == .ok && page.text.contains(e1), "\(page.text.prefix(300))")
            #expect(page.text.contains(#"data-action="revoke-family-invitation""#))
            let seenByCaregiver = try await client.call(
                .get, "/families/\(ada.id)/ollie", headers: [.cookie: try await client.signInCookie("cy")])
            #expect(seenByCaregiver.status == .ok && !seenByCaregiver.text.contains(e1))
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aFriendSeesAnAchievementAboutAHabitOnlyWhenThatHabitIsShared(
        _ backend: ServerHarness.Backend
    ) async throws {
        try await ServerHarness.with(backend: backend) { _, client in
            let ada = try await client.person("ada")
            let bob = try await client.person("bob")
            try await client.befriend(ada, bob)
            for (habit, name) in [("walk", "Walk"), ("therapy", "Therapy")] {
                let created = try await client.call(
                    .post, "/v1/habits", token: ada.token,
                    json: #"{"habit": "\#(habit)", "name": "\#(name)", "policy": "strict"}"#)
                #expect(created.status == .created, "\(created.text)")
                let done = try await client.call(.post, "/v1/habits/\(habit)/check-ins", token: ada.token, json: "{}")
                #expect(done.status == .ok, "\(done.text)")
            }
            let shared = try await client.call(
                .put, "/v1/sharing", token: ada.token, json: #"{"habits": ["walk"], "categories": ["streaks"]}"#)
            #expect(shared.status == .ok, "\(shared.text)")

            let profile = try await client.call(.get, "/v1/friends/\(ada.id)", token: bob.token)
            let achievements = profile.json["achievements"] as? [[String: Any]] ?? []
            #expect(achievements.contains { $0["habit"] as? String == "walk" }, "\(profile.text)")
            #expect(!achievements.contains { $0["habit"] as? String == "therapy" }, "\(profile.text)")
            #expect(!profile.text.lowercased().contains("therapy"), "\(profile.text)")
            let cookie = try await client.signInCookie("bob")
            let page = try await client.call(.get, "/friends/\(ada.id)", headers: [.cookie: cookie])
            #expect(page.status == .ok && page.text.contains("Walk"), "\(page.text.prefix(300))")
            #expect(!page.text.lowercased().contains("therapy"))

            // Shared, the habit's achievements show.
            _ = try await client.call(
                .put, "/v1/sharing", token: ada.token, json: #"{"habits": ["walk", "therapy"]}"#)
            let now = try await client.call(.get, "/v1/friends/\(ada.id)", token: bob.token)
            #expect(
                (now.json["achievements"] as? [[String: Any]] ?? []).contains { $0["habit"] as? String == "therapy" },
                "\(now.text)")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aBlockEndsFamilyMembershipBothWays(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada", pack: "habits+ollie")
            let bob = try await client.person("bob", pack: "habits+ollie")
            for (owner, subject, name) in [(ada, "ollie", "Ollie"), (bob, "rex", "Rex")] {
                _ = try await client.call(
                    .post, "/v1/subjects", token: owner.token,
                    json: #"{"subject": "\#(subject)", "name": "\#(name)", "kind": "puppy"}"#)
            }
            let ollie = "/v1/families/\(ada.id)/ollie"
            let rex = "/v1/families/\(bob.id)/rex"
            // Bob co-owns Ada's Ollie (and made an invitation to it); Ada looks after Bob's Rex.
            for (family, owner, member, role) in [(ollie, ada, bob, "co-owner"), (rex, bob, ada, "caregiver")] {
                let code = try await invite(client, family, by: owner, as: role)
                #expect(
                    try await client.call(.post, "/v1/invitations/\(code)/accept", token: member.token).status == .ok)
            }
            let bobsCode = try await invite(client, ollie, by: bob, as: "viewer")
            let potty =
                #"{"events": [{"id": "b1", "type": "log", "at": "\#(RFC3339.format(harness.now))", "tz": "UTC", "kind": "potty", "item": "outdoor", "subject": "ollie"}]}"#
            #expect(try await client.call(.post, ollie + "/events", token: bob.token, json: potty).status == .ok)

            #expect(try await client.call(.put, "/v1/blocks/\(bob.id)", token: ada.token).status == .noContent)
            // Bob is out of Ada's family: he neither reads it nor logs into it.
            let read = try await client.call(.get, ollie, token: bob.token)
            let nobody = try await client.call(.get, "/v1/families/\(ada.id)/nobody", token: bob.token)
            #expect(read.status == .notFound && read.errorCode == nobody.errorCode, "\(read.text)")
            let logged = try await client.call(
                .post, ollie + "/events", token: bob.token, json: potty.replacingOccurrences(of: "b1", with: "b2"))
            #expect(logged.status == .notFound, "\(logged.text)")
            let page = try await client.call(
                .get, "/families/\(ada.id)/ollie", headers: [.cookie: try await client.signInCookie("bob")])
            #expect(page.status == .notFound)
            // And Ada is out of Bob's.
            #expect(try await client.call(.get, rex, token: ada.token).status == .notFound)
            let adas = try await client.call(.get, "/v1/families", token: ada.token)
            #expect(
                (adas.json["families"] as? [[String: Any]] ?? []).map { $0["role"] as? String } == ["owner"],
                "\(adas.text)")
            #expect((adas.json["families"] as? [[String: Any]])?.first?["members"] as? Int == 0)
            let bobs = try await client.call(.get, "/v1/families", token: bob.token)
            #expect(
                (bobs.json["families"] as? [[String: Any]] ?? []).map { $0["subject"] as? String } == ["rex"],
                "\(bobs.text)")
            // The invitation Bob made to Ada's family is withdrawn.
            let his = try await client.call(.get, "/v1/invitations", token: bob.token)
            let state = (his.json["invitations"] as? [[String: Any]] ?? []).first { $0["code"] as? String == bobsCode }
            #expect(state?["state"] as? String == "revoked", "\(his.text)")
            #expect(try await openCodes(client, ollie, by: ada).isEmpty)
            // Lifting the block lets no one back in by itself.
            #expect(try await client.call(.delete, "/v1/blocks/\(bob.id)", token: ada.token).status == .noContent)
            #expect(try await client.call(.get, ollie, token: bob.token).status == .notFound)
        }
    }
}
