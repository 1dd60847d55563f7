/// A plural category of Unicode CLDR: which form of a counted text a number takes in a
/// language ("1 day", "2 days"; "0 dia", "1.000.000 de dias" in Brazilian Portuguese).
///
/// The raw value is CLDR's keyword, which is also the suffix of a counted text's key
/// (`count.day.one`, `count.day.other`).
public enum PluralCategory: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case zero, one, two, few, many, other
}
