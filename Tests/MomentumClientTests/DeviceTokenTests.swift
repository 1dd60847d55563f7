import Crypto
import Foundation
import MomentumAPI
import MomentumClient
import MomentumServer
import MomentumServices
import Testing

/// An iOS app registers its APNs device token through the SDK.
@Suite(.serialized) struct DeviceTokenTests {
    @Test func anAppRegistersListsAndRemovesItsDeviceToken() async throws {
        let apns = APNsConfiguration(
            keyPEM: P256.Signing.PrivateKey().pemRepresentation, keyID: "KEY1234567", teamID: "TEAM123456",
            topic: "app.momentum.ios")
        try await LiveServer.with(.sqlite, configure: { $0.apns = apns }) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("sam"))
            let token: [UInt8] = (0..<32).map { UInt8($0 * 7 % 256) }
            let registered = try await phone.registerDeviceToken(token, environment: .sandbox)
            #expect(registered.channel.known == .apns)
            #expect(registered.environment?.known == .sandbox)
            #expect(registered.label == "…" + String(token.map { String(format: "%02x", $0) }.joined().suffix(8)))
            // Every launch registers again: still one device.
            #expect(try await phone.registerDeviceToken(token, environment: .sandbox).id == registered.id)
            var listed = try await phone.pushTargets()
            #expect(listed.apns && listed.targets.map(\.id) == [registered.id])
            try await phone.removePushTarget(registered.id)
            listed = try await phone.pushTargets()
            #expect(listed.targets.isEmpty)
            await #expect(throws: ClientError.self) { try await phone.removePushTarget(registered.id) }
        }
    }

    @Test func aServerWithoutAnAPNsKeyRefusesTokensNamingTheChannel() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("sam"))
            do {
                try await phone.registerDeviceToken([1, 2, 3, 4, 5, 6, 7, 8])
                Issue.record("a server without APNs accepted a device token")
            } catch let error as ClientError {
                #expect(error.code == "invalid_input" && error.field == "channel", "\(error)")
            }
            #expect(try await phone.pushTargets().apns == false)
        }
    }
}
