import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

/// A convenience route retried with the same `eventId` answers as the first attempt did,
/// although what the server fills in (`at`, `tz`, a generated id) differs on each attempt.
@Suite struct RetryRouteTests {
    @Test func aRetriedCheckInIsTheFirstOne() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("rae")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read"}"#)
            let body = #"{"eventId": "e_phone-1", "note": "ch. 3"}"#
            let first = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: body)
            #expect(first.status == .ok, "\(first.text)")
            harness.clock.value.withLock { $0 += 7 }
            let retry = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: body)
            #expect(retry.status == .ok, "\(retry.text)")
            #expect((retry.json["habit"] as? [String: Any])?["current"] as? Int == 1)

            let pulled = try await client.call(.get, "/v1/events", token: token)
            let events = try #require(pulled.json["events"] as? [[String: Any]])
            let completions = events.compactMap { $0["event"] as? [String: Any] }.filter {
                $0["type"] as? String == "completion"
            }
            #expect(completions.count == 1)
            #expect(completions.first?["id"] as? String == "e_phone-1")
            #expect(completions.first?["at"] as? String == RFC3339.format(harness.now.addingTimeInterval(-7)))

            // The same id for what the client says is a different check-in is still a conflict.
            let different = try await client.call(
                .post, "/v1/habits/read/check-ins", token: token, json: #"{"eventId": "e_phone-1", "note": "ch. 4"}"#)
            #expect(different.status == .conflict)
            #expect(different.errorCode == "conflicting_event_id")
            // And so is a retry that names a different instant itself.
            let moved = try await client.call(
                .post, "/v1/habits/read/check-ins", token: token,
                json: #"{"eventId": "e_phone-1", "note": "ch. 3", "at": "\#(RFC3339.format(harness.now))"}"#)
            #expect(moved.status == .conflict)
        }
    }

    @Test func aRetriedHabitOrSubjectKeepsTheIdTheFirstAttemptWasGiven() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("ray")
            let body = #"{"eventId": "e_new-habit", "name": "Stretch"}"#
            let first = try await client.call(.post, "/v1/habits", token: token, json: body)
            #expect(first.status == .created, "\(first.text)")
            harness.clock.value.withLock { $0 += 3 }
            let retry = try await client.call(.post, "/v1/habits", token: token, json: body)
            #expect(retry.status == .created, "\(retry.text)")
            let id = (first.json["definition"] as? [String: Any])?["habit"] as? String
            #expect(id?.hasPrefix("h_") == true)
            #expect((retry.json["definition"] as? [String: Any])?["habit"] as? String == id)
            let today = try await client.call(.get, "/v1/today", token: token)
            #expect((today.json["habits"] as? [[String: Any]])?.count == 1)

            let subject = #"{"eventId": "e_new-pet", "name": "Ollie", "kind": "puppy"}"#
            let pet = try await client.call(.post, "/v1/subjects", token: token, json: subject)
            #expect(pet.status == .created, "\(pet.text)")
            harness.clock.value.withLock { $0 += 3 }
            let petAgain = try await client.call(.post, "/v1/subjects", token: token, json: subject)
            #expect(petAgain.status == .created, "\(petAgain.text)")
            #expect(petAgain.json["id"] as? String == pet.json["id"] as? String)
            let subjects = try await client.call(.get, "/v1/subjects", token: token)
            #expect((subjects.json["subjects"] as? [[String: Any]])?.count == 1)
        }
    }
}
