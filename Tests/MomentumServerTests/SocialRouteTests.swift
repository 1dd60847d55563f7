import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// A person, as the tests hold them: their token and id.
struct Person {
    var token: String
    var id: String
}

extension TestClientProtocol {
    /// Registers a person and returns their token and user id.
    func person(_ name: String, pack: String? = nil) async throws -> Person {
        let packField = pack.map { #", "pack": "\#($0)""# } ?? ""
        let response = try await call(
            .post, "/v1/accounts",
            json:
                #"{"email": "\#(name)@example.com", "password": "correct horse", "displayName": "\#(name.capitalized)", "timeZone": "Europe/Berlin", "deviceName": "phone"\#(packField)}"#
        )
        #expect(response.status == .created, "\(response.text)")
        return Person(token: response.json["token"] as? String ?? "", id: response.json["userID"] as? String ?? "")
    }

    /// Makes `inviter` and `invitee` friends through an invitation.
    func befriend(_ inviter: Person, _ invitee: Person) async throws {
        let invitation = try await call(.post, "/v1/invitations", token: inviter.token, json: "{}")
        #expect(invitation.status == .created, "\(invitation.text)")
        let code = invitation.json["code"] as? String ?? ""
        let accepted = try await call(.post, "/v1/invitations/\(code)/accept", token: invitee.token)
        #expect(accepted.status == .ok, "\(accepted.text)")
    }
}

/// Friends, invitations, posts, the feed, reactions, nudges and blocks through the API, on
/// both backends, with the security rule of every route: someone who may not see a thing
/// gets the answer an id that does not exist gets.
@Suite(.serialized) struct SocialRouteTests {
    /// A habit read and checked in today: its first check-in is a milestone.
    func startReading(_ client: some TestClientProtocol, _ person: Person) async throws -> String {
        let created = try await client.call(
            .post, "/v1/habits", token: person.token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
        #expect(created.status == .created, "\(created.text)")
        let done = try await client.call(.post, "/v1/habits/read/check-ins", token: person.token, json: "{}")
        #expect(done.status == .ok, "\(done.text)")
        let achievements = try await client.call(.get, "/v1/achievements", token: person.token)
        let unlocked = achievements.json["unlocked"] as? [[String: Any]] ?? []
        return try #require(unlocked.first?["id"] as? String, "\(achievements.text)")
    }

    func keys(_ client: some TestClientProtocol, _ person: Person) async throws -> [String: [String: Any]] {
        let inbox = try await client.call(.get, "/v1/notifications", token: person.token)
        var entries: [String: [String: Any]] = [:]
        for entry in inbox.json["notifications"] as? [[String: Any]] ?? [] {
            entries[entry["key"] as? String ?? ""] = entry
        }
        return entries
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func friendsShareReactAndNudgeAndStrangersSeeNothing(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            let bob = try await client.person("bob")
            let cy = try await client.person("cy")
            let dee = try await client.person("dee")
            let unlock = try await startReading(client, ada)

            // An invitation: previewed, accepted once; its inviter hears of it.
            let invitation = try await client.call(
                .post, "/v1/invitations", token: ada.token, json: #"{"expiresInDays": 3}"#)
            #expect(invitation.status == .created, "\(invitation.text)")
            let code = try #require(invitation.json["code"] as? String)
            #expect(code.count == 14 && invitation.json["link"] as? String == "/invitations/\(code)")
            let preview = try await client.call(.get, "/v1/invitations/\(code.lowercased())", token: bob.token)
            #expect(preview.json["inviterName"] as? String == "Ada", "\(preview.text)")
            let accepted = try await client.call(.post, "/v1/invitations/\(code)/accept", token: bob.token)
            #expect(accepted.status == .ok, "\(accepted.text)")
            #expect((accepted.json["friend"] as? [String: Any])?["user"] as? String == ada.id)
            let used = try await client.call(.post, "/v1/invitations/\(code)/accept", token: cy.token)
            let unknown = try await client.call(.post, "/v1/invitations/ABCD-EFGH-JKMN/accept", token: cy.token)
            #expect(used.status == .notFound && unknown.status == .notFound && used.errorCode == unknown.errorCode)
            #expect(try await keys(client, ada).keys.contains { $0.hasPrefix("friend:") })
            let listed = try await client.call(.get, "/v1/invitations", token: ada.token)
            #expect((listed.json["invitations"] as? [[String: Any]])?.first?["state"] as? String == "accepted")
            try await client.befriend(ada, dee)

            // Ada shares her habit; Bob sees its streak as the server evaluates it.
            let refused = try await client.call(
                .put, "/v1/sharing", token: ada.token, json: #"{"habits": ["read", "nope"]}"#)
            #expect(refused.status == .unprocessableContent && refused.errorFields == ["habits[1]"], "\(refused.text)")
            let shared = try await client.call(.put, "/v1/sharing", token: ada.token, json: #"{"habits": ["read"]}"#)
            #expect(shared.json["habits"] as? [String] == ["read"], "\(shared.text)")
            let profile = try await client.call(.get, "/v1/friends/\(ada.id)", token: bob.token)
            let habit = try #require((profile.json["habits"] as? [[String: Any]])?.first, "\(profile.text)")
            #expect(habit["current"] as? Int == 1 && habit["doneToday"] as? Bool == true)

            // The milestone, shared once, reaches both friends' feeds.
            let post = try await client.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock)"}"#)
            #expect(post.status == .created, "\(post.text)")
            let postID = try #require(post.json["id"] as? String)
            let again = try await client.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock)"}"#)
            #expect(again.status == .ok && again.json["id"] as? String == postID)
            let missing = try await client.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "made-up"}"#)
            #expect(missing.status == .notFound)
            let feed = try await client.call(.get, "/v1/feed", token: bob.token)
            let item = try #require((feed.json["items"] as? [[String: Any]])?.first, "\(feed.text)")
            #expect(item["authorName"] as? String == "Ada")
            #expect(try await client.call(.get, "/v1/feed", token: cy.token).json["items"] as? [Any] != nil)
            #expect((try await client.call(.get, "/v1/feed", token: cy.token).json["items"] as? [Any])?.isEmpty == true)

            // Reactions: friends react once each (changeable); a stranger and the owner are
            // answered as for a post that does not exist.
            let reaction = "/v1/posts/\(ada.id)/\(postID)/reaction"
            let nowhere = "/v1/posts/\(ada.id)/p_00000000000000000000/reaction"
            let fire = #"{"reaction": "fire"}"#
            #expect(
                try await client.call(.put, reaction, token: bob.token, json: #"{"reaction": "clap"}"#).status == .ok)
            #expect(try await client.call(.put, reaction, token: bob.token, json: fire).status == .ok)
            let strange = try await client.call(.put, reaction, token: cy.token, json: fire)
            let own = try await client.call(.put, reaction, token: ada.token, json: fire)
            let none = try await client.call(.put, nowhere, token: bob.token, json: fire)
            for answer in [strange, own, none] {
                #expect(answer.status == .notFound && answer.errorCode == "not_found")
            }
            let odd = try await client.call(.put, reaction, token: bob.token, json: #"{"reaction": "thumbs-down"}"#)
            #expect(odd.status == .badRequest || odd.status == .unprocessableContent, "\(odd.text)")
            let both = try await client.call(.put, reaction, token: dee.token, json: #"{"reaction": "party"}"#)
            #expect((both.json["reactions"] as? [[String: Any]])?.count == 2, "\(both.text)")
            // One notification for the post, grouped: both names, not one entry each.
            let grouped = try await keys(client, ada).filter { $0.key.hasPrefix("reaction:") }
            #expect(grouped.count == 1)
            let text = grouped.values.first?["body"] as? String ?? ""
            #expect(text.contains("Dee 🎉") && text.contains("Bob 🔥"), "\(text)")
            let counted = try await client.call(.get, "/v1/feed", token: bob.token)
            let counts = (counted.json["items"] as? [[String: Any]])?.first?["reactions"] as? [String: Int]
            #expect(counts == ["fire": 1, "party": 1])
            #expect(
                (counted.json["items"] as? [[String: Any]])?.first?["mine"] as? String == "fire", "\(counted.text)")
            #expect(
                try await client.call(.get, "/v1/posts/\(ada.id)/\(postID)/reactions", token: cy.token).status
                    == .notFound)

            // The next day Ada has not read yet: Bob cheers her on, once; Cy, a stranger, cannot.
            harness.clock.value.withLock { $0 += 86_400 }
            let nudge = try await client.call(.post, "/v1/friends/\(ada.id)/nudges", token: bob.token)
            #expect(nudge.status == .created, "\(nudge.text)")
            let twice = try await client.call(.post, "/v1/friends/\(ada.id)/nudges", token: bob.token)
            #expect(twice.status == .conflict && twice.errorCode == "already_nudged")
            let stranger = try await client.call(.post, "/v1/friends/\(ada.id)/nudges", token: cy.token)
            let nobody = try await client.call(.post, "/v1/friends/u_nobody/nudges", token: cy.token)
            #expect(stranger.status == .notFound && nobody.status == .notFound)
            #expect(try await keys(client, ada).keys.contains { $0.hasPrefix("nudge:") })
            // Dee's nudge: Ada takes no more than she allows.
            _ = try await client.call(
                .patch, "/v1/profile", token: ada.token, json: #"{"notifications": {"nudgesPerDay": 1}}"#)
            let capped = try await client.call(.post, "/v1/friends/\(ada.id)/nudges", token: dee.token)
            #expect(capped.status == .conflict && capped.errorCode == "not_taking_nudges", "\(capped.text)")

            // Bob removes Ada: her posts leave his feed and he is a stranger again.
            #expect(try await client.call(.delete, "/v1/friends/\(ada.id)", token: bob.token).status == .noContent)
            #expect(
                (try await client.call(.get, "/v1/feed", token: bob.token).json["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.call(.put, reaction, token: bob.token, json: fire).status == .notFound)
            #expect(try await client.call(.get, "/v1/friends/\(ada.id)", token: bob.token).status == .notFound)
            #expect(try await client.call(.delete, "/v1/friends/\(ada.id)", token: bob.token).status == .notFound)

            // Ada blocks Dee: the same answers as for a stranger, and no way back in.
            #expect(try await client.call(.put, "/v1/blocks/\(dee.id)", token: ada.token).status == .noContent)
            #expect(try await client.call(.put, "/v1/blocks/u_nobody_at_all", token: ada.token).status == .noContent)
            #expect(try await client.call(.put, reaction, token: dee.token, json: fire).status == .notFound)
            #expect(try await client.call(.get, "/v1/friends/\(ada.id)", token: dee.token).status == .notFound)
            let next = try await client.call(.post, "/v1/invitations", token: ada.token, json: "{}")
            let nextCode = next.json["code"] as? String ?? ""
            let blockedPreview = try await client.call(.get, "/v1/invitations/\(nextCode)", token: dee.token)
            let blockedAccept = try await client.call(.post, "/v1/invitations/\(nextCode)/accept", token: dee.token)
            #expect(blockedPreview.status == .notFound && blockedAccept.status == .notFound)
            #expect(blockedAccept.errorCode == unknown.errorCode)
            let blocks = try await client.call(.get, "/v1/blocks", token: ada.token)
            #expect((blocks.json["blocked"] as? [[String: Any]])?.count == 2)
            #expect(try await client.call(.delete, "/v1/blocks/\(dee.id)", token: ada.token).status == .noContent)
            #expect(try await client.call(.delete, "/v1/blocks/\(dee.id)", token: ada.token).status == .notFound)
            #expect(
                try await client.call(.put, "/v1/blocks/\(ada.id)", token: ada.token).status == .unprocessableContent)

            // Someone else's id in a body is refused, never used.
            for (path, json) in [
                ("/v1/posts", #"{"unlock": "\#(unlock)", "owner": "\#(bob.id)"}"#),
                ("/v1/invitations", #"{"inviter": "\#(bob.id)"}"#),
            ] {
                let answer = try await client.call(.post, path, token: ada.token, json: json)
                #expect(answer.status == .badRequest || answer.status == .unprocessableContent, "\(answer.text)")
            }
            let sharing = try await client.call(.put, "/v1/sharing", token: ada.token, json: #"{"user": "\#(bob.id)"}"#)
            #expect(sharing.status == .badRequest || sharing.status == .unprocessableContent, "\(sharing.text)")
            // Ada takes her post back: it leaves every feed.
            #expect(
                try await client.call(.delete, "/v1/posts/\(ada.id)/\(postID)", token: ada.token).status == .noContent)
            #expect(
                try await client.call(.delete, "/v1/posts/\(ada.id)/\(postID)", token: bob.token).status == .notFound)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aFlaggedAccountsPostWaitsForTheReview(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            let bob = try await client.person("bob")
            try await client.befriend(ada, bob)
            let unlock = try await startReading(client, ada)
            try await harness.state.store.flag(
                ReviewFlag(user: ada.id, id: "f1", kind: .burst, detail: "many", events: [], createdAt: harness.now))
            let post = try await client.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock)"}"#)
            #expect(post.status == .created && post.json["held"] as? Bool == true, "\(post.text)")
            #expect(
                (try await client.call(.get, "/v1/feed", token: bob.token).json["items"] as? [Any])?.isEmpty == true)
            let admin: HTTPFields = [.authorization: "Bearer mop_harness-owner"]
            let wrong = try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/nope/clear", headers: admin)
            #expect(wrong.status == .notFound)
            let cleared = try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/f1/clear", headers: admin)
            #expect(
                cleared.json["releasedPosts"] as? Int == 1 && cleared.json["readers"] as? Int == 2, "\(cleared.text)")
            let feed = try await client.call(.get, "/v1/feed", token: bob.token)
            #expect((feed.json["items"] as? [[String: Any]])?.count == 1, "\(feed.text)")
            #expect(try await client.call(.post, "/v1/admin/review-flags/\(ada.id)/f1/clear").status == .unauthorized)
        }
    }

    @Test(
        .enabled(
            if: ServerHarness.instances == 1,
            "an instance learns a shared limit's count once it has counted the key itself: a third instance may admit one more (SCALING.md)"
        ))
    func invitationsReactionsAndNudgesAreRateLimited() async throws {
        try await ServerHarness.with(configure: {
            $0.socialActionsPerMinute = 2
            $0.invitationCodesPerMinute = 3
        }) { _, client in
            let ada = try await client.person("ada")
            let bob = try await client.person("bob")
            for _ in 0..<2 {
                #expect(
                    try await client.call(.post, "/v1/invitations", token: ada.token, json: "{}").status == .created)
            }
            let third = try await client.call(.post, "/v1/invitations", token: ada.token, json: "{}")
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] != nil)
            for _ in 0..<3 {
                #expect(
                    try await client.call(.get, "/v1/invitations/ABCD-EFGH-JKMN", token: bob.token).status == .notFound)
            }
            #expect(
                try await client.call(.get, "/v1/invitations/ABCD-EFGH-JKMN", token: bob.token).status
                    == .tooManyRequests)
        }
    }

    @Test func aFeedIsPagedByCursorAndABadCursorIsNamed() async throws {
        try await ServerHarness.with { harness, client in
            let ada = try await client.person("ada", pack: "habits+ollie")
            let bob = try await client.person("bob")
            try await client.befriend(ada, bob)
            _ = try await client.call(
                .post, "/v1/subjects", token: ada.token,
                json: #"{"subject": "ollie", "name": "Ollie", "kind": "puppy"}"#)
            var posts: [String] = []
            for (index, item) in ["outdoor", "indoor"].enumerated() {
                harness.clock.value.withLock { $0 += 60 }
                let logged = try await client.call(
                    .post, "/v1/events", token: ada.token,
                    json: eventsJSON([
                        #"{"id": "p\#(index)", "type": "log", "at": "\#(ISO8601DateFormatter().string(from: harness.now))", "tz": "Europe/Berlin", "kind": "potty", "item": "\#(item)", "subject": "ollie"}"#
                    ]))
                for unlock in logged.json["unlocks"] as? [[String: Any]] ?? [] {
                    let shared = try await client.call(
                        .post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock["id"] as? String ?? "")"}"#)
                    if let id = shared.json["id"] as? String { posts.append(id) }
                }
            }
            _ = try await startReading(client, ada)
            let achievements = try await client.call(.get, "/v1/achievements", token: ada.token)
            for unlock in achievements.json["unlocked"] as? [[String: Any]] ?? [] {
                harness.clock.value.withLock { $0 += 1 }
                _ = try await client.call(
                    .post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock["id"] as? String ?? "")"}"#)
            }
            let all = try await client.call(.get, "/v1/feed?limit=100", token: bob.token)
            let total = (all.json["items"] as? [Any])?.count ?? 0
            #expect(total >= 2, "\(all.text)")
            var seen: [String] = []
            var next: String? = nil
            repeat {
                let page = try await client.call(
                    .get, "/v1/feed?limit=1" + (next.map { "&before=\($0)" } ?? ""), token: bob.token)
                seen += (page.json["items"] as? [[String: Any]] ?? []).compactMap {
                    ($0["post"] as? [String: Any])?["id"] as? String
                }
                next = page.json["next"] as? String
            } while next != nil && seen.count <= total
            #expect(seen.count == total && Set(seen).count == total)
            let bad = try await client.call(.get, "/v1/feed?before=not-a-cursor", token: bob.token)
            #expect(bad.status == .unprocessableContent && bad.errorFields == ["before"], "\(bad.text)")
        }
    }
}

