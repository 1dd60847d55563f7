import Foundation

/// Names a layer gives to some of a document's fields, in place of the names Momentum's
/// types give them: how the store keeps its documents and the API writes its answers
/// apart from the domain types, and from each other.
///
/// A rule names a field by the keys that lead to it (array elements are transparent) and
/// gives its new name. A rule matches the end of a field's path, so `"best"` renames every
/// field called `best`, and `"calendar.state"` only the `state` of each day in a
/// `calendar`. Where several rules match, the one with the longest path wins. Paths use
/// the domain's names throughout, also for the fields above a renamed one.
///
/// ```swift
/// let stored = try JSONKeyRenames(["best": "bestStreak", "definition.name": "title"])
/// let bytes = try MomentumJSON.encodeBytes(state, renaming: stored)
/// let back = try MomentumJSON.decoder(renaming: stored).decode(HabitState.self, from: Data(bytes))
/// ```
///
/// With no rules (``none``) the encoding is the domain's own, at no cost. The keys of a
/// dictionary are fields too (`Subject.dates` is keyed by names the user chose), so a rule
/// whose name such a key could have should give the path above it.
public struct JSONKeyRenames: Sendable, Hashable {
    /// One rule: the path of domain names that ends at the field, and its new name.
    struct Rule: Sendable, Hashable {
        var path: [String]
        var name: String
    }

    /// The rules, by the last key of their path.
    private var rules: [String: [Rule]] = [:]
    /// The rules, by their new name.
    private var inverse: [String: [Rule]] = [:]

    /// No renames: the domain's own names.
    public static let none = JSONKeyRenames()

    private init() {}

    /// Renames from dotted paths of domain names to new names.
    ///
    /// - Parameter renames: For each field, its dotted path (`"calendar.state"`) and its new
    ///   name.
    /// - Throws: ``Invalid`` when a path or a name is empty, or two rules give one name to
    ///   fields that could meet in one object.
    public init(_ renames: [String: String]) throws(Invalid) {
        for (path, name) in renames.sorted(by: { $0.key < $1.key }) {
            let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !name.isEmpty, !name.contains("."), keys.allSatisfy({ !$0.isEmpty }), let last = keys.last else {
                throw Invalid(description: "a rename needs a dotted path and a plain name: '\(path)' → '\(name)'")
            }
            let rule = Rule(path: keys, name: name)
            rules[last, default: []].append(rule)
            inverse[name, default: []].append(rule)
        }
        for (name, named) in inverse where named.count > 1 {
            // Two fields that may share an object must not share a name.
            let parents = Set(named.map { $0.path.dropLast().last ?? "" })
            guard parents.count == named.count, !parents.contains("") else {
                throw Invalid(description: "two renames give the name '\(name)' to fields of one object")
            }
        }
    }

    /// Renames that cannot be applied.
    public struct Invalid: Error, CustomStringConvertible {
        /// What is wrong with them.
        public var description: String
    }

    /// Whether there are no renames.
    public var isEmpty: Bool { rules.isEmpty }

    /// The name a field at `path` (domain names, the field's own last) is written with.
    func encodedName(at path: [String]) -> String {
        guard let last = path.last, let candidates = rules[last] else { return path.last ?? "" }
        return Self.best(candidates, above: path.dropLast())?.name ?? last
    }

    /// The domain name of a field written as `name` in an object at `parent` (domain names).
    func domainName(of name: String, under parent: ArraySlice<String>) -> String {
        // A domain name that a rule renames is not read under that name.
        if let renamed = rules[name], Self.best(renamed, above: parent) != nil { return "\u{0}\(name)" }
        guard let candidates = inverse[name], let rule = Self.best(candidates, above: parent) else { return name }
        return rule.path[rule.path.count - 1]
    }

    /// The rule whose path above its field is the longest suffix of `parent`.
    private static func best(_ candidates: [Rule], above parent: ArraySlice<String>) -> Rule? {
        var best: Rule?
        for rule in candidates where parent.ends(with: rule.path.dropLast()) {
            if rule.path.count > best?.path.count ?? 0 { best = rule }
        }
        return best
    }
}

extension ArraySlice where Element == String {
    fileprivate func ends(with suffix: ArraySlice<String>) -> Bool {
        suffix.count <= count && zip(reversed(), suffix.reversed()).allSatisfy { $0 == $1 }
    }
}

extension MomentumJSON {
    /// Encodes `value` as ``encodeBytes(_:)`` does, with the fields `renames` names
    /// written under their new names (and the keys still sorted).
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - renames: The names to write in place of the domain's; with none, this is
    ///     ``encodeBytes(_:)``.
    /// - Throws: `EncodingError` as ``encodeBytes(_:)`` does.
    public static func encodeBytes<T: Encodable>(_ value: T, renaming renames: JSONKeyRenames) throws -> [UInt8] {
        guard !renames.isEmpty else { return try encodeBytes(value) }
        let encoder = Self.encoder()
        encoder.keyEncodingStrategy = .custom { codingPath in
            let path = codingPath.compactMap { $0.intValue == nil ? $0.stringValue : nil }
            return RenamedKey(renames.encodedName(at: path))
        }
        return Array(try encoder.encode(value))
    }

    /// A decoder that reads what ``encodeBytes(_:renaming:)`` wrote with `renames`.
    ///
    /// A field is read under its new name only: a document that still has a renamed field
    /// under the domain's name has it ignored, as an unknown field.
    ///
    /// - Parameter renames: The names the document was written with.
    public static func decoder(renaming renames: JSONKeyRenames) -> JSONDecoder {
        let decoder = Self.decoder()
        guard !renames.isEmpty else { return decoder }
        decoder.keyDecodingStrategy = .custom { codingPath in
            // The keys above are the domain's (the types asked for them); the last is the
            // document's own.
            let parent = codingPath.dropLast().compactMap { $0.intValue == nil ? $0.stringValue : nil }
            let key = codingPath.last
            guard let key, key.intValue == nil else { return key ?? RenamedKey("") }
            return RenamedKey(renames.domainName(of: key.stringValue, under: parent[...]))
        }
        return decoder
    }
}

/// A coding key made from a name.
private struct RenamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
