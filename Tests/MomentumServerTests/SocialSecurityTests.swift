import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Every social and family route, tried by each person who may not use it — a stranger, a
/// removed friend, a blocked person, a viewer who tries to write — answers exactly as the
/// same route does for an id that does not exist: the same status, the same error code, the
/// same message but for the id. On both backends.
@Suite(.serialized) struct SocialSecurityTests {
    /// An answer with the ids in it replaced, so that two answers about different ids compare.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var code: String?
        var message: String

        init(_ response: JSONResponse, ids: [String]) {
            status = response.status.code
            code = response.errorCode
            var text = (response.json["error"] as? [String: Any])?["message"] as? String ?? ""
            for id in ids where !id.isEmpty { text = text.replacingOccurrences(of: id, with: "<id>") }
            message = text
        }

        var description: String { "\(status) \(code ?? "-") \(message)" }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func everyoneWhoMayNotSeeGetsTheAnswerOfAnIdThatDoesNotExist(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { _, client in
            let ada = try await client.person("ada", pack: "habits+ollie")
            let removed = try await client.person("bob")
            let stranger = try await client.person("cy")
            let blocked = try await client.person("dee")
            let viewer = try await client.person("eve")
            // Ada: a habit at risk tomorrow, a post, Ollie with a viewer.
            _ = try await client.call(
                .post, "/v1/habits", token: ada.token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
            let checkIn = try await client.call(.post, "/v1/habits/read/check-ins", token: ada.token, json: "{}")
            let unlock = try #require((checkIn.json["unlocks"] as? [[String: Any]])?.first?["id"] as? String)
            _ = try await client.call(.put, "/v1/sharing", token: ada.token, json: #"{"habits": ["read"]}"#)
            for person in [removed, blocked, viewer] { try await client.befriend(ada, person) }
            let post = try await client.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock)"}"#)
            let postID = try #require(post.json["id"] as? String)
            _ = try await client.call(
                .post, "/v1/subjects", token: ada.token,
                json: #"{"subject": "ollie", "name": "Ollie", "kind": "puppy"}"#)
            let family = try await client.call(
                .post, "/v1/families/\(ada.id)/ollie/invitations", token: ada.token, json: #"{"role": "viewer"}"#)
            let familyCode = try #require(family.json["code"] as? String)
            #expect(
                try await client.call(.post, "/v1/invitations/\(familyCode)/accept", token: viewer.token).status == .ok)
            let open = try await client.call(.post, "/v1/invitations", token: ada.token, json: "{}")
            let code = try #require(open.json["code"] as? String)
            #expect(try await client.call(.delete, "/v1/friends/\(ada.id)", token: removed.token).status == .noContent)
            #expect(try await client.call(.put, "/v1/blocks/\(blocked.id)", token: ada.token).status == .noContent)

            let ghost = "u_nobodyhasthisid0000"
            let missingPost = "p_00000000000000000000"
            let potty =
                #"{"events": [{"id": "x1", "type": "log", "at": "2026-07-14T03:00:00Z", "tz": "UTC", "kind": "potty", "item": "outdoor", "subject": "ollie"}]}"#
            // Each request as the outsider makes it, and the same about something that does not exist.
            struct Probe {
                var method: HTTPRequest.Method
                var path: String
                var missing: String
                var json: String?
            }
            let readers: [Probe] = [
                Probe(method: .get, path: "/v1/friends/\(ada.id)", missing: "/v1/friends/\(ghost)"),
                Probe(method: .delete, path: "/v1/friends/\(ada.id)", missing: "/v1/friends/\(ghost)"),
                Probe(method: .post, path: "/v1/friends/\(ada.id)/nudges", missing: "/v1/friends/\(ghost)/nudges"),
                Probe(
                    method: .put, path: "/v1/posts/\(ada.id)/\(postID)/reaction",
                    missing: "/v1/posts/\(ada.id)/\(missingPost)/reaction", json: #"{"reaction": "fire"}"#),
                Probe(
                    method: .delete, path: "/v1/posts/\(ada.id)/\(postID)/reaction",
                    missing: "/v1/posts/\(ada.id)/\(missingPost)/reaction"),
                Probe(
                    method: .get, path: "/v1/posts/\(ada.id)/\(postID)/reactions",
                    missing: "/v1/posts/\(ada.id)/\(missingPost)/reactions"),
                Probe(
                    method: .delete, path: "/v1/posts/\(ada.id)/\(postID)",
                    missing: "/v1/posts/\(ada.id)/\(missingPost)"),
                Probe(method: .get, path: "/v1/families/\(ada.id)/ollie", missing: "/v1/families/\(ada.id)/nobody"),
                Probe(
                    method: .post, path: "/v1/families/\(ada.id)/ollie/events",
                    missing: "/v1/families/\(ada.id)/nobody/events",
                    json: potty),
                Probe(
                    method: .post, path: "/v1/families/\(ada.id)/ollie/invitations",
                    missing: "/v1/families/\(ada.id)/nobody/invitations", json: #"{"role": "caregiver"}"#),
                Probe(
                    method: .get, path: "/v1/families/\(ada.id)/ollie/invitations",
                    missing: "/v1/families/\(ada.id)/nobody/invitations"),
                Probe(
                    method: .delete, path: "/v1/families/\(ada.id)/ollie/invitations/\(familyCode)",
                    missing: "/v1/families/\(ada.id)/nobody/invitations/\(familyCode)"),
                Probe(
                    method: .patch, path: "/v1/families/\(ada.id)/ollie/members/\(viewer.id)",
                    missing: "/v1/families/\(ada.id)/nobody/members/\(viewer.id)", json: #"{"role": "caregiver"}"#),
                Probe(
                    method: .delete, path: "/v1/families/\(ada.id)/ollie/members/\(viewer.id)",
                    missing: "/v1/families/\(ada.id)/nobody/members/\(viewer.id)"),
            ]
            let ids = [ada.id, ghost, postID, missingPost, "ollie", "nobody", viewer.id, familyCode]
            for (who, person) in [
                ("a stranger", stranger), ("a removed friend", removed), ("a blocked person", blocked),
            ] {
                for probe in readers {
                    let tried = try await client.call(probe.method, probe.path, token: person.token, json: probe.json)
                    let missing = try await client.call(
                        probe.method, probe.missing, token: person.token, json: probe.json)
                    #expect(tried.status == .notFound, "\(who): \(probe.method) \(probe.path): \(tried.text)")
                    #expect(
                        Answer(tried, ids: ids) == Answer(missing, ids: ids),
                        "\(who): \(probe.method) \(probe.path) answers unlike an id that does not exist")
                }
                // The invitation Ada keeps open is, for the blocked person, like no invitation.
                if person.id == blocked.id {
                    for path in ["/v1/invitations/\(code)", "/v1/invitations/\(code)/accept"] {
                        let tried = try await client.call(
                            path.hasSuffix("accept") ? .post : .get, path, token: person.token)
                        let missing = try await client.call(
                            path.hasSuffix("accept") ? .post : .get,
                            path.replacingOccurrences(of: code, with: "ABCD-EFGH-JKMN"),
                            token: person.token)
                        #expect(
                            Answer(tried, ids: [code, "ABCD-EFGH-JKMN"])
                                == Answer(missing, ids: [code, "ABCD-EFGH-JKMN"]),
                            "a blocked person tells Ada's invitation from none: \(tried.text)")
                    }
                }
            }
            // A viewer reads the family but every write, and its list of invitations, is the
            // answer of no family.
            #expect(try await client.call(.get, "/v1/families/\(ada.id)/ollie", token: viewer.token).status == .ok)
            for probe in readers
            where probe.path.contains("/families/") && (probe.method != .get || probe.path.hasSuffix("/invitations")) {
                var path = probe.path
                var missing = probe.missing
                if probe.path.hasSuffix(viewer.id) {
                    // A viewer may leave (remove themself); changing someone else is what is refused.
                    path = path.replacingOccurrences(of: viewer.id, with: ada.id)
                    missing = missing.replacingOccurrences(of: viewer.id, with: ada.id)
                }
                let tried = try await client.call(probe.method, path, token: viewer.token, json: probe.json)
                let none = try await client.call(probe.method, missing, token: viewer.token, json: probe.json)
                #expect(tried.status == .notFound, "a viewer: \(probe.method) \(path): \(tried.text)")
                #expect(
                    Answer(tried, ids: ids) == Answer(none, ids: ids),
                    "a viewer: \(probe.method) \(path) tells itself apart")
            }
            // Ada's own data is untouched by all of it.
            let reactions = try await client.call(.get, "/v1/posts/\(ada.id)/\(postID)/reactions", token: ada.token)
            #expect((reactions.json["reactions"] as? [Any])?.isEmpty == true, "\(reactions.text)")
            #expect(try await client.call(.get, "/v1/families/\(ada.id)/ollie", token: ada.token).status == .ok)
        }
    }

    @Test(
        .enabled(
            if: ServerHarness.instances == 1,
            "an instance learns a shared limit's count once it has counted the key itself: a third instance may admit one more (SCALING.md)"
        ))
    func reactionsAndNudgesAreRateLimited() async throws {
        try await ServerHarness.with(configure: { $0.socialActionsPerMinute = 2 }) { harness, client in
            let ada = try await client.person("ada")
            let bob = try await client.person("bob")
            try await client.befriend(ada, bob)
            _ = try await client.call(
                .post, "/v1/habits", token: ada.token, json: #"{"habit": "read", "name": "Read", "policy": "strict"}"#)
            let checkIn = try await client.call(.post, "/v1/habits/read/check-ins", token: ada.token, json: "{}")
            let unlock = try #require((checkIn.json["unlocks"] as? [[String: Any]])?.first?["id"] as? String)
            let post = try await client.call(.post, "/v1/posts", token: ada.token, json: #"{"unlock": "\#(unlock)"}"#)
            let path = "/v1/posts/\(ada.id)/\(post.json["id"] as? String ?? "")/reaction"
            for reaction in ["clap", "fire"] {
                let answer = try await client.call(.put, path, token: bob.token, json: #"{"reaction": "\#(reaction)"}"#)
                #expect(answer.status == .ok, "\(answer.text)")
            }
            let third = try await client.call(.put, path, token: bob.token, json: #"{"reaction": "party"}"#)
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] != nil, "\(third.text)")
            // Nudges are counted apart from reactions.
            _ = try await client.call(.put, "/v1/sharing", token: ada.token, json: #"{"habits": ["read"]}"#)
            harness.clock.value.withLock { $0 += 86_400 }
            for _ in 0..<2 { _ = try await client.call(.post, "/v1/friends/\(ada.id)/nudges", token: bob.token) }
            let nudge = try await client.call(.post, "/v1/friends/\(ada.id)/nudges", token: bob.token)
            #expect(nudge.status == .tooManyRequests, "\(nudge.text)")
        }
    }
}