/// One puppy, several caregivers: a family through the API on both backends.
@Suite(.serialized) struct FamilyRouteTests {
    func potty(_ id: String, _ harness: ServerHarness, subject: String = "ollie") -> String {
        eventsJSON([
            #"{"id": "\#(id)", "type": "log", "at": "\#(ISO8601DateFormatter().string(from: harness.now))", "tz": "Europe/Berlin", "kind": "potty", "item": "outdoor", "subject": "\#(subject)"}"#
        ])
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func caregiversLogForTheSubjectAndEveryMemberHearsOfItsMilestones(
        _ backend: ServerHarness.Backend
    ) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada", pack: "habits+ollie")
            let bob = try await client.person("bob")
            let cy = try await client.person("cy")
            let dee = try await client.person("dee")
            let subject = try await client.call(
                .post, "/v1/subjects", token: ada.token,
                json: #"{"subject": "ollie", "name": "Ollie", "kind": "puppy"}"#)
            #expect(subject.status == .ok || subject.status == .created, "\(subject.text)")
            let family = "/v1/families/\(ada.id)/ollie"
            var codes: [String] = []
            for role in ["caregiver", "viewer"] {
                let invitation = try await client.call(
                    .post, family + "/invitations", token: ada.token, json: #"{"role": "\#(role)"}"#)
                #expect(invitation.status == .created, "\(invitation.text)")
                codes.append(invitation.json["code"] as? String ?? "")
            }
            let preview = try await client.call(.get, "/v1/invitations/\(codes[0])", token: bob.token)
            #expect(preview.json["subjectName"] as? String == "Ollie" && preview.json["role"] as? String == "caregiver")
            let joined = try await client.call(.post, "/v1/invitations/\(codes[0])/accept", token: bob.token)
            #expect((joined.json["membership"] as? [String: Any])?["role"] as? String == "caregiver", "\(joined.text)")
            #expect(try await client.call(.post, "/v1/invitations/\(codes[1])/accept", token: cy.token).status == .ok)

            // Bob logs Ollie's first outdoor potty break: it is in Ada's log, marked as his.
            let logged = try await client.call(.post, family + "/events", token: bob.token, json: potty("b1", harness))
            #expect(logged.status == .ok, "\(logged.text)")
            let unlocks = (logged.json["unlocks"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(!unlocks.isEmpty, "\(logged.text)")
            let pulled = try await client.call(.get, "/v1/events", token: ada.token)
            let last = try #require((pulled.json["events"] as? [[String: Any]])?.last)
            #expect(last["loggedBy"] as? String == bob.id)
            #expect((last["device"] as? String)?.contains("/") == false)
            // Every member hears of the milestone.
            for member in [bob, cy] {
                let inbox = try await client.call(.get, "/v1/notifications", token: member.token)
                let keys = (inbox.json["notifications"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
                #expect(keys.contains("family:\(ada.id):\(unlocks[0])"), "\(inbox.text)")
            }
            // A photo Ada adds to Ollie's memory is seen by the family, and only through it.
            let memories = try await client.call(.get, "/v1/memories", token: ada.token)
            let memory = try #require(
                (memories.json["memories"] as? [[String: Any]])?.first { $0["unlockID"] as? String == unlocks[0] },
                "\(memories.text)")
            let memoryID =
                (memory["id"] as? String ?? "").addingPercentEncoding(
                    withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ""
            let uploaded = try await client.call(
                .put, "/v1/memories/\(memoryID)/photo", token: ada.token, bytes: MemoryAndOpsRouteTests.pngWithText)
            let path = try #require(
                (uploaded.json["photo"] as? [String: Any])?["original"] as? String, "\(uploaded.text)")
            let seen = try await client.call(.get, family + "/photos/\(path)", token: cy.token)
            #expect(seen.status == .ok && seen.headers[.contentType]?.hasPrefix("image/") == true)
            #expect(try await client.call(.get, family + "/photos/\(path)", token: dee.token).status == .notFound)
            #expect(try await client.call(.get, "/v1/photos/\(path)", token: cy.token).status == .notFound)
            #expect(
                try await client.call(.get, family + "/photos/memories/made-up.jpg", token: cy.token).status
                    == .notFound)
            let detail = try await client.call(.get, family, token: cy.token)
            #expect(detail.json["role"] as? String == "viewer", "\(detail.text)")
            #expect((detail.json["members"] as? [Any])?.count == 3)
            let recent = try #require((detail.json["recent"] as? [[String: Any]])?.first)
            #expect(recent["loggedByName"] as? String == "Bob")
            #expect((detail.json["achievements"] as? [Any])?.isEmpty == false)

            // A viewer's write, a stranger's read and a made-up family get the same answer.
            let viewer = try await client.call(.post, family + "/events", token: cy.token, json: potty("c1", harness))
            let nowhere = try await client.call(
                .post, "/v1/families/\(ada.id)/nobody/events", token: bob.token, json: potty("b2", harness))
            let stranger = try await client.call(.get, family, token: dee.token)
            for answer in [viewer, nowhere, stranger] {
                #expect(answer.status == .notFound && answer.errorCode == "not_found", "\(answer.text)")
            }
            #expect(
                try await client.call(
                    .patch, family + "/members/\(bob.id)", token: cy.token, json: #"{"role": "viewer"}"#
                ).status == .notFound)
            let other = try await client.call(
                .post, family + "/events", token: bob.token, json: potty("b3", harness, subject: "rex"))
            #expect(other.status == .unprocessableContent && other.errorFields == ["events[0]"], "\(other.text)")

            // Bob becomes a co-owner and invites Dee; then he leaves, and what he logged stays.
            let promoted = try await client.call(
                .patch, family + "/members/\(bob.id)", token: ada.token, json: #"{"role": "co-owner"}"#)
            #expect(promoted.json["role"] as? String == "co-owner", "\(promoted.text)")
            #expect(
                try await client.call(.post, family + "/invitations", token: bob.token, json: #"{"role": "viewer"}"#)
                    .status == .created)
            #expect(
                try await client.call(.delete, family + "/members/\(ada.id)", token: bob.token).status
                    == .unprocessableContent)
            #expect(
                try await client.call(.delete, family + "/members/\(bob.id)", token: bob.token).status == .noContent)
            let after = try await client.call(.get, family, token: ada.token)
            #expect(
                (after.json["recent"] as? [[String: Any]])?.first?["loggedByName"] as? String == "Bob", "\(after.text)")
            #expect((after.json["members"] as? [Any])?.count == 2)
            let mine = try await client.call(.get, "/v1/families", token: bob.token)
            #expect((mine.json["families"] as? [Any])?.isEmpty == true, "\(mine.text)")
            let owned = try await client.call(.get, "/v1/families", token: ada.token)
            #expect((owned.json["families"] as? [[String: Any]])?.first?["members"] as? Int == 1, "\(owned.text)")
        }
    }
}
