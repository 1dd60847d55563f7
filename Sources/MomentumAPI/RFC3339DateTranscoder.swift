import Foundation
import MomentumCore
import OpenAPIRuntime

/// Reads and writes instants the way the server does: RFC 3339, to the millisecond, with
/// any offset (`2026-03-14T08:30:00-04:00`, `2026-03-14T12:30:00.250Z`).
///
/// Foundation's ISO 8601 transcoders accept either whole seconds or fractions, not both;
/// the server writes fractions only when an instant has them, so the generated client is
/// configured with this one (`Configuration.momentum`).
public struct RFC3339DateTranscoder: DateTranscoder {
    /// Creates the transcoder.
    public init() {}

    /// Formats an instant as the server writes it.
    ///
    /// - Parameter date: The instant.
    /// - Returns: Its RFC 3339 text in UTC.
    public func encode(_ date: Date) throws -> String { RFC3339.format(date) }

    /// Parses an RFC 3339 instant.
    ///
    /// - Parameter text: The text.
    /// - Returns: The instant, truncated to the millisecond.
    /// - Throws: `DecodingError` when the text is not an RFC 3339 instant.
    public func decode(_ text: String) throws -> Date {
        guard let date = RFC3339.parse(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "'\(text)' is not an RFC 3339 instant"))
        }
        return date
    }
}

extension Configuration {
    /// The settings a generated client needs to talk to a Momentum server: instants in
    /// RFC 3339 with or without fractions of a second.
    public static var momentum: Configuration { Configuration(dateTranscoder: RFC3339DateTranscoder()) }
}
