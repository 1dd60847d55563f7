import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Milestones of the user's own over HTTP: defined with `PUT /v1/milestones/{milestone}`
/// (or a `milestone` event), listed with their progress, celebrated, remembered and shared
/// like the pack's, refused by field when badly formed, and deleted.
struct MilestoneRouteTests {
    static func walks(_ harness: ServerHarness, days: [Int]) -> String {
        let lines = days.map { offset in
            let at = RFC3339.format(harness.now.addingTimeInterval(Double(-offset) * 86_400))
            return #"{"id": "walk-\#(offset)", "type": "log", "kind": "walk", "at": "\#(at)", "tz": "Europe/Berlin"}"#
        }
        return #"{"events": [\#(lines.joined(separator: ","))]}"#
    }

    @Test func ownMilestonesUnlockCelebrateAndAreRemembered() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("ada", daysAgo: 5, client: client)
            let pushed = try await client.call(
                .post, "/v1/events", token: token, json: Self.walks(harness, days: [4, 3, 2]))
            #expect(pushed.status == .ok, "\(pushed.text)")

            // Already met: it unlocks at once, dated on the third walk.
            let three = try await client.call(
                .put, "/v1/milestones/walks-3", token: token,
                json:
                    #"{"title": "3 walks", "rule": "count", "kind": "walk", "target": 3, "tier": 3, "message": "Three walks!"}"#
            )
            #expect(three.status == .ok, "\(three.text)")
            let unlocks = try #require(three.json["unlocks"] as? [[String: Any]])
            #expect(unlocks.map { $0["rule"] as? String } == ["custom:walks-3"])
            #expect(unlocks.first?["retroactive"] as? Bool == true)
            #expect(unlocks.first?["badge"] as? String == CustomMilestone.defaultBadge)
            let milestone = try #require(three.json["milestone"] as? [String: Any])
            #expect((milestone["reached"] as? [String: Any])?["title"] as? String == "3 walks")
            #expect(milestone["progress"] as? [String: Int] == ["current": 3, "target": 3])

            // Still to come: progress, no unlock.
            harness.clock.value.withLock { $0 += 60 }
            let five = try await client.call(
                .put, "/v1/milestones/walks-5", token: token,
                json: #"{"title": "5 walks", "rule": "count", "kind": "walk", "target": 5}"#)
            #expect(five.status == .ok, "\(five.text)")
            #expect((five.json["unlocks"] as? [Any])?.isEmpty == true)
            #expect(
                (five.json["milestone"] as? [String: Any])?["progress"] as? [String: Int] == [
                    "current": 3, "target": 5,
                ])
            #expect((five.json["milestone"] as? [String: Any])?["reached"] == nil)

            // A moment happens now.
            harness.clock.value.withLock { $0 += 60 }
            let beach = try await client.call(
                .put, "/v1/milestones/beach", token: token,
                json: #"{"title": "First beach day", "rule": "moment", "badge": "🏖️", "message": "Sand in every paw!"}"#
            )
            #expect(beach.status == .ok, "\(beach.text)")
            let moment = try #require((beach.json["unlocks"] as? [[String: Any]])?.first)
            #expect(moment["rule"] as? String == "custom:beach")
            #expect(moment["retroactive"] as? Bool == false)
            #expect(moment["badge"] as? String == "🏖️")

            let listed = try await client.call(.get, "/v1/milestones", token: token)
            let milestones = try #require(listed.json["milestones"] as? [[String: Any]])
            #expect(milestones.map { $0["milestone"] as? String } == ["walks-3", "walks-5", "beach"])
            #expect(milestones.map { $0["rule"] as? String } == ["count", "count", "moment"])

            // The achievements list them with the pack's: reached ones unlocked, the other locked.
            let achievements = try await client.call(.get, "/v1/achievements", token: token)
            let locked = (achievements.json["locked"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            let unlocked = (achievements.json["unlocked"] as? [[String: Any]] ?? []).compactMap {
                $0["rule"] as? String
            }
            #expect(locked.contains("custom:walks-5"))
            #expect(unlocked.contains("custom:walks-3") && unlocked.contains("custom:beach"))

            // They are remembered in the user's words, and a memory's share card draws.
            let memories = try #require(
                try await client.call(.get, "/v1/memories", token: token).json["memories"] as? [[String: Any]])
            let custom = memories.filter { $0["category"] as? String == "custom" }
            #expect(Set(custom.compactMap { $0["caption"] as? String }) == ["3 walks", "First beach day"])
            let memoryID = try #require(
                custom.first { $0["caption"] as? String == "First beach day" }?["id"] as? String)
            let escaped =
                memoryID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? memoryID
            let card = try await client.call(.get, "/v1/memories/\(escaped)/share-card", token: token)
            #expect(card.status == .ok, "\(card.text.prefix(300))")

