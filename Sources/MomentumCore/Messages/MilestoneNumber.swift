/// How messages and captions write a milestone's number, the same on every platform: by the
/// rules of a ``Translation`` (its separators and currency pattern), never the device's
/// locale, so the phone and the server agree.
public enum MilestoneNumber {
    /// Whole numbers with thousands separators (`7`, `1,000`, `-25,000`); others with up to
    /// two decimals and no trailing zeros (`12.5`, `0.33`). Total: a value too large or not
    /// finite is written as Swift writes it.
    ///
    /// - Parameter value: The number.
    /// - Returns: The number in English.
    public static func text(_ value: Double) -> String {
        Translation.english.number(value)
    }

    /// ``text(_:)`` with a language's separators (`1.000`, `12,5` in Brazilian Portuguese).
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - translation: The language.
    /// - Returns: The number in that language.
    public static func text(_ value: Double, translation: Translation) -> String {
        translation.number(value)
    }

    /// An amount of money as seed 002 writes it: dollars with thousands grouped, cents only
    /// when there are some (`$1,000`, `$1,234.50`, `-$12.50`).
    ///
    /// - Parameter value: The amount.
    /// - Returns: The amount in English.
    public static func money(_ value: Double) -> String {
        Translation.english.money(value)
    }

    /// ``money(_:)`` in a language: its separators and its currency pattern (`number.money`;
    /// `US$ 1.234,50` in Brazilian Portuguese).
    ///
    /// - Parameters:
    ///   - value: The amount.
    ///   - translation: The language.
    /// - Returns: The amount in that language.
    public static func money(_ value: Double, translation: Translation) -> String {
        translation.money(value)
    }
}
