import Foundation
import MomentumCore

/// JSON for the documents the projections hold, in Momentum's canonical form.
enum StoreJSON {
    /// The canonical JSON of `value`.
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` when the value cannot be encoded (a
    ///   non-finite double): nothing is stored then, rather than a `null` that would read
    ///   back as corrupt data.
    static func encode<T: Encodable>(_ value: T) throws(StoreError) -> String {
        do {
            return String(decoding: try MomentumJSON.encodeBytes(value), as: UTF8.self)
        } catch {
            throw StoreError(.invalidInput, "\(T.self) cannot be stored: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, _ what: String) throws(StoreError) -> T {
        do {
            return try MomentumJSON.decoder().decode(type, from: Data(text.utf8))
        } catch {
            throw .corrupt("\(what): \(error)")
        }
    }

    /// A projection document: `value` with the stored form's `renames`.
    static func encode<T: Encodable>(_ value: T, _ renames: JSONKeyRenames) throws(StoreError) -> String {
        guard !renames.isEmpty else { return try encode(value) }
        do {
            return String(decoding: try MomentumJSON.encodeBytes(value, renaming: renames), as: UTF8.self)
        } catch {
            throw StoreError(.invalidInput, "\(T.self) cannot be stored: \(error)")
        }
    }

    /// Reads a projection document written with `renames`.
    static func decode<T: Decodable>(
        _ type: T.Type, _ text: String, _ what: String, _ renames: JSONKeyRenames
    ) throws(StoreError) -> T {
        guard !renames.isEmpty else { return try decode(type, text, what) }
        do {
            return try MomentumJSON.decoder(renaming: renames).decode(type, from: Data(text.utf8))
        } catch {
            throw .corrupt("\(what): \(error)")
        }
    }

    /// An instant as Momentum writes it (millisecond precision), so that what is stored and
    /// what the engine saw are the same.
    static func canonical(_ date: Date) -> Date {
        RFC3339.stored(date)
    }

    /// An event with its instant in canonical form.
    static func canonical(_ event: Event) -> Event {
        var event = event
        event.at = canonical(event.at)
        return event
    }
}
