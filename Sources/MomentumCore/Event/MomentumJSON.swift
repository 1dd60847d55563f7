import Foundation

/// JSON coders configured the way Momentum writes and reads its documents: RFC 3339
/// timestamps, sorted keys, no escaped slashes.
public enum MomentumJSON {
    /// An encoder for Momentum documents.
    ///
    /// - Parameter pretty: Whether to indent the output for people.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        encoder.nonConformingFloatEncodingStrategy = .throw
        return encoder
    }

    /// Encodes a value exactly as ``encoder(pretty:)`` (not pretty) would, several times
    /// faster: the store and the server write every document with it.
    ///
    /// - Throws: `EncodingError` for what Foundation's encoder refuses too (a non-finite
    ///   number, a top-level value that encodes nothing).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try CanonicalJSONEncoder.encode(value))
    }

    /// Like ``encode(_:)``, as bytes.
    public static func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        try CanonicalJSONEncoder.encode(value)
    }

    /// Appends `value` as a JSON string, escaped exactly as ``encodeBytes(_:)`` escapes
    /// strings: for types outside this module that write their own JSON on a hot path.
    public static func appendString(_ value: String, to out: inout [UInt8]) {
        JSONBytes.string(value, into: &out)
    }

    /// Appends an integer as ``encodeBytes(_:)`` writes it.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        JSONBytes.integer(value, into: &out)
    }

    /// Appends an instant as ``encodeBytes(_:)`` writes a `Date` (an RFC 3339 string).
    public static func appendInstant(_ date: Date, to out: inout [UInt8]) {
        JSONBytes.instant(date, into: &out)
    }

    /// A decoder for Momentum documents.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an RFC 3339 timestamp")
            }
            return date
        }
        return decoder
    }
}
