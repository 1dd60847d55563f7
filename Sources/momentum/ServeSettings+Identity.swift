import Foundation
import MomentumServices

extension ServeSettings {
    /// The identity providers whose ID tokens sign users in (`POST /v1/sessions/id-token`).
    static let identityProviderSettings: [Setting] = [
        Setting(
            key: "identityProviders", kind: .text,
            help:
                "The OpenID Connect providers whose ID tokens sign users in: a JSON array, or the path of a JSON file holding one, of {\"name\", \"issuer\", \"audiences\": [...], \"jwksUrl\", \"requireNonce\"} (see docs/integrate-your-backend.md).",
            read: { settings in
                let providers = settings.server.identity.providers
                guard !providers.isEmpty else { return nil }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return (try? encoder.encode(providers)).map { .text(String(decoding: $0, as: UTF8.self)) }
            },
            write: { settings, value throws(Setting.Problem) in
                guard case .text(let text) = value else { return }
                settings.server.identity.providers = try providers(from: text)
            }),
        .seconds(
            "identityProviderTimeout", 1...60, \.server.identity.fetchTimeout,
            help:
                "The longest a fetch of an identity provider's keys may take; a sign-in that needs them answers 503 identity_provider_unavailable after it."
        ),
    ]

    /// The providers of the setting's value: inline JSON (it starts with `[`) or a file's.
    static func providers(from text: String) throws(Setting.Problem) -> [IdentityProvider] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return [] }
        var json = trimmed
        if !trimmed.hasPrefix("[") {
            do {
                json = try String(contentsOfFile: trimmed, encoding: .utf8)
            } catch {
                throw Setting.Problem("'\(trimmed)' is neither a JSON array nor a readable file")
            }
        }
        do {
            return try IdentityProvider.list(fromJSON: json)
        } catch {
            throw Setting.Problem(error.message)
        }
    }
}
