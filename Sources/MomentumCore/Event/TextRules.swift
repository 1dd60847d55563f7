/// What text a person or a device may put in an event or a profile.
///
/// Names, ids, kinds and categories may hold any Unicode text but no control characters
/// (U+0000–U+001F, U+007F–U+009F): a NUL or a BEL in a habit's name ends strings early in
/// C libraries, rings terminals that print logs, and is never what a person meant. Notes
/// may also hold line breaks and tabs.
public enum TextRules {
    /// Whether `text` holds a control character (line feeds, carriage returns and tabs
    /// are allowed when `allowingLineBreaks` is set).
    ///
    /// - Parameters:
    ///   - text: The text to check.
    ///   - allowingLineBreaks: Whether `\n`, `\r` and `\t` are allowed (notes).
    /// - Returns: `true` when the text must be refused.
    public static func hasControlCharacter(_ text: String, allowingLineBreaks: Bool = false) -> Bool {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            guard value < 0x20 || (0x7F...0x9F).contains(value) else { continue }
            if allowingLineBreaks, value == 0x0A || value == 0x0D || value == 0x09 { continue }
            return true
        }
        return false
    }

    /// The sentence that refuses `field` for holding a control character.
    ///
    /// - Parameter field: The field's name as the user knows it (`name`, `note`).
    /// - Returns: A message such as "name must not contain control characters".
    public static func controlCharacterMessage(_ field: String) -> String {
        "\(field) must not contain control characters (such as NUL or BEL)"
    }
}
