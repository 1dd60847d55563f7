import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// Packs as configuration: an operator uploads a pack, activates it, users run with it, and
/// a rollback puts the earlier version back in force.
struct PacksRouteTests {
    static let owner = ServerHarness.ownerHeaders

    /// A puppy app's pack: a swim log and a "first swim" milestone; 1.1.0 adds three swims.
    static func puppy(_ version: String = "1.0.0", extraRule: String = "") -> String {
        #"""
        {"pack": {"name": "puppy", "version": "\#(version)", "title": "Puppy", "eventTypes": ["log"],
          "backfillDays": null,
          "forms": [{"id": "swim", "title": "Swim", "icon": "🏊", "type": "log", "kind": "swim", "today": true,
                     "fields": [{"name": "value", "label": "Minutes", "input": "number", "unit": "min"}]}],
          "achievements": [{"id": "first-swim", "kind": "first", "title": "First swim", "category": "lifestyle",
                            "tier": 2, "badge": "🏊", "match": {"kind": "swim"}}\#(extraRule)]},
         "translations": {"pt-BR": {"pack.puppy.rule.first-swim.title": "Primeiro mergulho"}}}
        """#
    }

    static let threeSwims = #"""
        , {"id": "three-swims", "kind": "count", "title": "{value} swims", "category": "lifestyle", "tier": 1, "badge": "b",
           "badge": "🌊", "match": {"kind": "swim"}, "at": [3]}
        """#

    static func swim(_ id: String, at: Date) -> String {
        #"{"id": "\#(id)", "type": "log", "kind": "swim", "value": 10, "at": "\#(RFC3339.format(at))", "tz": "Europe/Berlin"}"#
    }

    static func packVersions(_ json: [String: Any]) -> [String: String]? {
        (json["versions"] as? [String: Any])?["packs"] as? [String: String]
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aPuppyPackIsUploadedUsedUpgradedAndRolledBack(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            // Given the puppy pack uploaded (twice: the second is the same document) and active.
            let uploaded = try await client.call(.post, "/v1/admin/packs", json: Self.puppy(), headers: Self.owner)
            #expect(uploaded.status == .created, "\(uploaded.text)")
            let again = try await client.call(.post, "/v1/admin/packs", json: Self.puppy(), headers: Self.owner)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.json["created"] as? Bool == false)
            // Not in force before it is activated.
            let early = try await client.call(
                .post, "/v1/accounts",
                json:
                    #"{"email": "early@example.com", "password": "correct horse", "displayName": "E", "timeZone": "Europe/Berlin", "deviceName": "phone", "pack": "puppy"}"#
            )
            #expect(early.status == .unprocessableContent, "\(early.text)")
            let activated = try await client.call(
                .post, "/v1/admin/packs/puppy/versions/1.0.0/activate", headers: Self.owner)
            try await harness.settle()
            #expect(activated.status == .ok, "\(activated.text)")
            #expect(activated.json["activeVersion"] as? String == "1.0.0")

            // When an account uses it and logs a swim.
            let token = try await client.register("pip", pack: "puppy+habits")
            let now = harness.now
            let pushed = try await client.call(
                .post, "/v1/events", token: token, json: eventsJSON([Self.swim("s1", at: now)]))
            #expect(pushed.status == .ok, "\(pushed.text)")
            // Then the milestone unlocks, and the state carries the pack's version.
            #expect(pushed.text.contains("First swim"), "\(pushed.text)")
            #expect(Self.packVersions(pushed.json) == ["habits": RulePack.habits.version, "puppy": "1.0.0"])
            let page = try await client.call(.get, "/v1/pack", token: token)
            #expect(page.text.contains(#""id":"swim""#), "\(page.text)")

            // An upgrade: 1.1.0 counts three swims; the log replays with the new rules.
            for id in ["s2", "s3"] {
                _ = try await client.call(
                    .post, "/v1/events", token: token, json: eventsJSON([Self.swim(id, at: now)]))
            }
            let newer = try await client.call(
                .post, "/v1/admin/packs", json: Self.puppy("1.1.0", extraRule: Self.threeSwims), headers: Self.owner)
            #expect(newer.status == .created, "\(newer.text)")
            _ = try await client.call(.post, "/v1/admin/packs/puppy/versions/1.1.0/activate", headers: Self.owner)
            try await harness.settle()
            let today = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.packVersions(today.json)?["puppy"] == "1.1.0", "\(today.text)")
            let achievements = try await client.call(.get, "/v1/achievements", token: token)
            #expect(achievements.text.contains("3 swims"), "\(achievements.text)")

            // Rolled back: 1.0.0 is in force again.
            let back = try await client.call(
                .post, "/v1/admin/packs/puppy/versions/1.0.0/activate", headers: Self.owner)
            try await harness.settle()
            #expect(back.json["activeVersion"] as? String == "1.0.0")
            let after = try await client.call(.get, "/v1/today", token: token)
            #expect(Self.packVersions(after.json)?["puppy"] == "1.0.0")

            // The listing and a version's document.
            let list = try await client.call(.get, "/v1/admin/packs", headers: Self.owner)
            let packs = try #require(list.json["packs"] as? [[String: Any]])
            #expect(packs.map { $0["name"] as? String } == ["habits", "ollie", "savings", "growth", "puppy"])
            let puppy = try #require(packs.last?["versions"] as? [[String: Any]])
            #expect(puppy.map { $0["version"] as? String } == ["1.1.0", "1.0.0"])
            let document = try await client.call(.get, "/v1/admin/packs/puppy/versions/1.1.0", headers: Self.owner)
            #expect(document.text.contains("three-swims"))
        }
    }

    @Test func aBundledPackTakesANewVersionAndReturnsToTheCompiledInOne() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("hana")
            var habits = RulePack.habitsJSON.replacingOccurrences(
                of: #""version": "1.0.0""#, with: #""version": "1.1.0""#)
            habits = habits.replacingOccurrences(of: "7-{unit} streak", with: "A week of {habit}")
            let uploaded = try await client.call(
                .post, "/v1/admin/packs", json: #"{"pack": \#(habits)}"#, headers: Self.owner)
            #expect(uploaded.status == .created, "\(uploaded.text)")
            _ = try await client.call(.post, "/v1/admin/packs/habits/versions/1.1.0/activate", headers: Self.owner)
            try await harness.settle()
            #expect(
                Self.packVersions(try await client.call(.get, "/v1/today", token: token).json) == ["habits": "1.1.0"])
            let bundled = try await client.call(
                .post, "/v1/admin/packs/habits/versions/bundled/activate", headers: Self.owner)
            try await harness.settle()
            #expect(bundled.status == .ok, "\(bundled.text)")
            #expect(bundled.json["bundled"] as? Bool == true)
            #expect(
                Self.packVersions(try await client.call(.get, "/v1/today", token: token).json) == ["habits": "1.0.0"])
            let document = try await client.call(.get, "/v1/admin/packs/habits/versions/bundled", headers: Self.owner)
            #expect(document.text.contains("first-check-in"))
        }
    }

    @Test func aBadPackIsRefusedWithEveryProblemAndNothingIsStored() async throws {
        try await ServerHarness.with { harness, client in
            let bad = #"""
                {"pack": {"name": "Puppy!", "version": "v1", "achievements": [
                   {"id": "a", "kind": "teleport", "title": "A", "category": "c", "tier": 1, "badge": "b"},
                   {"id": "b", "kind": "count", "title": "B", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "swim"},
                    "at": [1e12]}]},
                 "translations": {"xx": {}}}
                """#
            let refused = try await client.call(.post, "/v1/admin/packs", json: bad, headers: Self.owner)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorCode == "invalid_pack")
            #expect(
                Set(refused.errorFields) == [
                    "pack.name", "pack.version", "pack.achievements[0].kind", "pack.achievements[1].at[0]",
                    "translations.xx",
                ])
            let list = try await client.call(.get, "/v1/admin/packs", headers: Self.owner)
            #expect((list.json["packs"] as? [Any])?.count == 4)

            // The same version with another document conflicts.
            _ = try await client.call(.post, "/v1/admin/packs", json: Self.puppy(), headers: Self.owner)
            let other = Self.puppy().replacingOccurrences(of: "First swim", with: "Splash")
            let conflict = try await client.call(.post, "/v1/admin/packs", json: other, headers: Self.owner)
            #expect(conflict.status == .conflict)
            #expect(conflict.errorCode == "pack_version_exists")

            // Unknown versions and packs.
            let missing = try await client.call(
                .post, "/v1/admin/packs/puppy/versions/9.9.9/activate", headers: Self.owner)
            try await harness.settle()
            #expect(missing.status == .notFound)
            let notBundled = try await client.call(
                .post, "/v1/admin/packs/puppy/versions/bundled/activate", headers: Self.owner)
            try await harness.settle()
            #expect(notBundled.status == .notFound)
            #expect(try await client.call(.get, "/v1/admin/packs").status == .unauthorized)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aPackWhoseRulesRequireEachOtherInACycleIsRefusedAndNothingChanges(
        _ backend: ServerHarness.Backend
    ) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            // Given version 1.0.0 of the puppy pack active.
            _ = try await client.call(.post, "/v1/admin/packs", json: Self.puppy(), headers: Self.owner)
            _ = try await client.call(.post, "/v1/admin/packs/puppy/versions/1.0.0/activate", headers: Self.owner)
            try await harness.settle()
            let before = try await client.call(.get, "/v1/admin/packs", headers: Self.owner).text
            // When 1.1.0 makes "puppy pro" require "first walk", which requires "puppy pro".
            let cycle = #"""
                , {"id": "first-walk", "kind": "first", "title": "First walk", "category": "lifestyle", "tier": 1,
                   "badge": "🐾", "match": {"kind": "walk"}, "requires": ["puppy-pro"]},
                  {"id": "puppy-pro", "kind": "first", "title": "Puppy pro", "category": "lifestyle", "tier": 3,
                   "badge": "🏆", "match": {"kind": "swim"}, "requires": ["first-swim", "first-walk"], "treshold": 3}
                """#
            let refused = try await client.call(
                .post, "/v1/admin/packs", json: Self.puppy("1.1.0", extraRule: cycle), headers: Self.owner)
            // Then it is refused, the cycle and the unknown field listed, and nothing changed.
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(refused.errorCode == "invalid_pack")
            #expect(
                Set(refused.errorFields) == ["pack.achievements[1].requires[0]", "pack.achievements[2].treshold"],
                "\(refused.text)")
            #expect(refused.text.contains("cycle: first-walk → puppy-pro → first-walk"), "\(refused.text)")
            #expect(try await client.call(.get, "/v1/admin/packs", headers: Self.owner).text == before)
            let missing = try await client.call(.get, "/v1/admin/packs/puppy/versions/1.1.0", headers: Self.owner)
            #expect(missing.status == .notFound, "\(missing.text)")
        }
    }

    @Test func tenMegabytesAreRefusedUnread() async throws {
        try await ServerHarness.with { _, client in
            let big =
                #"{"pack": {"name": "puppy", "version": "1.0.0", "title": ""#
                + String(repeating: "x", count: 10 * 1_048_576) + #""}}"#
            let refused = try await client.call(.post, "/v1/admin/packs", json: big, headers: Self.owner)
            #expect(refused.status == .contentTooLarge)
            #expect(
                (try await client.call(.get, "/v1/admin/packs", headers: Self.owner).json["packs"] as? [Any])?.count
                    == 4)
        }
    }
}
