import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import Testing

/// The SDK speaks the profile's language offline: the pack's titles, the unlocks the device
/// finds and the messages it chooses, the same ones the server chooses.
@Suite(.serialized) struct LanguageClientTests {
    @Test func theDeviceSpeaksTheProfilesLanguage() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            var registration = Components.Schemas.RegisterRequest.test("lia")
            registration.language = "pt-BR"
            try await phone.register(registration)
            #expect(try await phone.translation().language == "pt-BR")
            #expect(try await phone.pack().title == "Hábitos")
            try await phone.record(habit("read", "Read"))
            let checkIn = try await phone.checkIn("read")
            let first = try #require(checkIn.unlocks.first)
            #expect(first.title == "Primeiro check-in concluído: Read")
            let message = try #require(checkIn.messages[first.id])
            #expect(!message.text.isEmpty)

            // The server, with the same log, says the same.
            try await phone.sync()
            let token = try await RawHTTP.signIn(server, email: "lia@example.com", device: "observer")
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/achievements"), token: token)
            let body = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            let titles = (body?["unlocked"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles.contains("Primeiro check-in concluído: Read"))
        }
    }
}
