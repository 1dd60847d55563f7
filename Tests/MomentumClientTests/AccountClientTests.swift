import Foundation
import MomentumClient
import MomentumCore
import MomentumStore
import Testing

/// Account care through the SDK, against a real server: a password change that signs the
/// other device out, and the whole account downloaded as an archive.
@Suite(.serialized) struct AccountClientTests {
    @Test(arguments: Backend.allCases)
    func aPasswordChangeSignsTheOtherDeviceOutAndTheArchiveHoldsTheLog(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            let tablet = try MomentumClient.make(server, files: files, device: "tablet")
            try await phone.register(.test("ada"))
            try await tablet.signIn(email: "ada@example.com", password: "correct horse")
            try await phone.record(habit("read", "Read"))
            try await phone.checkIn("read")
            try await phone.sync()

            do {
                try await phone.changePassword(current: "not the password", new: "a better password")
                Issue.record("a wrong current password was accepted")
            } catch let error as ClientError {
                #expect(error.code == "wrong_password", "\(error)")
            }
            let ended = try await phone.changePassword(
                current: "correct horse", new: "a better password", signOutOtherDevices: true)
            #expect(ended == 1)
            do {
                _ = try await tablet.sync()
                Issue.record("the signed-out tablet still synced")
            } catch let error as ClientError {
                #expect(error.code == "signed_out", "\(error)")
            }
            try await phone.sync()

            let archive = try AccountArchive.read(tar: try await phone.downloadArchive())
            #expect(archive.account.email == "ada@example.com")
            #expect(archive.events.map(\.event.payload.type) == ["habit.created", "completion"])
        }
    }

    /// A vacation recorded on the device shows at once, offline; after a sync the device's
    /// dashboard, pauses and all, is the server's byte for byte.
    @Test(arguments: Backend.allCases)
    func aPauseShowsOnTheDeviceAndMatchesTheServer(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("pat"))
            try await phone.record(habit("swim", "Swim"))
            try await phone.checkIn("swim")
            let today = try await phone.today(at: server.clock.now).today
            server.clock.advance(days: 1)
            let pause = try await phone.pause(from: today.advanced(by: 1), until: today.advanced(by: 4), note: "Porto")
            var local = try await phone.today(at: server.clock.now)
            #expect(local.habits.map(\.today.state) == [.paused])
            #expect(local.pauses.map(\.id) == [pause.event.id])
            do {
                try await phone.pause(from: today.advanced(by: 3), until: today)
                Issue.record("a backwards pause was recorded")
            } catch let error as ClientError {
                #expect(error.field == "until", "\(error)")
            }
            server.clock.advance(days: 1)
            try await phone.resume(pause: pause.event.id)
            try await phone.sync()
            local = try await phone.today(at: server.clock.now)
            #expect(local.habits.map(\.today.state) == [.pending])
            #expect(local.habits.first?.calendar.suffix(3).map(\.state) == [.completed, .paused, .pending])
            let token = try await RawHTTP.signIn(server, email: "pat@example.com", device: "observer")
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            let mine = try MomentumJSON.encodeBytes(local)
            let theirs = withoutFinalNewline(answer.body)
            #expect(mine == theirs, "\(firstDifference(mine, theirs))")
        }
    }

    /// A Loop export imported through the SDK comes down with the next sync; the CSV
    /// download is a zip file with the habit in it.
    @Test(arguments: Backend.allCases)
    func anImportComesDownWithTheNextSyncAndTheCSVDownloadHoldsIt(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("lou"))
            let today = try await phone.today(at: server.clock.now).today
            let export = [
                "Habits.csv": "Position,Name,NumRepetitions,Interval\n001,Floss,1,1\n",
                "001 Floss/Checkmarks.csv": "Date,Value,Notes\n"
                    + (1...3).map { "\(today.advanced(by: -$0)),YES_MANUAL,\n" }.joined(),
            ]
            let check = try await phone.importHabits(from: .loop, files: export, dryRun: true)
            #expect(check.stored == 4)
            #expect(try await phone.today(at: server.clock.now).habits.isEmpty)
            let report = try await phone.importHabits(from: .loop, files: export)
            #expect(report.habits.map(\.habit) == ["floss"])
            try await phone.sync()
            let local = try await phone.today(at: server.clock.now)
            #expect(local.habits.map(\.definition.name) == ["Floss"])
            #expect(local.habits.first?.current == 3)
            do {
                _ = try await phone.importHabits(from: .loop, files: ["Habits.csv": "Name\n\"Floss\n"])
                Issue.record("a broken export was imported")
            } catch let error as ClientError {
                #expect(error.code == "invalid_import", "\(error)")
            }
            let zip = try await phone.downloadCSV()
            #expect(zip.prefix(2) == Data("PK".utf8))
            #expect(String(decoding: zip, as: UTF8.self).contains("momentum-csv/001 Floss/Checkmarks.csv"))
        }
    }
}
