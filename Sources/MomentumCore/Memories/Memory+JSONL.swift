import Foundation

extension Memory {
    /// The memory as one line of seed 000's memory log, without the newline.
    ///
    /// Seed 000's fields come first, in the seed's order and spacing:
    /// `{"time": "2026-02-27T14:30:00+01:00", "type": "milestone", "milestone_type":
    /// "streak_record", "milestone_value": 7, "milestone_category": "potty_outdoor", "photo":
    /// "memories/2026-02-27-potty-streak.jpg", "note": "So proud of our little guy!"}`.
    /// Then, for a lossless round trip, the fields the seed lacks, each written only when it
    /// differs from what ``init(jsonLine:)`` derives without it:
    ///
    /// | field | derived when absent |
    /// |---|---|
    /// | `id` | ``id(forUnlock:)`` of `unlock` |
    /// | `unlock` | `<category>-<milestone_type>[-<value>]@<day>` |
    /// | `rule` | `unlock` up to its first `#` |
    /// | `title` | ``caption(category:milestoneType:value:title:name:context:translation:)`` without a title |
    /// | `caption` | the same, with the title and without a name |
    /// | `subject` | none |
    /// | `share_photo` | none |
    /// | `retroactive` | `false` |
    /// | `day` | the date of `time` at its own offset |
    ///
    /// So seed 000's line reads and writes back byte for byte, and writing, reading and
    /// writing again gives the same bytes. Numbers are written in their shortest form (`7`,
    /// `12.5`); strings escape only quotes, backslashes and control characters.
    public var jsonLine: String {
        var fields: [(String, String)] = [
            ("time", Self.json(timestamp)), ("type", Self.json(Self.lineType)),
            ("milestone_type", Self.json(milestoneType)),
        ]
        if let milestoneValue { fields.append(("milestone_value", Self.json(milestoneValue))) }
        fields.append(("milestone_category", Self.json(category)))
        if let photo { fields.append(("photo", Self.json(photo.original))) }
        if let note { fields.append(("note", Self.json(note))) }
        // `defaults` is what a line without `unlock` and `title` gets; `derived` what a line with
        // this memory's unlock and title gets for `rule` and `caption`.
        let defaults = Self.derived(
            category: category, milestoneType: milestoneType, value: milestoneValue, day: day, unlockID: nil, title: nil
        )
        let derived = Self.derived(
            category: category, milestoneType: milestoneType, value: milestoneValue, day: day, unlockID: unlockID,
            title: title)
        if id != Self.id(forUnlock: unlockID) { fields.append(("id", Self.json(id))) }
        if unlockID != defaults.unlockID { fields.append(("unlock", Self.json(unlockID))) }
        if rule != derived.rule { fields.append(("rule", Self.json(rule))) }
        if title != defaults.title { fields.append(("title", Self.json(title))) }
        if caption != derived.caption { fields.append(("caption", Self.json(caption))) }
        if let subjectID { fields.append(("subject", Self.json(subjectID))) }
        if let shareCopy = photo?.shareCopy { fields.append(("share_photo", Self.json(shareCopy))) }
        if retroactive { fields.append(("retroactive", "true")) }
        if day != dateAtOffset { fields.append(("day", Self.json(day.description))) }
        return "{" + fields.map { "\(Self.json($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Reads one line of a memory log, in the form ``jsonLine`` describes.
    ///
    /// Fields that are absent are derived as ``jsonLine`` lists. Lines must have `"type":
    /// "milestone"`; unknown fields are refused rather than dropped, so nothing is lost on the
    /// way back out.
    ///
    /// - Parameter jsonLine: The line, without its newline.
    /// - Throws: ``EventLogError`` with one ``MomentumError`` per problem, each naming its
    ///   field: ``MomentumError/Code/malformedEvent`` when the line is not a JSON object or a
    ///   field is missing, of the wrong type, unknown or unreadable;
    ///   ``MomentumError/Code/invalidEvent`` for a photo path outside `memories/`, a
    ///   `share_photo` without `photo`, or a `day` more than one day from the date of `time`.
    public init(jsonLine: some StringProtocol) throws(EventLogError) {
        let object: [String: MemoryLineReader.Value]
        do {
            object = try JSONDecoder().decode([String: MemoryLineReader.Value].self, from: Data(jsonLine.utf8))
        } catch let error as DecodingError {
            if case .typeMismatch = error {
                throw EventLogError(errors: [MomentumError(.malformedEvent, "not a JSON object")])
            }
            throw EventLogError(errors: [MomentumError(.malformedEvent, "not valid JSON")])
        } catch {
            throw EventLogError(errors: [MomentumError(.malformedEvent, "not valid JSON")])
        }
        var reader = MemoryLineReader(object: object)
        let parsed = reader.read()
        guard let parsed, reader.errors.isEmpty else { throw EventLogError(errors: reader.errors) }
        self = parsed
    }

    /// The `type` of every memory line.
    static let lineType = "milestone"

    /// The fields a line may omit, as derived from the others.
    static func derived(
        category: String, milestoneType: String, value: Double?, day: LocalDay, unlockID: String?, title: String?
    ) -> (unlockID: String, rule: String, title: String, caption: String) {
        let unlock =
            unlockID ?? "\(category)-\(milestoneType)\(value.map { "-" + json($0) } ?? "")@\(day)"
        let rule = unlock.split(separator: "#", maxSplits: 1).first.map(String.init) ?? unlock
        let title = title ?? derivedTitle(category: category, milestoneType: milestoneType, value: value)
        let caption = caption(category: category, milestoneType: milestoneType, value: value, title: title, name: nil)
        return (unlock, rule, title, caption)
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON number in its shortest form: whole numbers without a fraction, others as Swift
    /// writes them (which JSON reads back exactly); `null` for the non-finite.
    static func json(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }
}
