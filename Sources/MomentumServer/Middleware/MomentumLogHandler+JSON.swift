import Foundation
import Logging
import MomentumCore

extension MomentumLogHandler {
    /// One log line as a JSON object, ending in a newline: `time` (RFC 3339, UTC), `level`,
    /// `label`, `message`, then the metadata's keys, sorted, each at the top level (a key
    /// that is one of those four is written as `metadata.<key>`). A metadata value is a
    /// string; a dictionary is an object and a list an array, nested as deep as they are.
    /// `trace_id` and `span_id` are metadata too (``TraceLogMetadata``), while a span is
    /// active.
    ///
    /// Strings are escaped as JSON requires: quotes, backslashes and every control
    /// character, so that a message with a newline is still one line.
    ///
    /// - Parameters:
    ///   - time: When it was logged.
    ///   - level: The level.
    ///   - label: The logger's label.
    ///   - message: The message.
    ///   - metadata: The metadata, merged.
    /// - Returns: The line.
    public static func jsonLine(
        time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        var line = "{\"time\":"
        appendString(RFC3339.format(time), to: &line)
        line += ",\"level\":"
        appendString(level.rawValue, to: &line)
        line += ",\"label\":"
        appendString(label, to: &line)
        line += ",\"message\":"
        appendString(message, to: &line)
        for key in metadata.keys.sorted() {
            line += ","
            appendString(reservedKeys.contains(key) ? "metadata.\(key)" : key, to: &line)
            line += ":"
            if let value = metadata[key] { appendValue(value, to: &line) }
        }
        line += "}\n"
        return line
    }

    private static let reservedKeys: Set<String> = ["time", "level", "label", "message"]

    private static func appendValue(_ value: Logger.Metadata.Value, to line: inout String) {
        switch value {
        case .string(let text):
            appendString(text, to: &line)
        case .stringConvertible(let convertible):
            appendString(convertible.description, to: &line)
        case .dictionary(let dictionary):
            line += "{"
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { line += "," }
                appendString(key, to: &line)
                line += ":"
                if let inner = dictionary[key] { appendValue(inner, to: &line) }
            }
            line += "}"
        case .array(let values):
            line += "["
            for (index, inner) in values.enumerated() {
                if index > 0 { line += "," }
                appendValue(inner, to: &line)
            }
            line += "]"
        }
    }

    /// A JSON string: quoted, with `"`, `\` and the control characters escaped.
    static func appendString(_ text: String, to line: inout String) {
        line += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }
}
