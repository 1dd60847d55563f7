/// The text-width estimate share cards are laid out with, and the wrapping built on it.
///
/// A pure layout cannot ask a font how wide a string is, so ``ShareCardLayout`` estimates
/// it: every character (grapheme cluster) has an *advance* in ems, multiplied by the font
/// size in pixels. The table errs on the wide side, calibrated against DejaVu Sans (the
/// widest of the usual sans-serif fallbacks, and the one a bare Linux renderer uses), so
/// a line that fits the estimate also fits in SF Pro, Helvetica, Arial, Roboto or Segoe UI.
///
/// | characters | advance (em) |
/// |---|---|
/// | `i j l . , ; : '`, the vertical bar, space, `·` | 0.34 |
/// | `f r t I J ! ( ) [ ] { } - / \ "` and the backquote | 0.44 |
/// | other lowercase ASCII letters | 0.64 |
/// | digits | 0.66 |
/// | other uppercase ASCII letters | 0.78 |
/// | other ASCII symbols (`& # ? + < >`…) | 0.84 |
/// | `m w M W @ %`, `…` | 1.0 |
/// | other letters and symbols (accented Latin, Greek, Cyrillic, …) | 0.8 |
/// | wide East Asian characters (CJK, kana, Hangul, full-width forms) | 1.0 |
/// | emoji (emoji presentation, or a cluster with U+FE0F or a ZWJ sequence) | 1.25 |
/// | a lone combining mark or format character | 0 |
///
/// Semibold and bold text is 12% wider except for wide East Asian characters and emoji,
/// whose glyphs keep their width.
public enum ShareCardTextMetrics {
    /// The character a truncated line ends with.
    public static let ellipsis: Character = "…"

    /// The estimated advance of one character, in ems.
    ///
    /// - Parameters:
    ///   - character: The character (grapheme cluster).
    ///   - weight: The font weight.
    /// - Returns: The advance as a fraction of the font size, from the table in the type's documentation.
    public static func advance(of character: Character, weight: ShareCardFontWeight) -> Double {
        let base = baseAdvance(of: character)
        switch base {
        case .fixed(let value): return value
        case .scalable(let value): return weight == .regular ? value : value * 1.12
        }
    }

    /// The estimated width of a line of text, in pixels.
    ///
    /// - Parameters:
    ///   - text: The text, drawn on one line.
    ///   - fontSize: The font size in pixels.
    ///   - weight: The font weight.
    /// - Returns: The sum of the characters' advances times the font size.
    public static func width(of text: some StringProtocol, fontSize: Double, weight: ShareCardFontWeight) -> Double {
        var ems = 0.0
        for character in text { ems += advance(of: character, weight: weight) }
        return ems * fontSize
    }

    /// Text laid out in lines at one font size.
    struct Fitted: Hashable {
        var lines: [String]
        var fontSize: Double
        var isTruncated: Bool
    }

    /// Wraps text into at most `maxLines` lines no wider than `maxWidth`, shrinking the font if needed.
    ///
    /// Sizes are tried from `preferredSize` down to `minimumSize` in 2-pixel steps, breaking
    /// lines only between words and balancing their lengths. If nothing fits, the text is wrapped at `minimumSize`,
    /// breaking words longer than a line between characters, and the last line that fits
    /// ends in "…".
    static func fit(
        _ text: String, maxWidth: Double, maxLines: Int, preferredSize: Double, minimumSize: Double,
        weight: ShareCardFontWeight
    ) -> Fitted {
        let words = sanitized(text).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty, maxLines > 0 else {
            return Fitted(lines: [], fontSize: preferredSize, isTruncated: false)
        }
        var size = preferredSize
        while true {
            if let lines = balanced(words, maxWidth: maxWidth, maxLines: maxLines, fontSize: size, weight: weight) {
                return Fitted(lines: lines, fontSize: size, isTruncated: false)
            }
            if size <= minimumSize { break }
            size = max(minimumSize, size - 2)
        }
        // Only reached for overlong text: keep one line more than allowed, to know that something was cut.
        var lines =
            wrap(
                words, maxWidth: maxWidth, maxLines: maxLines + 1, fontSize: size, weight: weight, breakWords: true,
                stopEarly: true) ?? []
        guard lines.count > maxLines else { return Fitted(lines: lines, fontSize: size, isTruncated: false) }
        lines.removeLast(lines.count - maxLines)
        var last = Substring(lines[maxLines - 1])
        while !last.isEmpty, width(of: last + String(ellipsis), fontSize: size, weight: weight) > maxWidth {
            last.removeLast()
        }
        while let tail = last.last, tail.isWhitespace { last.removeLast() }
        lines[maxLines - 1] = String(last) + String(ellipsis)
        return Fitted(lines: lines, fontSize: size, isTruncated: true)
    }

