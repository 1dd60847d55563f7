import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

/// The endpoints the other router suites leave out: skips, subjects, freeze decisions,
/// celebration sessions, photo removal and account deletion — each with another user's
/// access and bad input.
struct RemainingRouteTests {
    @Test func skipsMarkTheDayAndNeedAKnownHabit() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("skipper", zone: "UTC")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"name": "Run", "habit": "run"}"#)
            let skipped = try await client.call(
                .post, "/v1/habits/run/skips", token: token, json: #"{"note": "rest day"}"#)
            #expect(skipped.status == .ok, "\(skipped.text)")
            #expect((skipped.json["today"] as? [String: Any])?["state"] as? String == "skipped", "\(skipped.text)")

            let other = try await client.register("stranger", zone: "UTC")
            let theirs = try await client.call(.post, "/v1/habits/run/skips", token: other)
            #expect(theirs.status == .notFound)
            #expect(theirs.errorCode == "not_found")
            let badDay = try await client.call(
                .post, "/v1/habits/run/skips", token: token, json: #"{"day": "yesterday"}"#)
            #expect(badDay.status == .unprocessableContent, "\(badDay.text)")
            let malformed = try await client.call(.post, "/v1/habits/run/skips", token: token, json: #"{"note": "#)
            #expect(malformed.status == .badRequest)
            #expect(try await client.call(.post, "/v1/habits/run/skips").status == .unauthorized)
        }
    }

    @Test func subjectsAreCreatedListedAndPrivate() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("owner", zone: "UTC")
            let created = try await client.call(
                .post, "/v1/subjects", token: token,
                json: #"{"subject": "ollie", "name": "Ollie", "kind": "puppy", "dates": {"gotcha": "2026-03-01"}}"#)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["name"] as? String == "Ollie")
            let listed = try await client.call(.get, "/v1/subjects", token: token)
            let subjects = try #require(listed.json["subjects"] as? [[String: Any]])
            #expect(subjects.map { $0["id"] as? String } == ["ollie"])
            #expect((subjects.first?["dates"] as? [String: Any])?["gotcha"] as? String == "2026-03-01")

            let other = try await client.register("neighbour", zone: "UTC")
            #expect(
                (try await client.call(.get, "/v1/subjects", token: other).json["subjects"] as? [Any])?.isEmpty == true)
            let wrongType = try await client.call(
                .post, "/v1/subjects", token: token, json: #"{"subject": "x", "name": 7}"#)
            #expect(wrongType.status == .unprocessableContent, "\(wrongType.text)")
            let badDate = try await client.call(
                .post, "/v1/subjects", token: token, json: #"{"name": "Rex", "dates": {"born": "03/01/2026"}}"#)
            #expect(badDate.status == .unprocessableContent, "\(badDate.text)")
            let notAnObject = try await client.call(.post, "/v1/subjects", token: token, json: "[1, 2]")
            #expect(notAnObject.status == .unprocessableContent)
        }
    }

    @Test func aFreezeOfferIsAcceptedOrDeclinedOverHTTP() async throws {
        try await ServerHarness.with { harness, client in
            // A strict daily habit done for ten days, two freezes bought, then yesterday missed.
            let now = harness.now
            let day = 86_400.0
            let start = now.addingTimeInterval(-12 * day)
            for (index, name) in ["accepter", "decliner"].enumerated() {
                let token = try await harness.register(name, zone: "UTC", daysAgo: 13, client: client)
                var events = [
                    #"{"id": "create", "type": "habit.created", "at": "\#(RFC3339.format(start))", "tz": "UTC", "habit": "floss", "name": "Floss", "policy": "strict"}"#
                ]
                for n in 0..<11 {
                    events.append(
                        completion(
                            "c\(n)", habit: "floss", at: start.addingTimeInterval(Double(n) * day + 60), zone: "UTC"))
                }
                events.append(
                    #"{"id": "buy", "type": "purchase", "at": "\#(RFC3339.format(start.addingTimeInterval(10 * day + 120)))", "tz": "UTC", "days": 2}"#
                )
                let pushed = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
                let statuses = (pushed.json["results"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
                #expect(Set(statuses) == ["applied"], "\(pushed.text)")

                let offers = try await client.call(.get, "/v1/freeze-offers", token: token)
                let offer = try #require((offers.json["freezeOffers"] as? [[String: Any]])?.first, "\(offers.text)")
                let missed = try #require(offer["day"] as? String)
                #expect(offer["habit"] as? String == "floss")

                let accept = index == 0
                let decided = try await client.call(
                    .post, "/v1/freeze-offers/decisions", token: token,
                    json: #"{"habit": "floss", "day": "\#(missed)", "accept": \#(accept)}"#)
                #expect(decided.status == .ok, "\(decided.text)")
                let wallet = try #require(decided.json["wallet"] as? [String: Any])
                #expect(wallet["freezes"] as? Int == (accept ? 1 : 2), "\(decided.text)")
                let habit = try await client.call(.get, "/v1/habits/floss?days=3", token: token)
                let calendar = try #require((habit.json["habit"] as? [String: Any])?["calendar"] as? [[String: Any]])
                let state = calendar.first { $0["day"] as? String == missed }?["state"] as? String
                #expect(state == (accept ? "frozen" : "missed"), "\(habit.text)")
                #expect(
                    (try await client.call(.get, "/v1/freeze-offers", token: token).json["freezeOffers"] as? [Any])?
                        .isEmpty == true)

                let unknownHabit = try await client.call(
                    .post, "/v1/freeze-offers/decisions", token: token,
                    json: #"{"habit": "nope", "day": "\#(missed)", "accept": true}"#)
                #expect(unknownHabit.status == .notFound, "\(unknownHabit.text)")
                let badDay = try await client.call(
                    .post, "/v1/freeze-offers/decisions", token: token,
                    json: #"{"habit": "floss", "day": "2026-13-40", "accept": true}"#)
                #expect(badDay.status == .unprocessableContent, "\(badDay.text)")
                #expect(badDay.errorFields.contains("day"), "\(badDay.text)")
                let missingAccept = try await client.call(
                    .post, "/v1/freeze-offers/decisions", token: token,
                    json: #"{"habit": "floss", "day": "\#(missed)"}"#)
                #expect(missingAccept.status == .unprocessableContent)
                #expect(missingAccept.errorFields.contains("accept"), "\(missingAccept.text)")
            }
        }
    }

    @Test func celebrationSessionsPaceTheQueue() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("celebrant", zone: "UTC", daysAgo: 9, client: client)
            let start = harness.now.addingTimeInterval(-8 * 86_400)
            var events = [habitCreated("walk", at: start, zone: "UTC")]
            for n in 0...8 {
                events.append(
                    completion(
                        "w\(n)", habit: "walk", at: start.addingTimeInterval(Double(n) * 86_400 + 60), zone: "UTC"))
            }
            _ = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events))
            let analytics = try await client.call(.get, "/v1/analytics", token: token)
            #expect(analytics.status == .ok)
            #expect((analytics.json["habits"] as? [[String: Any]])?.first?["habit"] as? String == "walk")
            let before = try await client.call(.get, "/v1/celebrations/next", token: token)
            #expect(before.status == .ok)
            let waiting = try #require(before.json["waiting"] as? Int)
            #expect(waiting > 0, "\(before.text)")

            let session = try await client.call(
                .post, "/v1/celebrations/sessions", token: token, json: #"{"session": "app-launch-1"}"#)
            #expect(session.status == .ok, "\(session.text)")
            let celebration = try #require(session.json["celebration"] as? [String: Any], "\(session.text)")
            let id = try #require(celebration["id"] as? String)
            let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
            let other = try await client.register("bystander", zone: "UTC")
            #expect(try await client.call(.post, "/v1/celebrations/\(escaped)/shown", token: other).status == .notFound)
            #expect(
                try await client.call(.post, "/v1/celebrations/\(escaped)/dismissed", token: token).status == .noContent
            )
            let after = try await client.call(.get, "/v1/celebrations/next", token: token)
            #expect((after.json["celebration"] as? [String: Any])?["id"] as? String != id)
            #expect(after.json["waiting"] as? Int == waiting - 1, "\(after.text)")

            let empty = try await client.call(
                .post, "/v1/celebrations/sessions", token: token, json: #"{"session": ""}"#)
            #expect(empty.status == .unprocessableContent)
            #expect(empty.errorFields == ["session"])
            let wrongType = try await client.call(
                .post, "/v1/celebrations/sessions", token: token, json: #"{"session": 1}"#)
            #expect(wrongType.status == .unprocessableContent)
            #expect(try await client.call(.get, "/v1/celebrations/next", token: other).json["waiting"] as? Int == 0)
        }
    }

    @Test func aPhotoIsRemovedOnlyByItsOwner() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await MemoryAndOpsRouteTests().journalAccount(
                "photographer", harness: harness, client: client)
            let memories = try #require(
                try await client.call(.get, "/v1/memories", token: token).json["memories"] as? [[String: Any]])
            let id = try #require(memories.first?["id"] as? String)
            let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
            let uploaded = try await client.call(
                .put, "/v1/memories/\(escaped)/photo", token: token, bytes: MemoryAndOpsRouteTests.pngWithText)
            let path = try #require((uploaded.json["photo"] as? [String: Any])?["original"] as? String)

            let other = try await client.register("burglar", zone: "UTC")
            #expect(try await client.call(.delete, "/v1/memories/\(escaped)/photo", token: other).status == .notFound)
            #expect(try await client.call(.get, "/v1/photos/\(path)", token: token).status == .ok)

            let removed = try await client.call(.delete, "/v1/memories/\(escaped)/photo", token: token)
            #expect(removed.status == .ok || removed.status == .noContent, "\(removed.text)")
            let memory = try await client.call(.get, "/v1/memories", token: token)
            let after = (memory.json["memories"] as? [[String: Any]])?.first { $0["id"] as? String == id }
            #expect(after?["photo"] == nil, "\(memory.text)")
            #expect(try await client.call(.get, "/v1/photos/\(path)", token: token).status == .notFound)
            #expect(try await client.call(.delete, "/v1/memories/unknown/photo", token: token).status == .notFound)
        }
    }

    @Test func deletingTheAccountEndsEverySessionAndFreesTheEmail() async throws {
        try await ServerHarness.with { _, client in
            let phone = try await client.register("leaver", zone: "UTC")
            let laptop = try await client.signIn("leaver", device: "laptop")
            _ = try await client.call(.post, "/v1/habits", token: phone, json: #"{"name": "Read", "habit": "read"}"#)

            #expect(try await client.call(.delete, "/v1/account").status == .unauthorized)
            #expect(try await client.call(.delete, "/v1/account", token: phone).status == .noContent)
            #expect(try await client.call(.get, "/v1/today", token: phone).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/habits", token: laptop).status == .unauthorized)
            let signIn = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "leaver@example.com", "password": "correct horse", "deviceName": "phone"}"#)
            #expect(signIn.status == .unauthorized)

            let again = try await client.register("leaver", zone: "UTC")
            let habits = try await client.call(.get, "/v1/habits", token: again)
            #expect((habits.json["habits"] as? [Any])?.isEmpty == true, "\(habits.text)")
        }
    }
}
