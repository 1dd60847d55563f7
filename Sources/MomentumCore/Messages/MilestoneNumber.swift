/// How messages and captions write a milestone's number, the same on every platform and in
/// every locale (they are English, and the phone and the server must agree).
public enum MilestoneNumber {
    /// Whole numbers with thousands separators (`7`, `1,000`, `-25,000`); others with up to
    /// two decimals and no trailing zeros (`12.5`, `0.33`). Total: a value too large or not
    /// finite is written as Swift writes it.
    public static func text(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let hundredths = (abs(value) * 100).rounded()
        guard hundredths < 9e15 else { return "\(value)" }
        let cents = Int(hundredths)
        var whole = String(cents / 100)
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        var fraction = cents % 100 == 0 ? "" : "." + (cents % 100 < 10 ? "0" : "") + String(cents % 100)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (value < 0 && cents > 0 ? "-" : "") + grouped + fraction
    }

    /// An amount of money as seed 002 writes it: dollars with thousands grouped, cents only
    /// when there are some (`$1,000`, `$1,234.50`, `-$12.50`).
    public static func money(_ value: Double) -> String {
        var text = Self.text(abs(value))
        if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) == 2 { text += "0" }
        return (value < 0 && text != "0" ? "-$" : "$") + text
    }

    /// The English ordinal of a whole number (`1st`, `2nd`, `11th`, `22nd`, `50th`).
    static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (abs(value) % 100, abs(value) % 10) {
        case (11...13, _): suffix = "th"
        case (_, 1): suffix = "st"
        case (_, 2): suffix = "nd"
        case (_, 3): suffix = "rd"
        default: suffix = "th"
        }
        return String(value) + suffix
    }
}
