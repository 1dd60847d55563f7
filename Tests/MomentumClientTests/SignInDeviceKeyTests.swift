import Foundation
import MomentumClient
@_spi(Testing) import MomentumServer
@_spi(Testing) import MomentumServices
import Synchronization
import Testing

/// The SDK keeps the sign-in device key the server hands out and shows it with the next
/// sign-in, so guesses at the password spread over many addresses do not keep its device
/// out, even after it signed out; a device that never signed in waits.
@Suite(.serialized) struct SignInDeviceKeyTests {
    @Test(arguments: Backend.allCases)
    func aDeviceThatSignedInBeforeGetsInWhileGuessesHoldTheAccount(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { configuration in
            configuration.trustedProxies = ["127.0.0.1", "::1"]
            // The throttle's clock stands still: its waits never pass during the test.
            configuration.signInClock = { 1_000 }
            configuration.signInFreeFailuresPerAccount = 2
            configuration.signInFreeFailuresAcrossAddresses = 6
        } _: { server in
            let files = try ClientFiles()
            let setup = try MomentumClient.make(
                server, files: files, device: "setup", middlewares: [ForwardedFrom("198.51.100.1")])
            try await setup.register(.test("ada"))

            let phonesAddress = ForwardedFrom("198.51.100.20")
            let phone = try MomentumClient.make(server, files: files, device: "phone", middlewares: [phonesAddress])
            try await phone.signIn(email: "ada@example.com", password: "correct horse")
            // The key is the device's, not the session's: signing out keeps it.
            try await phone.signOut()

            // Three addresses, two free guesses each: the account's six are spent.
            let guessesAddress = ForwardedFrom("203.0.113.1")
            let guesser = try MomentumClient.make(
                server, files: files, device: "guesser", middlewares: [guessesAddress])
            for address in 1...3 {
                guessesAddress.address.withLock { $0 = "203.0.113.\(address)" }
                for _ in 1...2 {
                    do {
                        try await guesser.signIn(email: "ada@example.com", password: "a guess")
                        Issue.record("a wrong password was accepted")
                    } catch let error as ClientError {
                        #expect(error.code == "invalid_credentials", "\(error)")
                    }
                }
            }

            // A device that never signed in to the account waits, from an address never used.
            let fresh = try MomentumClient.make(
                server, files: files, device: "fresh", middlewares: [ForwardedFrom("192.0.2.50")])
            do {
                try await fresh.signIn(email: "ada@example.com", password: "correct horse")
                Issue.record("a device without a key was let in while guesses hold the account")
            } catch let error as ClientError {
                #expect(error.code == "busy" && error.message.contains("sign-in"), "\(error)")
                #expect(error.retryAfter != nil, "\(error)")
            }
            #expect(try await fresh.account == nil)

            // The phone, travelling (an address never used either), shows its key: in.
            phonesAddress.address.withLock { $0 = "192.0.2.60" }
            try await phone.signIn(email: "Ada@example.com", password: "correct horse")
            #expect(try await phone.account?.email == "ada@example.com")
            // And again, with the key that sign-in answered.
            try await phone.signOut()
            phonesAddress.address.withLock { $0 = "192.0.2.61" }
            try await phone.signIn(email: "ada@example.com", password: "correct horse")
            #expect(try await phone.account?.email == "ada@example.com")
        }
    }
}
