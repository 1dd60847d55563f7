import Foundation
import Testing

/// `momentum serve --identity-providers`: a bad list of identity providers is refused at
/// start, naming the setting and the provider's field at fault.
@Suite(.serialized)
struct IdentityProviderSettingsTests {
    let settings = ServeSettingsTests()

    static let apple =
        #"{"name": "apple", "issuer": "https://appleid.apple.com", "audiences": ["com.example.app"], "jwksUrl": "https://appleid.apple.com/auth/keys", "requireNonce": true}"#

    @Test func aBadProviderListIsRefusedNamingTheSettingAndTheField() throws {
        let cases: [(String, String)] = [
            ("not json", "--identity-providers: 'not json' is neither a JSON array nor a readable file"),
            ("[{\"name\": \"apple\"}]", "lacks \"issuer\""),
            (
                #"[{"name": "a b", "issuer": "https://i", "audiences": ["x"], "jwksUrl": "https://k"}]"#,
                "name must be 1 to 64 letters"
            ),
            (
                #"[{"name": "a", "issuer": "https://i", "audiences": [], "jwksUrl": "https://k"}]"#,
                "audiences must list at least one audience"
            ),
            (
                #"[{"name": "a", "issuer": "https://i", "audiences": ["x"], "jwksUrl": "http://keys.example/jwks"}]"#,
                "provider 1 (a): jwksUrl must be an https:// URL (not http)"
            ),
            ("[\(Self.apple), \(Self.apple)]", "two providers are named 'apple'"),
        ]
        for (value, message) in cases {
            let refused = try settings.momentum(["serve", "--identity-providers", value])
            #expect(refused.status == 78, "\(value): \(refused.stderr)")
            #expect(refused.stderr.contains("identityProviders"), "\(refused.stderr)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
        // A file holding the list is read as the list; its problems are named the same way.
        let file = try settings.temporaryFile("providers.json", "[{\"name\": \"apple\", \"issuer\": 3}]")
        let fromFile = try settings.momentum(["serve"], environment: ["MOMENTUM_IDENTITY_PROVIDERS": file.path])
        #expect(fromFile.status == 78 && fromFile.stderr.contains("is of the wrong type"), "\(fromFile.stderr)")
    }

    @Test func aGoodListIsShownBySettings() throws {
        let shown = try settings.momentum(["settings", "--identity-providers", "[\(Self.apple)]"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let text = String(decoding: shown.stdout, as: UTF8.self)
        #expect(text.contains("https://appleid.apple.com/auth/keys"), "\(text)")
    }
}
