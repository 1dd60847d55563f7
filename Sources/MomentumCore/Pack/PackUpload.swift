import Foundation

/// A rule pack an operator uploads: the pack's JSON document and its translations.
///
/// The document is the format of the bundled packs (``RulePack``, with its ``LogForm``s);
/// translations give its texts in the languages Momentum speaks, under the keys
/// ``RulePack/translated(_:)`` reads (`pack.<name>.rule.<id>.title`, …):
///
/// ```json
/// {"pack": {"name": "puppy", "version": "1.0.0", "achievements": [ … ]},
///  "translations": {"pt-BR": {"pack.puppy.rule.first-swim.title": "Primeiro mergulho"}}}
/// ```
///
/// ``read(_:maximumBytes:)`` checks an upload and lists every problem at once, each with its
/// JSON path (`pack.achievements[3].at[0]`) and a plain reason: each field and each element
/// of an array is read on its own, so that one bad rule does not hide the others. Pure and
/// total: a document too large is refused before it is parsed, and nesting and counts are
/// bounded (``Limits``).
public struct PackUpload: Hashable, Sendable {
    /// The pack, in English.
    public var pack: RulePack
    /// Its texts in other languages: by language tag, each text by key.
    public var translations: [String: [String: String]]
    /// The upload as canonical JSON (keys sorted): what is stored, and what two identical
    /// uploads share.
    public var document: Data

    /// One thing wrong with an upload.
    public struct Problem: Hashable, Sendable, Codable {
        /// Where, as a JSON path from the upload's root (`pack.achievements[3].at[0]`); empty
        /// for the document as a whole.
        public var path: String
        /// What is wrong, in plain words.
        public var problem: String

        /// A problem at a path.
        public init(path: String, problem: String) {
            self.path = path
            self.problem = problem
        }
    }

    /// What reading an upload found.
    public enum Outcome: Hashable, Sendable {
        /// A valid upload.
        case valid(PackUpload)
        /// An upload with problems, every one listed.
        case invalid([Problem])
        /// A document larger than the limit, not parsed.
        case tooLarge(bytes: Int, maximum: Int)
    }

    /// The bounds an upload must keep.
    public enum Limits {
        /// The largest document by default, in bytes (1 MiB; `packs.max_bytes` on a server).
        public static let defaultMaximumBytes = 1_048_576
        /// The deepest nesting of arrays and objects.
        public static let maximumDepth = 24
        /// The most elements of any one array, and entries of any one object.
        public static let maximumElements = 1_000
        /// The largest count, threshold, `every`, streak value or reward of a pack.
        public static let maximumCount = 100_000.0
        /// The largest amount an `amount` rule may count to.
        public static let maximumAmount = 1_000_000_000.0
        /// The longest run of days a rule or window may name (ten years).
        public static let maximumDays = 3_650
    }

    /// Checks an upload, listing every problem.
    ///
    /// - Parameters:
    ///   - data: The upload's JSON document.
    ///   - maximumBytes: The largest document accepted; larger ones are not parsed.
    /// - Returns: The upload, its problems, or that it is too large.
    public static func read(_ data: Data, maximumBytes: Int = Limits.defaultMaximumBytes) -> Outcome {
        guard data.count <= maximumBytes else { return .tooLarge(bytes: data.count, maximum: maximumBytes) }
        var checker = PackUploadChecker()
        guard let upload = checker.check(data) else { return .invalid(checker.problems) }
        return checker.problems.isEmpty ? .valid(upload) : .invalid(checker.problems)
    }

    /// Every problem of an upload; empty when it is valid.
    ///
    /// - Parameters:
    ///   - data: The upload's JSON document.
    ///   - maximumBytes: The largest document accepted.
    /// - Returns: The problems, in document order.
    public static func problems(_ data: Data, maximumBytes: Int = Limits.defaultMaximumBytes) -> [Problem] {
        switch read(data, maximumBytes: maximumBytes) {
        case .valid: return []
        case .invalid(let problems): return problems
        case .tooLarge(let bytes, let maximum):
            return [Problem(path: "", problem: "the document has \(bytes) bytes; at most \(maximum) are accepted")]
        }
    }

    /// The pack's texts in `language` with the upload's translations over Momentum's own: the
    /// translation an engine for this pack is built with.
    ///
    /// - Parameter translation: The language of the profile.
    /// - Returns: The translation with this upload's texts added.
    public func translation(_ translation: Translation) -> Translation {
        translation.including(translations[translation.language] ?? [:])
    }
}
