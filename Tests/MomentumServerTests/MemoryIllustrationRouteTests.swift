import CMomentumImage
import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Issue 45, item 3: a memory without a photo shows its illustration, on the memories
/// page, in its celebrations (through the same URL) and on its share cards; a photo
/// replaces it.
@Suite struct MemoryIllustrationRouteTests {
    @Test func aMemoryWithoutAPhotoShowsItsIllustrationUntilAPhotoComes() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("walker", pack: "ollie")
            let memory = try await PhotoServer.firstMemory(client, token: token, at: harness.now)
            let cookie: HTTPFields = [.cookie: "\(WebSession.cookieName)=\(token)"]
            let expected = Illustration(
                rule: "potty-first-outdoor", category: "potty", milestoneType: "first", packs: ["ollie"])
            #expect(expected.base == .puppy && expected.prop == .flag && expected.backdrop == .outdoors)

            // The memories page: the illustration where the photo would be, no camera icon.
            let page = try await client.call(.get, "/memories", headers: cookie)
            #expect(page.status == .ok)
            #expect(!page.text.contains("📷"))
            let source = try #require(Self.illustrationSource(page.text), "\(page.text)")
            #expect(source.hasSuffix("/illustration.svg"))

            // The illustration: light and dark in one document, the same the engine draws.
            let picture = try await client.call(.get, source, headers: cookie)
            #expect(picture.status == .ok, "\(picture.text)")
            #expect(picture.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(picture.text == IllustrationRenderer.svg(expected, appearance: .adaptive))
            #expect(picture.text.contains("@media (prefers-color-scheme: dark)"))
            #expect(try await client.call(.get, source).status == .unauthorized)
            #expect(
                try await client.call(.get, "/memories/memory%3Anone/illustration.svg", headers: cookie).status
                    == .notFound)

            // The share card draws it in the photo's place, in the category's colour.
            #expect(IllustrationRenderer.svg(expected, appearance: .light).contains(Self.furColor))
            let card = try await client.call(.get, "/v1/memories/\(memory)/share-card?type=svg", token: token)
            #expect(card.status == .ok)
            #expect(card.text.contains(Self.furColor))
            #expect(card.text.contains(#"<g clip-path="url(#momentum-card-photo-clip)">"#))
            #expect(!card.text.contains("<image"))
            #expect(card.text.contains(expected.color.mixed(with: .white, fraction: 0.92).hex))

            // A photo takes its place on the page and on the card.
            let photo = TestImages.encode(CMI_FORMAT_PNG, width: 64, height: 48, channels: 3)
            let put = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: photo)
            #expect(put.status == .ok, "\(put.text)")
            let withPhoto = try await client.call(.get, "/memories", headers: cookie)
            #expect(Self.illustrationSource(withPhoto.text) == nil)
            #expect(withPhoto.text.contains(#"<img class="photo" src="/v1/photos/"#))
            let photographed = try await client.call(
                .get, "/v1/memories/\(memory)/share-card?type=svg", token: token)
            #expect(photographed.text.contains("<image") && !photographed.text.contains(Self.furColor))
        }
    }

    /// The puppy's fur (light and dark alike).
    static let furColor = "#E6A864"

    /// The `src` of the first illustration on a page.
    static func illustrationSource(_ html: String) -> String? {
        guard let tag = html.range(of: #"<img class="illustration" src=""#) else { return nil }
        let rest = html[tag.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
