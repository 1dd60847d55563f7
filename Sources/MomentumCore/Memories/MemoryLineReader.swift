import Foundation

/// Reads the fields of one memory line, collecting every problem instead of stopping at the
/// first, so an import can report them all at once.
struct MemoryLineReader {
    /// Every field a memory line may have.
    static let fields: Set<String> = [
        "time", "type", "milestone_type", "milestone_value", "milestone_category", "photo", "note", "id", "unlock",
        "rule", "title", "caption", "subject", "share_photo", "retroactive", "day",
    ]

    let object: [String: Value]
    private(set) var errors: [MomentumError] = []

    init(object: [String: Value]) {
        self.object = object
    }

    /// The memory, or `nil` when a problem was found (see ``errors``).
    mutating func read() -> Memory? {
        for key in object.keys.sorted() where !Self.fields.contains(key) {
            fail(.malformedEvent, "unknown field", key)
        }
        let timeText = string("time", required: true)
        let type = string("type", required: true)
        if let type, type != Memory.lineType {
            fail(.malformedEvent, "expected \"\(Memory.lineType)\", found \"\(type)\"", "type")
        }
        let milestoneType = string("milestone_type", required: true, nonEmpty: true)
        let value = number("milestone_value")
        let category = string("milestone_category", required: true, nonEmpty: true)
        let photoPath = string("photo")
        let note = string("note")
        let id = string("id", nonEmpty: true)
        let unlock = string("unlock", nonEmpty: true)
        let rule = string("rule", nonEmpty: true)
        let title = string("title")
        let caption = string("caption")
        let subject = string("subject", nonEmpty: true)
        let sharePath = string("share_photo")
        let retroactive = bool("retroactive")
        let dayText = string("day")

        var time: (date: Date, offset: Int)?
        if let timeText {
            time = Self.parseTime(timeText)
            if time == nil {
                fail(.malformedEvent, "'\(timeText)' is not an RFC 3339 timestamp with an offset", "time")
            }
        }
        var day: LocalDay?
        if let dayText {
            day = LocalDay(iso8601: dayText)
            if day == nil { fail(.malformedEvent, "'\(dayText)' is not a date of the form YYYY-MM-DD", "day") }
        }
        var photo: MemoryPhoto?
        if let photoPath {
            do throws(MomentumError) {
                photo = try MemoryPhoto(original: photoPath, shareCopy: sharePath)
            } catch {
                errors.append(error)
            }
        } else if sharePath != nil {
            fail(.invalidEvent, "a share copy needs a photo", "share_photo")
        }

        let atOffset = time.map { Memory.date(of: $0.date, atOffset: $0.offset) }
        if let day, let atOffset, abs(day.distance(to: atOffset)) > 1 {
            fail(.invalidEvent, "is more than one day from the date of 'time' (\(atOffset))", "day")
        }
        guard errors.isEmpty, let time, let atOffset, let milestoneType, let category else { return nil }
        let resolvedDay = day ?? atOffset
        let derived = Memory.derived(
            category: category, milestoneType: milestoneType, value: value, day: resolvedDay, unlockID: unlock,
            title: title)
        return Memory(
            id: id, unlockID: derived.unlockID, rule: rule ?? derived.rule, title: derived.title, category: category,
            milestoneType: milestoneType, milestoneValue: value, time: time.date, offsetSeconds: time.offset,
            day: resolvedDay, caption: caption ?? derived.caption, note: note, photo: photo, subjectID: subject,
            retroactive: retroactive ?? false)
    }

    /// An RFC 3339 timestamp and its offset in seconds (`Z` is 0).
    static func parseTime(_ text: String) -> (date: Date, offset: Int)? {
        guard let date = RFC3339.parse(text) else { return nil }
        let bytes = Array(text.utf8)
        guard let last = bytes.last, last != UInt8(ascii: "Z"), last != UInt8(ascii: "z") else { return (date, 0) }
        // RFC3339.parse accepted the text, so it ends in ±HH:MM.
        let suffix = bytes.suffix(6).map { Int($0) - 48 }
        let seconds = (suffix[1] * 10 + suffix[2]) * 3600 + (suffix[4] * 10 + suffix[5]) * 60
        return (date, bytes[bytes.count - 6] == UInt8(ascii: "-") ? -seconds : seconds)
    }

    private mutating func fail(_ code: MomentumError.Code, _ reason: String, _ field: String) {
        errors.append(MomentumError(code, reason, field: field))
    }

    private mutating func string(_ key: String, required: Bool = false, nonEmpty: Bool = false) -> String? {
        switch object[key] {
        case .string(let text):
            if nonEmpty, text.isEmpty { fail(.malformedEvent, "must not be empty", key) }
            return text
        case nil, .null:
            if required { fail(.malformedEvent, "missing required field", key) }
            return nil
        case let value?:
            fail(.malformedEvent, "expected a string, found \(value.kind)", key)
            return nil
        }
    }

    private mutating func number(_ key: String) -> Double? {
        switch object[key] {
        case .number(let value): return value
        case nil, .null: return nil
        case let value?:
            fail(.malformedEvent, "expected a number, found \(value.kind)", key)
            return nil
        }
    }

    private mutating func bool(_ key: String) -> Bool? {
        switch object[key] {
        case .bool(let value): return value
        case nil, .null: return nil
        case let value?:
            fail(.malformedEvent, "expected true or false, found \(value.kind)", key)
            return nil
        }
    }

    /// Any JSON value, so a line can be checked field by field with messages that say what was
    /// expected.
    enum Value: Decodable, Equatable {
        case null, bool(Bool), number(Double), string(String), array, object

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if (try? container.decode([Value].self)) != nil {
                self = .array
            } else {
                _ = try container.decode([String: Value].self)
                self = .object
            }
        }

        /// "a string", "a number", … for error messages.
        var kind: String {
            switch self {
            case .null: "null"
            case .bool: "true or false"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }
}
