import Foundation

extension Event {
    /// The value of an event field this engine does not know, kept as the device sent it.
    ///
    /// An event from a newer device may carry a `type` or fields that this engine does not
    /// know (``Event/unknownFields``). They are kept, not refused, so that the event is
    /// stored, pulled and exported as it was sent, and a later engine that knows them
    /// applies it from history. The values are plain JSON, within
    /// ``EventLimits/maximumUnknownFieldBytes`` and its sibling bounds; numbers are
    /// IEEE doubles (as in JavaScript), finite and at most
    /// ``EventLimits/maximumUnknownNumber`` in magnitude, so that every one is written back
    /// with the same value.
    public enum FieldValue: Hashable, Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A finite number.
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([FieldValue])
        /// An object.
        case object([String: FieldValue])

        /// How deeply arrays and objects nest in the value: 0 for a scalar, 1 for an array or
        /// object of scalars.
        public var depth: Int {
            switch self {
            case .null, .bool, .number, .string: 0
            case .array(let items): 1 + (items.lazy.map(\.depth).max() ?? 0)
            case .object(let fields): 1 + (fields.values.lazy.map(\.depth).max() ?? 0)
            }
        }

        /// The number of values in the value, itself included.
        public var count: Int {
            switch self {
            case .null, .bool, .number, .string: 1
            case .array(let items): items.reduce(1) { $0 + $1.count }
            case .object(let fields): fields.values.reduce(1) { $0 + $1.count }
            }
        }

        /// Appends the value's compact JSON, keys in byte order, as ``MomentumJSON`` writes.
        func writeJSON(into out: inout [UInt8]) {
            switch self {
            case .null: JSONBytes.null(into: &out)
            case .bool(let value): JSONBytes.bool(value, into: &out)
            case .number(let value):
                // Decoding keeps finite numbers only; a value made otherwise is written as null.
                if !JSONBytes.finite(value, into: &out) { JSONBytes.null(into: &out) }
            case .string(let value): JSONBytes.string(value, into: &out)
            case .array(let items):
                out.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    item.writeJSON(into: &out)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let fields):
                out.append(UInt8(ascii: "{"))
                for (index, key) in fields.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated()
                {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    JSONBytes.string(key, into: &out)
                    out.append(UInt8(ascii: ":"))
                    fields[key]?.writeJSON(into: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
    }
}

extension Event.FieldValue: Codable {
    /// The deepest coding path at which a value is decoded at all: far below what
    /// ``EventLimits/maximumUnknownFieldDepth`` allows, it stops the recursion of a
    /// pathological document before the event's own bounds are checked.
    static let decodingPathLimit = 64

    /// Decodes any JSON value; refuses a number that is not finite or larger in magnitude
    /// than ``EventLimits/maximumUnknownNumber``, and nesting past a coding path of 64
    /// levels.
    public init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count <= Self.decodingPathLimit else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "nests more than \(EventLimits.maximumUnknownFieldDepth) arrays or objects deep"))
        }
        // Each kind is told by asking for its container, never by decoding the whole value
        // and trying again on failure, so that decoding costs one pass however deep the
        // value nests, and an error inside it is reported where it lies.
        if var items = try? decoder.unkeyedContainer() {
            var values: [Event.FieldValue] = []
            while !items.isAtEnd { values.append(try items.decode(Event.FieldValue.self)) }
            self = .array(values)
        } else if let fields = try? decoder.container(keyedBy: Event.Key.self) {
            var values: [String: Event.FieldValue] = [:]
            for key in fields.allKeys {
                values[key.stringValue] = try fields.decode(Event.FieldValue.self, forKey: key)
            }
            self = .object(values)
        } else {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let value = try? c.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? c.decode(String.self) {
                self = .string(value)
            } else {
                let number: Double
                do {
                    number = try c.decode(Double.self)
                } catch {
                    throw DecodingError.dataCorruptedError(in: c, debugDescription: Self.numberMessage)
                }
                guard number.isFinite, abs(number) <= EventLimits.maximumUnknownNumber else {
                    throw DecodingError.dataCorruptedError(in: c, debugDescription: Self.numberMessage)
                }
                self = .number(number)
            }
        }
    }

    private static var numberMessage: String {
        "a number kept for a later engine must be finite and at most "
            + "\(EventLimits.format(EventLimits.maximumUnknownNumber)) in magnitude"
    }

    /// Encodes the value as the JSON it was decoded from.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let value): try c.encode(value)
        case .number(let value):
            // Decoding keeps finite numbers only; a value made otherwise is written as null
            // rather than failing the whole event.
            if value.isFinite { try c.encode(value) } else { try c.encodeNil() }
        case .string(let value): try c.encode(value)
        case .array(let value): try c.encode(value)
        case .object(let value): try c.encode(value)
        }
    }
}
