import Foundation
import Logging
import MomentumCore
import MomentumServices

/// Momentum's log lines: one per event, in logfmt after a timestamp, level and label,
/// for example `2026-11-22T08:30:00.123Z info momentum: GET /v1/today 200 method=GET
/// ms=1.02 request_id=r_… status=200`. Keys are sorted. A value that is empty or holds a
/// space, a quote, `=` or a control character is written as a JSON string.
///
/// With the `json` format (`logFormat`) each line is one JSON object instead: `time`,
/// `level`, `label`, `message`, then the metadata's keys (see ``jsonLine(time:level:label:message:metadata:)``).
///
/// Unlike swift-log's `StreamLogHandler`, metadata set on a logger is formatted only when a
/// line is written. Hummingbird sets a request id on every request's logger; the stream
/// handler formatted all of the logger's metadata again each time, whether or not anything
/// was then logged (about 3% of a server's time under load).
public struct MomentumLogHandler: LogHandler {
    /// Metadata on every line of this logger.
    public var metadata: Logger.Metadata = [:]
    /// The least level written.
    public var logLevel: Logger.Level
    /// Metadata added to every line at the time it is written.
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let format: ObservabilitySettings.LogFormat
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> Date

    /// A handler writing to standard error.
    ///
    /// - Parameters:
    ///   - label: The logger's label, written on every line.
    ///   - level: The least level written.
    ///   - format: logfmt or one JSON object per line.
    public init(label: String, level: Logger.Level = .info, format: ObservabilitySettings.LogFormat = .logfmt) {
        self.init(label: label, level: level, format: format, now: { Date() }) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A handler writing each line (ending in a newline) with `write`.
    ///
    /// - Parameters:
    ///   - label: The logger's label, written on every line.
    ///   - level: The least level written.
    ///   - format: logfmt or one JSON object per line.
    ///   - now: The clock for the lines' timestamps.
    ///   - write: Receives every line; called from any thread.
    public init(
        label: String, level: Logger.Level = .info, format: ObservabilitySettings.LogFormat = .logfmt,
        now: @escaping @Sendable () -> Date, write: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.now = now
        self.write = write
    }

    /// One metadata value of this logger.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { $1 } }
        if let extra = event.metadata, !extra.isEmpty { merged.merge(extra) { $1 } }
        if format == .json {
            write(
                Self.jsonLine(
                    time: now(), level: event.level, label: label, message: "\(event.message)", metadata: merged))
            return
        }
        var line = "\(RFC3339.format(now())) \(event.level) \(label): \(event.message)"
        for key in merged.keys.sorted() {
            line += " \(Self.field(key))=\(Self.field(merged[key].map { "\($0)" } ?? ""))"
        }
        line += "\n"
        write(line)
    }

    /// A key or value as logfmt writes it: bare when it can be, else a JSON string.
    static func field(_ text: String) -> String {
        let bare =
            !text.isEmpty
            && !text.unicodeScalars.contains {
                $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F
            }
        if bare { return text }
        return (try? String(decoding: MomentumJSON.encodeBytes(text), as: UTF8.self)) ?? "\"\""
    }
}