            // They celebrate with the words the user wrote.
            var seen: [String] = []
            for _ in 0..<6 {
                let next = try await client.call(.get, "/v1/celebrations/next", token: token)
                guard let celebration = next.json["celebration"] as? [String: Any],
                    let id = celebration["id"] as? String
                else { break }
                seen.append(next.text)
                let encoded = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
                _ = try await client.call(.post, "/v1/celebrations/\(encoded)/dismissed", token: token)
            }
            #expect(seen.contains { $0.contains("Sand in every paw!") }, "\(seen)")
            #expect(seen.contains { $0.contains("Three walks!") }, "\(seen)")
        }
    }

    @Test func badDefinitionsAreRefusedByFieldAndStoreNothing() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("bo", daysAgo: 1, client: client)
            let cases: [(String, String)] = [
                (#"{"title": "A", "rule": "count", "target": 3}"#, "kind"),
                (#"{"title": "A", "rule": "count", "kind": "walk", "target": 0}"#, "target"),
                (#"{"title": "A", "rule": "count", "kind": "walk", "target": 2.5}"#, "target"),
                (#"{"title": "A", "rule": "count", "kind": "walk", "target": 1e300}"#, "target"),
                (#"{"title": "A", "rule": "streak", "habit": "nope", "target": 3}"#, "habit"),
                (#"{"title": "A", "rule": "sometimes"}"#, "rule"),
                (#"{"title": "A", "rule": "moment", "tier": 9}"#, "tier"),
                (#"{"title": "", "rule": "moment"}"#, "title"),
                (#"{"title": "A", "rule": "moment", "colour": "red"}"#, "colour"),
                (#"{"title": "A\u0007", "rule": "moment"}"#, "title"),
            ]
            for (body, field) in cases {
                let refused = try await client.call(.put, "/v1/milestones/m", token: token, json: body)
                #expect([.badRequest, .unprocessableContent].contains(refused.status), "\(body): \(refused.text)")
                #expect(refused.errorFields == [field], "\(body): \(refused.text)")
            }
            let listed = try await client.call(.get, "/v1/milestones", token: token)
            #expect((listed.json["milestones"] as? [Any])?.isEmpty == true)
            // A body may not name another milestone than its path.
            let other = try await client.call(
                .put, "/v1/milestones/m", token: token, json: #"{"milestone": "n", "title": "A", "rule": "moment"}"#)
            #expect(other.status == .unprocessableContent || other.status == .badRequest, "\(other.text)")
        }
    }

    @Test func anEditKeepsTheCelebratedWordsAndADeletedOneCanComeBack() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("cy", daysAgo: 5, client: client)
            _ = try await client.call(.post, "/v1/events", token: token, json: Self.walks(harness, days: [3, 2]))
            let first = try await client.call(
                .put, "/v1/milestones/walks", token: token,
                json: #"{"title": "2 walks", "rule": "count", "kind": "walk", "target": 2}"#)
            #expect((first.json["unlocks"] as? [Any])?.count == 1)
            harness.clock.value.withLock { $0 += 60 }
            let edited = try await client.call(
                .put, "/v1/milestones/walks", token: token,
                json: #"{"title": "Walk number two", "rule": "count", "kind": "walk", "target": 2}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect((edited.json["unlocks"] as? [Any])?.isEmpty == true)
            let milestone = try #require(edited.json["milestone"] as? [String: Any])
            #expect(milestone["title"] as? String == "Walk number two")
            #expect((milestone["reached"] as? [String: Any])?["title"] as? String == "2 walks")

            let deleted = try await client.call(.delete, "/v1/milestones/walks", token: token)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            let listed = try await client.call(.get, "/v1/milestones", token: token)
            #expect((listed.json["milestones"] as? [Any])?.isEmpty == true)
            #expect(try await client.call(.delete, "/v1/milestones/walks", token: token).status == .notFound)
            // Its unlock stays, as every unlock does.
            let achievements = try await client.call(.get, "/v1/achievements", token: token)
            let unlocked = (achievements.json["unlocked"] as? [[String: Any]] ?? []).compactMap {
                $0["rule"] as? String
            }
            #expect(unlocked.contains("custom:walks"))
            // Defined again through the event API, it is a milestone once more.
            let at = RFC3339.format(harness.now)
            let event =
                #"{"events": [{"id": "again", "type": "milestone", "at": "\#(at)", "tz": "Europe/Berlin", "milestone": "walks", "#
                + #""title": "Walks", "rule": "count", "kind": "walk", "target": 10}]}"#
            let pushed = try await client.call(.post, "/v1/events", token: token, json: event)
            #expect((pushed.json["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
            let again = try await client.call(.get, "/v1/milestones", token: token)
            let back = try #require((again.json["milestones"] as? [[String: Any]])?.first)
            #expect(back["progress"] as? [String: Int] == ["current": 2, "target": 10])
            // A new milestone: the old one's unlock is not its.
            #expect(back["reached"] == nil)
        }
    }
}
