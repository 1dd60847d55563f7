import Foundation

/// Refusing the fields of a JSON object that its type does not know.
///
/// `JSONDecoder` drops a field no decoding asks for, so a misspelt `timezone` or a
/// schedule's `colour` would change nothing, without a word. The types that a request or
/// an event can carry call ``refuse(in:known:)`` after decoding their own fields.
public enum UnknownFields {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Refuses the first key of the decoder's object, in byte order, that is not in
    /// `known`, naming the known ones.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the unknown key's path:
    ///   "is not a field here (atLeast, atMost, unit)".
    public static func refuse(in decoder: any Decoder, known: [String]) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let names = Set(known)
        let unknown = c.allKeys.filter { !names.contains($0.stringValue) }
        guard let key = unknown.min(by: { $0.stringValue < $1.stringValue }) else { return }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: c, debugDescription: "is not a field here (\(known.sorted().joined(separator: ", ")))")
    }
}
