import Foundation
import MomentumAPI
import MomentumClient
import MomentumServer
import MomentumServices
import Testing

/// An Android app registers its FCM registration token through the SDK.
@Suite(.serialized) struct FCMTokenTests {
    /// A service account whose key is never used: registering a token sends nothing.
    static let fcm = FCMConfiguration(
        projectID: "momentum-demo", clientEmail: "push@momentum-demo.iam.gserviceaccount.com",
        privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", privateKeyID: "key-1")

    @Test func anAndroidAppRegistersListsAndRemovesItsFCMToken() async throws {
        try await LiveServer.with(.sqlite, configure: { $0.fcm = Self.fcm }) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "pixel")
            try await phone.register(.test("sam"))
            let token = "dGhpcyBpcyBub3QgYSByZWFs:APA91bH-" + String(repeating: "x_Y-z", count: 24)
            let registered = try await phone.registerFCMToken(token)
            #expect(registered.channel.known == .fcm)
            #expect(registered.environment == nil)
            #expect(registered.label == "…" + String(token.suffix(8)))
            // Every launch registers again: still one device.
            #expect(try await phone.registerFCMToken(token).id == registered.id)
            var listed = try await phone.pushTargets()
            #expect(listed.fcm == true && listed.apns == false && listed.targets.map(\.id) == [registered.id])
            try await phone.removePushTarget(registered.id)
            listed = try await phone.pushTargets()
            #expect(listed.targets.isEmpty)
        }
    }

    @Test func aServerWithoutFCMOrAMalformedTokenIsRefusedNamingTheField() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "pixel")
            try await phone.register(.test("sam"))
            do {
                try await phone.registerFCMToken("abcdefghijklmnopqrstuvwxyz")
                Issue.record("a server without FCM accepted a registration token")
            } catch let error as ClientError {
                #expect(error.code == "invalid_input" && error.field == "channel", "\(error)")
            }
            #expect(try await phone.pushTargets().fcm == false)
        }
        try await LiveServer.with(.sqlite, configure: { $0.fcm = Self.fcm }) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "pixel")
            try await phone.register(.test("sam"))
            for bad in [
                "short", "has spaces in the token 1234", String(repeating: "a", count: 513), "a/b?c=d&e#fghijklmnop",
            ] {
                do {
                    try await phone.registerFCMToken(bad)
                    Issue.record("'\(bad)' was accepted as a registration token")
                } catch let error as ClientError {
                    #expect(error.code == "invalid_input" && error.field == "token", "\(bad): \(error)")
                }
            }
            #expect(try await phone.pushTargets().targets.isEmpty)
        }
    }
}
