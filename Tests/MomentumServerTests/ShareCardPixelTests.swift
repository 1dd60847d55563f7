import CMomentumImage
import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// What a PNG share card looks like once `rsvg-convert` has drawn it: the pixels, not only
/// the SVG (issue 45, item 2: with an emoji font in the text's font list, librsvg drew
/// digits with Noto Color Emoji, "1 0 0 -day streak").
@Suite struct ShareCardPixelTests {
    /// Digits are as wide as letters: a title of seven zeros and one of seven `o`s, the
    /// same in every other way, take about the same width in the story card the route
    /// draws. DejaVu Sans Bold's `0` is 0.70 em and its `o` 0.69 em; Noto Color Emoji's
    /// digits are almost twice as wide.
    @Test func digitsInAPNGCardAreAsWideAsLetters() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("digits", daysAgo: 1, client: client)
            var widths: [String: Int] = [:]
            for (id, title) in [("digits", "0000000"), ("letters", "ooooooo")] {
                let defined = try await client.call(
                    .put, "/v1/milestones/\(id)", token: token,
                    json: #"{"title": "\#(title)", "rule": "moment", "tier": 2, "badge": "🏆"}"#)
                #expect(defined.status == .ok, "\(defined.text)")
                let memories = try #require(
                    try await client.call(.get, "/v1/memories", token: token).json["memories"] as? [[String: Any]])
                let memory = try #require(memories.first { $0["title"] as? String == title }?["id"] as? String)
                let escaped =
                    memory.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? memory
                let base = "/v1/memories/\(escaped)/share-card?format=story"

                // The SVG says where the title's line is; the PNG shows what was drawn there.
                let svg = try await client.call(.get, base + "&type=svg", token: token).text
                let root = svg.split(separator: "\n").first { $0.hasPrefix("<svg ") } ?? ""
                #expect(!root.contains("Emoji"), "the text's fonts name no emoji font: \(root)")
                let line = try #require(Self.textLine(svg, containing: ">\(title)</text>"), "\(svg)")
                let png = try await client.call(.get, base + "&type=png", token: token)
                #expect(png.status == .ok, "\(png.text.prefix(300))")
                let image = try #require(RGBAImage(png: Array(buffer: png.body)))
                #expect(image.width == 1080 && image.height == 1920, "\(image.width) × \(image.height)")
                let band = Int(line.baseline - line.fontSize * 0.8)..<Int(line.baseline + line.fontSize * 0.1)
                let ink = image.inkExtent(rows: band, color: line.color)
                let extent = try #require(ink, "nothing drawn in \(line.color) in the title's line")
                widths[id] = extent.upperBound - extent.lowerBound
            }
            let digits = try #require(widths["digits"])
            let letters = try #require(widths["letters"])
            // The wrong font made the digits 1.8 times as wide as the letters.
            #expect(
                Double(digits) < Double(letters) * 1.2 && Double(digits) > Double(letters) * 0.8,
                "seven digits are \(digits) px wide, seven letters \(letters) px")
        }
    }

    /// The baseline, font size and colour of the first `<text>` line of `svg` that contains `marker`.
    static func textLine(
        _ svg: String, containing marker: String
    ) -> (baseline: Double, fontSize: Double, color: ShareCardColor)? {
        guard let line = svg.split(separator: "\n").first(where: { $0.contains(marker) }) else { return nil }
        func attribute(_ name: String) -> String? {
            guard let start = line.range(of: " \(name)=\"") else { return nil }
            let rest = line[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        guard let y = attribute("y").flatMap(Double.init), let size = attribute("font-size").flatMap(Double.init),
            let color = attribute("fill").flatMap(ShareCardColor.init(hex:))
        else { return nil }
        return (y, size, color)
    }
}

/// A PNG decoded to 8-bit RGBA with libpng.
struct RGBAImage: CustomStringConvertible {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    var description: String { "\(width) × \(height) RGBA image" }

    init?(png: [UInt8]) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 200)
        let status = png.withUnsafeBufferPointer { buffer in
            cmi_png_rgba(buffer.baseAddress, buffer.count, 40_000_000, &width, &height, &pixels, &message)
        }
        guard status == CMI_OK, let pixels else { return nil }
        defer { cmi_free(pixels) }
        self.width = Int(width)
        self.height = Int(height)
        self.pixels = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
    }

    /// The pixel at `x`, `y` as red, green, blue and alpha, 0 through 255.
    func pixel(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int, alpha: Int) {
        let i = (y * width + x) * 4
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]), Int(pixels[i + 3]))
    }

    /// The columns, first through last, in which `rows` hold ink of `color` (each channel
    /// within 40 of it: the glyphs' cores, not their anti-aliased edges).
    func inkExtent(rows: Range<Int>, color: ShareCardColor) -> Range<Int>? {
        var first: Int?
        var last: Int?
        for y in max(0, rows.lowerBound)..<min(height, rows.upperBound) {
            for x in 0..<width {
                let p = pixel(x, y)
                guard
                    p.alpha > 128, abs(p.red - color.red) <= 40, abs(p.green - color.green) <= 40,
                    abs(p.blue - color.blue) <= 40
                else { continue }
                first = min(first ?? x, x)
                last = max(last ?? x, x)
            }
        }
        guard let first, let last else { return nil }
        return first..<(last + 1)
    }
}
