import Foundation

/// Reads and writes event logs in JSONL: one JSON event per line.
///
/// Blank lines and lines starting with `#` are ignored, so example logs can carry comments.
public enum EventLog {
    /// The most errors one read reports before it stops looking.
    public static let errorLimit = 50

    /// Parses a whole JSONL log.
    ///
    /// Either every line parses, or nothing is returned: the error lists each bad line with
    /// its number and reason (up to ``errorLimit``).
    ///
    /// - Parameter data: The file's bytes, UTF-8.
    /// - Returns: The events in file order, each with its 1-based line number.
    /// - Throws: ``EventLogError`` naming every malformed line.
    public static func parse(_ data: Data) throws(EventLogError) -> [(line: Int, event: Event)] {
        let (events, errors) = read(data)
        guard errors.isEmpty else { throw EventLogError(errors: errors) }
        return events
    }

    /// Parses a JSONL log line by line, keeping the lines that parse and the errors of those
    /// that do not (up to ``errorLimit``).
    ///
    /// - Parameter data: The file's bytes, UTF-8.
    /// - Returns: The parsed events with their line numbers, and one error per bad line.
    public static func read(_ data: Data) -> (events: [(line: Int, event: Event)], errors: [MomentumError]) {
        var events: [(Int, Event)] = []
        var errors: [MomentumError] = []
        let decoder = JSONDecoder()
        var lineNumber = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            guard let first = line.first(where: { $0 != 32 && $0 != 9 }), first != UInt8(ascii: "#") else { continue }
            do {
                events.append((lineNumber, try decoder.decode(Event.self, from: Data(line))))
            } catch {
                errors.append(describe(error).at(line: lineNumber))
                if errors.count >= errorLimit { break }
            }
        }
        return (events, errors)
    }

    /// Encodes events as JSONL, one compact object per line with sorted keys.
    ///
    /// - Parameter events: The events, in the order to write them.
    /// - Returns: UTF-8 text ending in a newline.
    public static func encode(_ events: [Event]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data()
        for event in events {
            // Encoding our own value types cannot fail.
            out.append(try! encoder.encode(event))
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// Turns a decoding error into a ``MomentumError`` that names the field and the reason.
    static func describe(_ error: any Error) -> MomentumError {
        guard let error = error as? DecodingError else {
            return MomentumError(.malformedEvent, "\(error)")
        }
        func path(_ context: DecodingError.Context, _ extra: (any CodingKey)? = nil) -> String? {
            let keys = (context.codingPath + (extra.map { [$0] } ?? [])).map(\.stringValue)
            return keys.isEmpty ? nil : keys.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return MomentumError(.malformedEvent, "not a JSON object: \(context.debugDescription)")
            }
            return MomentumError(.malformedEvent, context.debugDescription, field: path(context))
        case .keyNotFound(let key, let context):
            return MomentumError(.malformedEvent, "missing required field", field: path(context, key))
        case .typeMismatch(let type, let context):
            return MomentumError(.malformedEvent, "expected \(describe(type))", field: path(context))
        case .valueNotFound(let type, let context):
            return MomentumError(.malformedEvent, "expected \(describe(type)), found null", field: path(context))
        @unknown default:
            return MomentumError(.malformedEvent, "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".contains("Array") ? "an array" : "an object"
        }
    }
}

/// The lines of an event log that could not be read.
public struct EventLogError: Error, Sendable, CustomStringConvertible {
    /// One error per bad line, each with its ``MomentumError/line``.
    public let errors: [MomentumError]

    /// Creates the error.
    public init(errors: [MomentumError]) { self.errors = errors }

    /// One line per error.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
