import Foundation

/// A language's cardinal plural rules, written as Unicode CLDR writes them, and the category
/// they give a number.
///
/// Each category but `other` has a condition in CLDR's syntax (UTS #35, "Language Plural
/// Rules"): operands `n` (the absolute value), `i` (its integer digits), `v` and `w` (how
/// many fraction digits it shows, with and without trailing zeros), `f` and `t` (those digits
/// as a number, with and without trailing zeros) and `e`/`c` (a compact exponent, always 0
/// here); `mod` or `%`; `=` and `!=` against values, ranges (`2..4`) and lists (`0,1`);
/// `and` binding tighter than `or`. English is `one: i = 1 and v = 0`; Portuguese is
/// `one: i = 0..1` and `many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5`.
/// The first category whose condition holds wins, in CLDR's order (zero, one, two, few,
/// many); a number that meets none is `other`.
///
/// A language file names its rules in its `meta` (see ``Translation``), so adding a language
/// is adding its file. Pure and total: a number is classified as it is written, with at most
/// six fraction digits.
public struct PluralRules: Hashable, Sendable {
    /// The conditions, by category, in CLDR's order; `other` has none.
    let conditions: [(category: PluralCategory, condition: Condition)]
    /// The rules as written, by category (for equality and tests).
    public let source: [PluralCategory: String]

    /// Parses rules written in CLDR's syntax.
    ///
    /// - Parameter rules: A condition for each category but `other` (`["one": "i = 1 and v = 0"]`);
    ///   CLDR's sample annotations (`@integer …`) are ignored.
    /// - Returns: The rules, or `nil` when a condition cannot be read or `other` has one.
    public init?(_ rules: [PluralCategory: String]) {
        guard rules[.other] == nil else { return nil }
        var conditions: [(PluralCategory, Condition)] = []
        for category in PluralCategory.allCases where category != .other {
            guard let text = rules[category] else { continue }
            guard let condition = Condition(parsing: text) else { return nil }
            conditions.append((category, condition))
        }
        self.conditions = conditions
        self.source = rules
    }

    /// English (CLDR's `en`): "1 day", "0 days", "1.5 days".
    public static let english: PluralRules = {
        guard let rules = PluralRules([.one: "i = 1 and v = 0"]) else { fatalError("English plural rules") }
        return rules
    }()

    /// The categories a number may take in this language: those with a condition, and `other`.
    public var categories: [PluralCategory] { conditions.map(\.category) + [.other] }

    /// The category of a number as it is written with up to `fractionDigits` decimals and no
    /// trailing zeros (as ``Translation/number(_:fractionDigits:)`` writes it).
    ///
    /// - Parameters:
    ///   - value: The number; a value that is not finite is `other`.
    ///   - fractionDigits: The most decimals written, 0 to 6.
    /// - Returns: The category.
    public func category(for value: Double, fractionDigits: Int = 2) -> PluralCategory {
        guard let operands = Operands(value, fractionDigits: fractionDigits) else { return .other }
        return conditions.first { $0.condition.holds(for: operands) }?.category ?? .other
    }

    /// Two rules are equal when they are written the same.
    public static func == (lhs: PluralRules, rhs: PluralRules) -> Bool { lhs.source == rhs.source }

    /// Hashes the rules as written.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

extension PluralRules {
    /// CLDR's operands of a number.
    struct Operands {
        var n: Double
        var i: Double
        var v: Double
        var w: Double
        var f: Double
        var t: Double

        init?(_ value: Double, fractionDigits: Int) {
            guard value.isFinite else { return nil }
            let digits = min(max(fractionDigits, 0), 6)
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            let scaled = (abs(value) * scale).rounded()
            guard scaled < 9e15 else { return nil }
            let units = Int(scaled)
            let whole = units / Int(scale)
            var fraction = units % Int(scale)
            var shown = fraction == 0 ? 0 : digits
            while shown > 0, fraction % 10 == 0 {
                fraction /= 10
                shown -= 1
            }
            n = Double(units) / scale
            i = Double(whole)
            // The number is written without trailing zeros: v = w and f = t.
            v = Double(shown)
            w = Double(shown)
            f = Double(fraction)
            t = Double(fraction)
        }

        func value(of operand: Character) -> Double {
            switch operand {
            case "n": n
            case "i": i
            case "v": v
            case "w": w
            case "f": f
            case "t": t
            default: 0  // e and c: no compact exponent
            }
        }
    }

    /// `and`-conditions joined by `or`.
    struct Condition {
        /// Each `and`-condition: relations that must all hold.
        var alternatives: [[Relation]]

        init?(parsing text: String) {
            let rule = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var alternatives: [[Relation]] = []
            for alternative in Self.split(Substring(rule), on: "or") {
                var relations: [Relation] = []
                for relation in Self.split(alternative, on: "and") {
                    guard let parsed = Relation(parsing: relation) else { return nil }
                    relations.append(parsed)
                }
                guard !relations.isEmpty else { return nil }
                alternatives.append(relations)
            }
            guard !alternatives.isEmpty else { return nil }
            self.alternatives = alternatives
        }

        func holds(for operands: Operands) -> Bool {
            alternatives.contains { $0.allSatisfy { $0.holds(for: operands) } }
        }

        /// The parts of a text between the whole word `word`.
        private static func split(_ text: Substring, on word: String) -> [Substring] {
            var parts: [Substring] = []
            var current: [Substring] = []
            for token in text.split(whereSeparator: \.isWhitespace) {
                if token == word {
                    parts.append(Substring(current.joined(separator: " ")))
                    current = []
                } else {
                    current.append(token)
                }
            }
            parts.append(Substring(current.joined(separator: " ")))
            return parts
        }
    }

    /// `operand [mod m] (= | !=) ranges`.
    struct Relation {
        var operand: Character
        var modulus: Double?
        var negated: Bool
        var ranges: [ClosedRange<Double>]

        init?(parsing text: Substring) {
            let compact = text.filter { !$0.isWhitespace }
            let negated = compact.contains("!=")
            let sides = compact.components(separatedBy: negated ? "!=" : "=")
            guard sides.count == 2, var left = sides.first, let right = sides.last, !right.isEmpty else { return nil }
            var modulus: Double?
            for keyword in ["mod", "%"] {
                guard let range = left.range(of: keyword) else { continue }
                guard let value = Double(left[range.upperBound...]), value > 0 else { return nil }
                modulus = value
                left = String(left[..<range.lowerBound])
            }
            guard left.count == 1, let operand = left.first, "nivwftec".contains(operand) else { return nil }
            var ranges: [ClosedRange<Double>] = []
            for item in right.split(separator: ",", omittingEmptySubsequences: false) {
                let bounds = item.components(separatedBy: "..")
                guard (1...2).contains(bounds.count), let low = Double(bounds[0]),
                    let high = Double(bounds[bounds.count - 1]), low <= high
                else { return nil }
                ranges.append(low...high)
            }
            self.operand = operand
            self.modulus = modulus
            self.negated = negated
            self.ranges = ranges
        }

        func holds(for operands: Operands) -> Bool {
            var value = operands.value(of: operand)
            if let modulus { value = value.truncatingRemainder(dividingBy: modulus) }
            // A range matches whole numbers only ("i = 0..1" holds for 0 and 1, not 0.5).
            let matches = ranges.contains { range in
                range.lowerBound == range.upperBound
                    ? value == range.lowerBound : range.contains(value) && value == value.rounded()
            }
            return matches != negated
        }
    }
}
