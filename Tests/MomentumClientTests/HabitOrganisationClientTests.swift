import Foundation
import MomentumClient
import MomentumCore
import Testing

/// Groups, order, archiving undone and schedule changes through the SDK: shown on the
/// device at once, and after a sync the device's dashboard is the server's, byte for byte.
@Suite(.serialized) struct HabitOrganisationClientTests {
    @Test(arguments: Backend.allCases)
    func groupsOrderUnarchiveAndScheduleMatchTheServer(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("ola"))
            try await phone.record(.habitCreated(HabitDefinition(id: "tea", name: "Tea", group: "Morning")))
            try await phone.record(habit("read", "Read"))
            try await phone.record(habit("run", "Run"))
            try await phone.checkIn("run")
            try await phone.order(["run", "read"])
            do {
                try await phone.order(["run", "run"])
                Issue.record("a habit listed twice was recorded")
            } catch let error as ClientError {
                #expect(error.field == "habits")
            }
            server.clock.advance(days: 1)
            try await phone.archive("read")
            try await phone.changeSchedule(of: "run", to: .timesPerWeek(2))
            server.clock.advance(days: 1)
            try await phone.unarchive("read")
            var local = try await phone.today(at: server.clock.now)
            #expect(local.habits.map(\.definition.id) == ["run", "read", "tea"])
            #expect(
                local.habits.first { $0.definition.id == "read" }?.calendar.suffix(2).map(\.state) == [
                    .archived, .pending,
                ])
            #expect(local.habits.first?.definition.schedule == .timesPerWeek(2))
            try await phone.sync()
            local = try await phone.today(at: server.clock.now)
            let token = try await RawHTTP.signIn(server, email: "ola@example.com", device: "observer")
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            let mine = try MomentumJSON.encodeBytes(local)
            let theirs = withoutFinalNewline(answer.body)
            #expect(mine == theirs, "\(firstDifference(mine, theirs))")
        }
    }
}
