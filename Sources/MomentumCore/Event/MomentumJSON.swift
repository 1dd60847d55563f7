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
