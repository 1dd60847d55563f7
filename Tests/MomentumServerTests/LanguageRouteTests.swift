import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The profile's language through the API: registration takes it from the request, the
/// engine's words (titles, captions) follow it, and bad choices are refused by name.
struct LanguageRouteTests {
    static let acceptLanguage = HTTPField.Name("Accept-Language")!

    @Test(arguments: ServerHarness.Backend.allCases)
    func theProfilesLanguageSpeaksThroughTheAPI(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let languages = try await client.call(.get, "/v1/languages")
            #expect(languages.status == .ok)
            let listed = try #require(languages.json["languages"] as? [[String: Any]])
            #expect(listed.compactMap { $0["tag"] as? String } == ["en", "pt-BR"])
            #expect(listed.compactMap { $0["name"] as? String } == ["English", "Português (Brasil)"])

            // Registration: the body's language, else the request's Accept-Language.
            func register(_ name: String, language: String?, header: String?) async throws -> JSONResponse {
                let field = language.map { #", "language": "\#($0)""# } ?? ""
                return try await client.call(
                    .post, "/v1/accounts",
                    json:
                        #"{"email": "\#(name)@example.com", "password": "correct horse", "displayName": "\#(name)", "timeZone": "Europe/Berlin"\#(field)}"#,
                    headers: header.map { [Self.acceptLanguage: $0] } ?? [:])
            }
            func language(_ token: String) async throws -> String? {
                try await client.call(.get, "/v1/profile", token: token).json["language"] as? String
            }
            let bia = try await register("bia", language: nil, header: "pt-PT,pt;q=0.9,en;q=0.5")
            #expect(bia.status == .created)
            #expect(try await language(bia.json["token"] as? String ?? "") == "pt-BR")
            let ed = try await register("ed", language: "en", header: "pt-BR")
            #expect(try await language(ed.json["token"] as? String ?? "") == "en")
            let flo = try await register("flo", language: nil, header: "fr-FR")
            #expect(try await language(flo.json["token"] as? String ?? "") == nil)
            let bad = try await register("xul", language: "xx-YY", header: nil)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorFields == ["language"])
            #expect(bad.text.contains("pt-BR"))

            // The engine's words follow the profile.
            let token = try await harness.register("ada", daysAgo: 7, client: client)
            let now = harness.now
            let events =
                [habitCreated("read", at: now.addingTimeInterval(-6 * 86_400))]
                + (0...6).map {
                    completion("c\($0)", habit: "read", at: now.addingTimeInterval(Double($0 - 6) * 86_400))
                }
            #expect(try await client.call(.post, "/v1/events", token: token, json: eventsJSON(events)).status == .ok)
            func titles() async throws -> [String] {
                let answer = try await client.call(.get, "/v1/achievements", token: token)
                return (answer.json["unlocked"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            }
            func captions() async throws -> [String] {
                let answer = try await client.call(.get, "/v1/memories", token: token)
                return (answer.json["memories"] as? [[String: Any]] ?? []).compactMap { $0["caption"] as? String }
            }
            func choose(_ value: String) async throws -> JSONResponse {
                try await client.call(.patch, "/v1/profile", token: token, json: #"{"language": \#(value)}"#)
            }
            #expect(try await titles().contains("7-day streak: Read"))
            let englishCaptions = try await captions()
            #expect(!englishCaptions.isEmpty)

            let chosen = try await choose(#""pt-BR""#)
            #expect(chosen.status == .ok, "\(chosen.text)")
            #expect(chosen.json["language"] as? String == "pt-BR")
            #expect(try await titles().contains("Sequência de 7 dias: Read"))
            // Memories made in English are told in Portuguese now; notes and photos stay.
            let portugueseCaptions = try await captions()
            #expect(portugueseCaptions.count == englishCaptions.count)
            #expect(Set(portugueseCaptions).isDisjoint(with: englishCaptions))

            let refused = try await choose(#""klingon""#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorFields == ["language"])
            #expect(try await language(token) == "pt-BR")
            let number = try await choose("42")
            #expect(number.status == .badRequest || number.status == .unprocessableContent)

            let automatic = try await choose("null")
            #expect(automatic.status == .ok)
            #expect(automatic.json["language"] == nil)
            #expect(try await titles().contains("7-day streak: Read"))
            #expect(try await captions() == englishCaptions)
        }
    }

    @Test func aReactionIsToldInTheOwnersLanguage() throws {
        let portuguese = try #require(Wording.all["pt-BR"])
        let reactions = [
            PostReaction(user: "u1", displayName: "Ana", reaction: .fire, at: Date(timeIntervalSince1970: 0)),
            PostReaction(user: "u2", displayName: "Bob", reaction: .clap, at: Date(timeIntervalSince1970: 0)),
            PostReaction(user: "u3", displayName: "Cy", reaction: .party, at: Date(timeIntervalSince1970: 0)),
        ]
        let one = Notifications.reactionWords(Array(reactions.prefix(1)), portuguese)
        #expect(one.title == "Ana está torcendo por você")
        #expect(one.body == "Ana 🔥 reagiu à sua conquista.")
        let three = Notifications.reactionWords(reactions, portuguese)
        #expect(three.title == "Seus amigos estão torcendo por você")
        #expect(three.body == "Ana 🔥, Bob 👏 e mais 1 pessoa reagiram à sua conquista.")
        let english = Notifications.reactionWords(Array(reactions.prefix(2)), .english)
        #expect(english.body == "Ana 🔥 and Bob 👏 reacted to your achievement.")
    }
}
