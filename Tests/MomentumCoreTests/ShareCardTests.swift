import Foundation
import MomentumCore
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct ShareCardTests {
    static let day = LocalDay(year: 2026, month: 2, day: 27)!
    static let green = ShareCardColor(hex: "#2E9E6B")!

    /// A 2×2 PNG, small enough to inline.
    static let tinyPNG =
        "data:image/png;base64,"
        + "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAE0lEQVR42mPQqDjxv4GBAYiBLAApbgXPqDiFhQAAAABJRU5ErkJggg=="

    static func ollie(photo: String? = nil) -> ShareCardContent {
        ShareCardContent(
            title: "7-DAY STREAK", achievementText: "Ollie mastered outdoor potty for a week!", badge: "7", date: day,
            subjectName: "Ollie", ageText: "12 weeks old", categoryColor: green, photo: photo)
    }

    static let longWord = String(repeating: "Pneumonoultramicroscopicsilicovolcanoconiosis", count: 12)

    /// Content that cannot fit anywhere: long sentences, unbroken words, emoji and CJK.
    static let overlong = ShareCardContent(
        title: "SUPERCALIFRAGILISTICEXPIALIDOCIOUS-WITHOUT-ANY-SPACES-AT-ALL-" + longWord,
        achievementText: String(
            repeating: "Ollie 🐶 met 木村さん's dog at the park and WWWWWWWWWW mmmmmmm made a friend! ", count: 20)
            + longWord,
        badge: "🏆🏆🏆🏆🏆 100", date: day, subjectName: "Sir Barksalot the Third of Wimbledon-upon-Thames " + longWord,
        ageText: "1 year, 2 months and 3 days old", categoryColor: ShareCardColor(hex: "#F2C94C")!,
        branding: "momentum — the engagement engine for everyone " + longWord)

    static func allBlocks(_ layout: ShareCardLayout) -> [ShareCardTextBlock] {
        layout.textBlocks + [layout.badge.label]
    }

    // MARK: - Formats

    @Test func formatsHaveExactPixelSizes() throws {
        #expect(ShareCardFormat.square.width == 1080)
        #expect(ShareCardFormat.square.height == 1080)
        #expect(ShareCardFormat.story.width == 1080)
        #expect(ShareCardFormat.story.height == 1920)
        #expect(ShareCardFormat.landscape.width == 1920)
        #expect(ShareCardFormat.landscape.height == 1080)
        let json = try JSONEncoder().encode(ShareCardFormat.allCases)
        #expect(String(decoding: json, as: UTF8.self) == #"["square","story","landscape"]"#)
        #expect(try JSONDecoder().decode([ShareCardFormat].self, from: json) == ShareCardFormat.allCases)
    }

    @Test(arguments: ShareCardFormat.allCases)
    func svgDeclaresItsPixelSize(format: ShareCardFormat) {
        let svg = ShareCardRenderer.svg(ShareCardLayout(content: Self.ollie(), format: format))
        let (w, h) = (format.width, format.height)
        #expect(svg.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(svg.contains(#"xmlns="http://www.w3.org/2000/svg""#))
        #expect(svg.contains(#"version="1.1" width="\#(w)" height="\#(h)" viewBox="0 0 \#(w) \#(h)""#))
        #expect(svg.contains("sans-serif"))
        #expect(svg.contains("<linearGradient"))
        #expect(svg.hasSuffix("</svg>\n"))
    }

    @Test func datesAreWrittenInEnglishWhateverTheLocale() {
        #expect(Self.ollie().formattedDate == "February 27, 2026")
        #expect(ShareCardContent.englishDate(LocalDay(year: 2024, month: 2, day: 29)!) == "February 29, 2024")
        #expect(ShareCardContent.englishDate(LocalDay(year: 2026, month: 1, day: 1)!) == "January 1, 2026")
        #expect(ShareCardContent.englishDate(LocalDay(year: 1999, month: 12, day: 31)!) == "December 31, 1999")
        let svg = ShareCardRenderer.svg(ShareCardLayout(content: Self.ollie(), format: .square))
        #expect(svg.contains(">February 27, 2026</text>"))
    }

    // MARK: - Layout

    @Test(arguments: ShareCardFormat.allCases)
    func shortTextKeepsItsSizeAndEveryWord(format: ShareCardFormat) {
        let layout = ShareCardLayout(content: Self.ollie(), format: format)
        #expect(layout.title.text == "7-DAY STREAK")
        #expect(layout.achievement.text == "Ollie mastered outdoor potty for a week!")
        #expect(layout.subject?.text == "Ollie · 12 weeks old")
        #expect(layout.date.text == "February 27, 2026")
        #expect(layout.branding.text == "momentum")
        #expect(layout.badge.label.text == "7")
        #expect(Self.allBlocks(layout).allSatisfy { !$0.isTruncated })
        #expect(layout.title.lines.count == 1)
    }

    @Test(arguments: ShareCardFormat.allCases)
    func wrappingKeepsEveryLineInsideItsBoxForOverlongText(format: ShareCardFormat) {
        for content in [Self.ollie(), Self.overlong] {
            let layout = ShareCardLayout(content: content, format: format)
            let canvas = ShareCardRect(x: 0, y: 0, width: Double(format.width), height: Double(format.height))
            for block in Self.allBlocks(layout) {
                #expect(canvas.contains(block.box), "\(block.text)")
                for line in block.lines {
                    let width = ShareCardTextMetrics.width(
                        of: line.text, fontSize: block.fontSize, weight: block.weight)
                    #expect(width <= block.box.width, "\(format) '\(line.text)' is \(width) wide in \(block.box.width)")
                    #expect(line.baselineY > block.box.y && line.baselineY <= block.box.maxY)
                }
            }
            #expect(canvas.contains(layout.photo.frame))
            #expect(canvas.contains(layout.badge.circle.bounds))
        }
    }

    @Test(arguments: ShareCardFormat.allCases)
    func overlongTextShrinksToTheMinimumThenEndsInAnEllipsis(format: ShareCardFormat) {
        let relaxed = ShareCardLayout(content: Self.ollie(), format: format)
        let layout = ShareCardLayout(content: Self.overlong, format: format)
        for block in [layout.title, layout.achievement, layout.branding] {
            #expect(block.isTruncated)
            #expect(block.lines.last?.text.hasSuffix("…") == true)
        }
        #expect(layout.achievement.fontSize < relaxed.achievement.fontSize)
        #expect(layout.title.fontSize < relaxed.title.fontSize)
        #expect(layout.title.lines.count <= 2)
        // Text blocks never overlap each other or the photo when stacked.
        let boxes = layout.textBlocks.dropLast().map(\.box)
        for (upper, lower) in zip(boxes, boxes.dropFirst()) { #expect(upper.maxY <= lower.y) }
        if format != .landscape { #expect(layout.photo.frame.maxY <= boxes[0].y) }
    }

    @Test func aLongUnbrokenWordIsBrokenBetweenCharacters() {
        var content = Self.ollie()
        content.achievementText = "Ollie says " + String(repeating: "woof", count: 25) + "!"
        let layout = ShareCardLayout(content: content, format: .square)
        let block = layout.achievement
        #expect(!block.isTruncated)
        #expect(block.lines.count > 1)
        let joined = block.lines.map(\.text).joined().replacingOccurrences(of: " ", with: "")
        #expect(joined == "Olliesays" + String(repeating: "woof", count: 25) + "!")
        for line in block.lines {
            let width = ShareCardTextMetrics.width(of: line.text, fontSize: block.fontSize, weight: block.weight)
            #expect(width <= block.box.width)
        }
    }

    @Test func textThatAlmostFitsShrinksInsteadOfBeingCut() {
        var content = Self.ollie()
        content.achievementText =
            "Ollie walked calmly past the noisy construction site, the school bus and three barking dogs today, "
            + "and then sat politely at the crossing."
        let layout = ShareCardLayout(content: content, format: .square)
        #expect(!layout.achievement.isTruncated)
        #expect(layout.achievement.fontSize < 44)
        #expect(layout.achievement.text == content.achievementText)
    }

    @Test func wideCharactersAndEmojiAreEstimatedWider() {
        let size = 100.0
        let latin = ShareCardTextMetrics.width(of: "a", fontSize: size, weight: .regular)
        #expect(ShareCardTextMetrics.width(of: "木", fontSize: size, weight: .regular) > latin)
        #expect(ShareCardTextMetrics.width(of: "🐶", fontSize: size, weight: .regular) > latin)
        #expect(ShareCardTextMetrics.width(of: "👨‍👩‍👧", fontSize: size, weight: .regular) == 125)
        #expect(ShareCardTextMetrics.width(of: "W", fontSize: size, weight: .bold) > latin)
        #expect(ShareCardTextMetrics.width(of: "abc", fontSize: size, weight: .bold) > 3 * latin)
    }

    @Test func landscapePutsThePhotoLeftOfTheTextAndOtherFormatsStackIt() {
        let wide = ShareCardLayout(content: Self.ollie(), format: .landscape)
        #expect(wide.photo.frame.maxX < wide.title.box.x)
        #expect(wide.title.alignment == .leading)
        #expect(wide.title.box.y < wide.photo.frame.maxY && wide.date.box.maxY > wide.photo.frame.y)
        for format in [ShareCardFormat.square, .story] {
            let stacked = ShareCardLayout(content: Self.ollie(), format: format)
            #expect(stacked.photo.frame.maxY < stacked.title.box.y)
            #expect(stacked.title.alignment == .center)
            #expect(abs(stacked.photo.frame.midX - Double(format.width) / 2) < 1)
        }
    }

    @Test func subjectLineIsLeftOutWhenThereIsNoNameOrAge() {
        var content = Self.ollie()
        content.subjectName = nil
        #expect(ShareCardLayout(content: content, format: .square).subject?.text == "12 weeks old")
        content.ageText = "   "
        #expect(ShareCardLayout(content: content, format: .square).subject == nil)
    }

    @Test func textColoursKeepReadableContrastForEveryCategoryColour() {
        for hex in ["#2E9E6B", "#F2C94C", "#FFFFFF", "#000000", "#FF3B30", "#5B6CF0", "#00C7BE"] {
            let layout = ShareCardLayout(
                content: ShareCardContent(
                    title: "T", achievementText: "A", badge: "1", date: Self.day,
                    categoryColor: ShareCardColor(hex: hex)!),
                format: .square)
            let background = layout.background.bottomColor
            #expect(layout.title.color.contrastRatio(with: background) >= 4.5, "\(hex)")
            #expect(layout.achievement.color.contrastRatio(with: background) >= 4.5, "\(hex)")
            #expect(layout.date.color.contrastRatio(with: background) >= 4.5, "\(hex)")
            #expect(layout.badge.label.color.contrastRatio(with: layout.badge.fill) >= 3, "\(hex)")
        }
    }

    // MARK: - Fonts

    /// Issue 45, item 2: the text's font list names no emoji font (a renderer may take one
    /// for digits, which are emoji characters by Unicode's property); emoji are drawn in
    /// `tspan`s of their own with the emoji fonts, digits and letters never are.
    @Test func emojiAreDrawnInTheirOwnSpansAndTheTextFontsNameNoEmojiFont() throws {
        #expect(!ShareCardRenderer.fontFamily.contains("Emoji"))
        #expect(ShareCardRenderer.emojiFontFamily.contains("'Noto Color Emoji'"))
        var content = Self.ollie()
        content.title = "100 DAYS 🔥 #1"
        content.badge = "🏔️"
        content.achievementText = "Keycap 1️⃣ and 👨‍👩‍👧"
        let svg = ShareCardRenderer.svg(ShareCardLayout(content: content, format: .story))
        let emoji =
            #"<tspan font-family="&apos;Apple Color Emoji&apos;, &apos;Segoe UI Emoji&apos;, "#
            + #"&apos;Noto Color Emoji&apos;, sans-serif">"#
        #expect(svg.contains(#">100 DAYS \#(emoji)🔥</tspan> #1</text>"#), "\(svg)")
        #expect(svg.contains(#">\#(emoji)🏔️</tspan></text>"#))
        #expect(svg.contains(#">Keycap \#(emoji)1️⃣</tspan> and \#(emoji)👨‍👩‍👧</tspan></text>"#))
        let root = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<svg ") })
        #expect(!root.contains("Emoji"))
        #expect(Self.isWellFormedXML(svg))
        // A card without emoji has no spans at all.
        #expect(!ShareCardRenderer.svg(ShareCardLayout(content: Self.ollie(), format: .story)).contains("<tspan"))
        #expect(ShareCardTextMetrics.isEmoji("🔥") && ShareCardTextMetrics.isEmoji("1️⃣"))
        #expect(
            !ShareCardTextMetrics.isEmoji("1") && !ShareCardTextMetrics.isEmoji("#")
                && !ShareCardTextMetrics.isEmoji("©"))
    }

    /// A zero-width joiner after a letter joins a script's forms, not emoji: such a title
    /// stays one text run; a keycap without U+FE0F is still an emoji.
    @Test func lettersJoinedByAZeroWidthJoinerStayText() {
        let chillu: Character = "\u{0D28}\u{0D4D}\u{200D}"  // ന്‍ (Malayalam)
        let halfForm: Character = "\u{0915}\u{094D}\u{200D}"  // क्‍ (Devanagari)
        #expect(!ShareCardTextMetrics.isEmoji(chillu) && !ShareCardTextMetrics.isEmoji(halfForm))
        #expect(ShareCardTextMetrics.isEmoji("#\u{20E3}") && ShareCardTextMetrics.isEmoji("🧑‍🦽"))
        var content = Self.ollie()
        content.title = "\u{0D05}\u{0D35}\u{0D28}\u{0D4D}\u{200D} 100"  // അവന്‍ 100
        let svg = ShareCardRenderer.svg(ShareCardLayout(content: content, format: .story))
        #expect(!svg.contains("<tspan"), "\(svg)")
    }

    // MARK: - Photo and placeholder

    @Test(arguments: ShareCardFormat.allCases)
    func placeholderIsDrawnWhenThereIsNoPhoto(format: ShareCardFormat) {
        let layout = ShareCardLayout(content: Self.ollie(), format: format)
        #expect(layout.photo.isPlaceholder)
        let svg = ShareCardRenderer.svg(layout)
        #expect(!svg.contains("<image"))
        #expect(svg.contains("<ellipse"))

        let withPhoto = ShareCardLayout(content: Self.ollie(photo: Self.tinyPNG), format: format)
        #expect(withPhoto.photo.content == .photo(href: Self.tinyPNG))
        let photoSVG = ShareCardRenderer.svg(withPhoto)
        #expect(photoSVG.contains(#"xlink:href="\#(Self.tinyPNG)""#))
        #expect(photoSVG.contains(#"preserveAspectRatio="xMidYMid slice""#))
        #expect(!photoSVG.contains("<ellipse"))
    }

    @Test func onlyDataURIsAndSafeRelativePathsAreUsedAsPhotos() {
        for accepted in [
            "memories/2026-02-27-potty-streak.jpg", "photo.png", Self.tinyPNG, "DATA:image/jpeg;base64,AA",
        ] {
            #expect(ShareCardContent.isAcceptedPhotoReference(accepted), "\(accepted)")
            #expect(!ShareCardLayout(content: Self.ollie(photo: accepted), format: .square).photo.isPlaceholder)
        }
        for refused in [
            "javascript:alert(1)", "https://example.com/x.png", "file:///etc/passwd", "/etc/passwd", "../secret.png",
            "memories/../../secret.png", "a.png\" onload=\"alert(1)", "", "data:text/html,<script>", "\\\\host\\share",
        ] {
            #expect(!ShareCardContent.isAcceptedPhotoReference(refused), "\(refused)")
            #expect(ShareCardLayout(content: Self.ollie(photo: refused), format: .square).photo.isPlaceholder)
        }
    }

    @Test func aDecodedLayoutWithAForbiddenPhotoReferenceDrawsNoImage() throws {
        let layout = ShareCardLayout(content: Self.ollie(photo: "memories/a.jpg"), format: .square)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(layout), as: UTF8.self)
            .replacingOccurrences(of: "memories/a.jpg", with: "https://tracker.example/pixel.png")
        let forged = try JSONDecoder().decode(ShareCardLayout.self, from: Data(json.utf8))
        #expect(forged.photo.content == .photo(href: "https://tracker.example/pixel.png"))
        let svg = ShareCardRenderer.svg(forged)
        #expect(!svg.contains("<image"))
        #expect(!svg.contains("tracker"))
    }

    // MARK: - Escaping and determinism

    @Test(arguments: ShareCardFormat.allCases)
    func hostileTextIsEscaped(format: ShareCardFormat) {
        let content = ShareCardContent(
            title: "<script>x</script>", achievementText: "Tom & Jerry said \"hi\" & 'bye' </text><svg>",
            badge: "<b>", date: Self.day, subjectName: "\"><image href=x onerror=alert(1)>",
            ageText: "1 & 2 \u{0}\u{1B}weeks", categoryColor: Self.green, photo: "memories/o'neil&co.png",
            branding: "]]><!-- -->")
        let svg = ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("<b>"))
        #expect(!svg.contains("<svg>"))
        #expect(!svg.contains("<image href"))
        #expect(!svg.contains("<!--"))
        #expect(!svg.contains("\u{0}") && !svg.contains("\u{1B}"))
        #expect(svg.contains("&lt;script&gt;x&lt;/script&gt;"))
        #expect(svg.contains("Tom &amp; Jerry"))
        #expect(svg.contains("&quot;hi&quot;"))
        #expect(svg.contains("&apos;bye&apos;"))
        #expect(svg.contains(#"xlink:href="memories/o&apos;neil&amp;co.png""#))
        #expect(Self.isWellFormedXML(svg))
    }

    @Test(arguments: ShareCardFormat.allCases)
    func sameInputGivesByteIdenticalSVG(format: ShareCardFormat) throws {
        for content in [Self.ollie(), Self.ollie(photo: Self.tinyPNG), Self.overlong] {
            let first = ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
            let second = ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
            #expect(first == second)
            // A layout sent over the wire draws the same card.
            let layout = ShareCardLayout(content: content, format: format)
            let decoded = try JSONDecoder().decode(ShareCardLayout.self, from: JSONEncoder().encode(layout))
            #expect(decoded == layout)
            #expect(ShareCardRenderer.svg(decoded) == first)
            #expect(Self.isWellFormedXML(first))
        }
    }

    @Test func contentRoundTripsThroughJSONAndDefaultsItsBranding() throws {
        let content = Self.ollie(photo: "memories/a.jpg")
        let data = try JSONEncoder().encode(content)
        #expect(try JSONDecoder().decode(ShareCardContent.self, from: data) == content)
        let minimal =
            ##"{"title":"T","achievementText":"A","badge":"1","date":"2026-02-27","categoryColor":"#2e9e6b"}"##
        let decoded = try JSONDecoder().decode(ShareCardContent.self, from: Data(minimal.utf8))
        #expect(decoded.branding == "momentum")
        #expect(decoded.categoryColor == Self.green)
        #expect(decoded.photo == nil)
        let badColour = minimal.replacingOccurrences(of: "#2e9e6b", with: "green")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ShareCardContent.self, from: Data(badColour.utf8))
        }
        #expect(ShareCardColor(hex: "#abc") == ShareCardColor(hex: "#AABBCC"))
        #expect(ShareCardColor(hex: "2E9E6B") == nil)
        #expect(ShareCardColor(hex: "#2E9E6") == nil)
        #expect(Self.green.hex == "#2E9E6B")
    }

    // MARK: - A real renderer

    static let rsvgConvert = "/usr/bin/rsvg-convert"

    @Test(arguments: ShareCardFormat.allCases, [false, true])
    func rsvgConvertRendersThePNGAtExactlyTheFormatsPixelSize(format: ShareCardFormat, withPhoto: Bool) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.rsvgConvert) else {
            let advice =
                "\(Self.rsvgConvert) is missing: install it with `apt-get install librsvg2-bin` (Debian/Ubuntu) "
                + "to check that share cards render"
            Issue.record("\(advice)")
            return
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momentum-share-card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let svgURL = directory.appendingPathComponent("card.svg")
        let pngURL = directory.appendingPathComponent("card.png")
        let content = Self.ollie(photo: withPhoto ? Self.tinyPNG : nil)
        try ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
            .write(to: svgURL, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.rsvgConvert)
        process.arguments = ["--format", "png", "--output", pngURL.path, svgURL.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "rsvg-convert failed: \(message)")

        let png = try Data(contentsOf: pngURL)
        try #require(png.count > 24)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        func bigEndian(_ range: Range<Int>) -> Int { png[range].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bigEndian(16..<20) == format.width)
        #expect(bigEndian(20..<24) == format.height)
    }

    // MARK: - Helpers

    /// Whether Foundation's XML parser reads the document without error.
    static func isWellFormedXML(_ text: String) -> Bool {
        let parser = XMLParser(data: Data(text.utf8))
        return parser.parse()
    }
}