    /// Wraps whole words into as few lines as possible, then evens out their lengths.
    ///
    /// Greedy wrapping can leave a lonely last word ("…for a / week!"); the narrowest width
    /// that still needs no more lines spreads the words evenly instead.
    private static func balanced(
        _ words: [String], maxWidth: Double, maxLines: Int, fontSize: Double, weight: ShareCardFontWeight
    ) -> [String]? {
        func attempt(_ width: Double, _ lines: Int) -> [String]? {
            wrap(words, maxWidth: width, maxLines: lines, fontSize: fontSize, weight: weight, breakWords: false)
        }
        guard let greedy = attempt(maxWidth, maxLines) else { return nil }
        guard greedy.count > 1 else { return greedy }
        var low = 0.0
        var high = maxWidth
        for _ in 0..<14 {
            let middle = (low + high) / 2
            if attempt(middle, greedy.count) != nil { high = middle } else { low = middle }
        }
        return attempt(high, greedy.count) ?? greedy
    }

    /// The text with white space of every kind turned into spaces and every character XML cannot carry removed.
    static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Greedy line breaking; `nil` if more than `maxLines` lines are needed or, without `breakWords`, a word is too wide.
    ///
    /// With `stopEarly`, returns the first `maxLines` lines instead of `nil` once they are full.
    private static func wrap(
        _ words: [String], maxWidth: Double, maxLines: Int, fontSize: Double, weight: ShareCardFontWeight,
        breakWords: Bool, stopEarly: Bool = false
    ) -> [String]? {
        func fits(_ line: String) -> Bool { width(of: line, fontSize: fontSize, weight: weight) <= maxWidth }
        var lines: [String] = []
        var current = ""
        func flush() -> Bool {
            if !current.isEmpty { lines.append(current) }
            current = ""
            return lines.count < maxLines
        }
        for word in words {
            if current.isEmpty, fits(word) {
                current = word
            } else if !current.isEmpty, fits(current + " " + word) {
                current += " " + word
            } else if fits(word) {
                guard flush() else { return stopEarly ? lines : nil }
                current = word
            } else {
                guard breakWords else { return nil }
                // A word wider than a line starts right after the text before it, if a character fits there.
                if let first = word.first, !current.isEmpty, fits(current + " " + String(first)) {
                    current += " "
                } else {
                    guard flush() else { return stopEarly ? lines : nil }
                }
                for character in word {
                    if !current.isEmpty, !fits(current + String(character)) {
                        guard flush() else { return stopEarly ? lines : nil }
                    }
                    current.append(character)
                }
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.count <= maxLines ? lines : (stopEarly ? Array(lines.prefix(maxLines)) : nil)
    }

    private enum Advance {
        case fixed(Double)
        case scalable(Double)
    }

    /// Whether a character is drawn as an emoji: its first scalar has emoji presentation
    /// (`🎉`), or it is an emoji character in a cluster with U+FE0F, a zero-width joiner or
    /// the keycap mark U+20E3 (`🏔️`, `1️⃣`, `#⃣`, `🧑‍🦽`).
    ///
    /// Digits, `#` and `*` are emoji characters too, by Unicode's property, but only in a
    /// keycap sequence are they drawn as emoji: a bare `7` is text. A zero-width joiner
    /// after a letter is not an emoji sequence: Malayalam's chillu (`ന്‍`) and Devanagari's
    /// half forms (`क्‍ष`) join with it and stay text.
    ///
    /// - Parameter character: The character (grapheme cluster).
    /// - Returns: `true` when the character needs an emoji font.
    public static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if scalars.count > 1, first.properties.isEmoji,
            scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || $0.value == 0x20E3 })
        {
            return true
        }
        return first.properties.isEmojiPresentation
    }

    private static func baseAdvance(of character: Character) -> Advance {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return .fixed(0) }
        if isEmoji(character) { return .fixed(1.25) }
        let value = first.value
        if value < 0x80 { return .scalable(asciiAdvance(UInt8(value))) }
        if value == 0x00B7 { return .scalable(0.34) }
        if value == 0x2026 { return .scalable(1.0) }
        if isWideEastAsian(value) { return .fixed(1.0) }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return .fixed(0)
        default: return .scalable(0.8)
        }
    }

    private static func asciiAdvance(_ byte: UInt8) -> Double {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "i"), UInt8(ascii: "j"), UInt8(ascii: "l"), UInt8(ascii: "."),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "'"), UInt8(ascii: "|"):
            0.34
        case UInt8(ascii: "f"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "I"), UInt8(ascii: "J"),
            UInt8(ascii: "!"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "\\"),
            UInt8(ascii: "\""), UInt8(ascii: "`"):
            0.44
        case UInt8(ascii: "m"), UInt8(ascii: "w"), UInt8(ascii: "M"), UInt8(ascii: "W"), UInt8(ascii: "@"),
            UInt8(ascii: "%"):
            1.0
        case UInt8(ascii: "a")...UInt8(ascii: "z"): 0.64
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 0.66
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): 0.78
        case 0x00..<0x20, 0x7F: 0
        default: 0.84
        }
    }

    private static func isWideEastAsian(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
