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
}
