import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import Testing

/// A device of today's release keeps syncing when a newer device of the same user records
/// events it does not know (issue 47).
@Suite(.serialized) struct ForwardCompatibleSyncTests {
    @Test(arguments: Backend.allCases)
    func anOlderDeviceSyncsPastEventsFromTheFutureAndAgreesWithTheServer(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("kim"))
            try await phone.record(habit("read", "Read"))
            try await phone.sync()
            server.clock.advance(days: 1)
            _ = try await phone.checkIn("read")

            // Given a newer device that records a type this release does not know, and a
            // known type with a field it does not have …
            let token = try await RawHTTP.signIn(server, email: "kim@example.com", device: "newer")
            let at = RFC3339.format(server.clock.now.addingTimeInterval(-60))
            let newer = #"""
                {"events": [
                  {"id": "n1", "type": "mood.logged", "at": "\#(at)", "tz": "Asia/Tokyo", "mood": {"level": 4, "words": ["calm"]}},
                  {"id": "n2", "type": "skip", "at": "\#(at)", "tz": "Europe/Berlin", "habit": "read", "reason": "rain"}
                ]}
                """#
            let pushed = try await RawHTTP.send(
                server.url.appending(path: "v1/events"), method: .POST, token: token, json: newer)
            #expect(pushed.status == 200, "\(String(decoding: pushed.body, as: UTF8.self))")
            let results = pushed.json["results"] as? [[String: Any]] ?? []
            #expect(
                results.map { ($0["warnings"] as? [[String: Any]])?.first?["code"] as? String } == [
                    "unknown_type", "unknown_field",
                ])

            // … the older device pushes its check-in, pulls them, and shows the server's day.
            let report = try await phone.sync()
            #expect(report.pushed == 1 && report.refused == [], "\(report)")
            let synced = try await phone.syncedEvents()
            let kept = try #require(synced.first { $0.id == "n1" })
            #expect(kept.payload == .unknown(type: "mood.logged"))
            #expect(kept.unknownFields["mood"] == .object(["level": .number(4), "words": .array([.string("calm")])]))
            #expect(synced.first { $0.id == "n2" }?.unknownFields == ["reason": .string("rain")])
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            #expect(answer.status == 200)
            let local = try MomentumJSON.encodeBytes(try await phone.today(at: server.clock.now))
            let remote = withoutFinalNewline(answer.body)
            #expect(local == remote, "\(firstDifference(local, remote))")
            #expect(try await phone.pendingEvents() == [])

            // The device's own next check-in still counts, offline and on the server.
            server.clock.advance(days: 1)
            let next = try await phone.checkIn("read")
            #expect(next.habit?.current == 2, "\(String(describing: next.habit))")
            #expect(try await phone.sync().refused == [])
        }
    }
}
