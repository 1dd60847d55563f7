import Foundation
import MomentumClient
import MomentumCore
import Testing

/// Milestones of the user's own through the SDK: defined offline, unlocked on the device at
/// once, and after a sync the server lists the same ones; deleting removes them on both.
@Suite(.serialized) struct MilestoneClientTests {
    @Test func milestonesAreDefinedOfflineAndTheServerAgrees() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("mia"))
            for _ in 0..<2 {
                try await phone.record(.activity(Activity(kind: "walk")))
                server.clock.advance(days: 1)
            }
            let defined = try await phone.defineMilestone(
                CustomMilestone(
                    id: "walks", title: "2 walks", message: "Two already!", rule: .count, kind: "walk", target: 2))
            #expect(defined.unlocks.map(\.rule) == ["custom:walks"])
            #expect(defined.unlocks.first.flatMap { defined.messages[$0.id]?.text } == "Two already!")
            server.clock.advance(seconds: 60)
            try await phone.defineMilestone(
                CustomMilestone(id: "ten", title: "10 walks", rule: .count, kind: "walk", target: 10))
            do {
                try await phone.defineMilestone(CustomMilestone(id: "bad", title: "Bad", rule: .streak, kind: "walk"))
                Issue.record("a streak without a target was recorded")
            } catch let error as ClientError {
                #expect(error.field == "target")
            }
            var local = try await phone.milestones(at: server.clock.now)
            #expect(local.map(\.milestone.id) == ["walks", "ten"])
            #expect(local.first?.reached?.title == "2 walks")
            #expect(local.last?.progress == MilestoneProgress(current: 2, target: 10))

            try await phone.sync()
            let token = try await RawHTTP.signIn(server, email: "mia@example.com", device: "observer")
            var answer = try await RawHTTP.get(server.url.appending(path: "v1/milestones"), token: token)
            var listed = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            var milestones = listed?["milestones"] as? [[String: Any]] ?? []
            #expect(milestones.map { $0["milestone"] as? String } == ["walks", "ten"])
            #expect(milestones.first?["reached"] != nil)

            let removed = try await phone.deleteMilestone("ten")
            #expect(removed.event.payload == .milestoneDeleted(milestone: "ten"))
            local = try await phone.milestones(at: server.clock.now)
            #expect(local.map(\.milestone.id) == ["walks"])
            do {
                try await phone.deleteMilestone("ten")
                Issue.record("a deleted milestone was deleted again")
            } catch let error as ClientError {
                #expect(error.field == "milestone")
            }
            try await phone.sync()
            answer = try await RawHTTP.get(server.url.appending(path: "v1/milestones"), token: token)
            listed = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            milestones = listed?["milestones"] as? [[String: Any]] ?? []
            #expect(milestones.map { $0["milestone"] as? String } == ["walks"])
        }
    }
}
