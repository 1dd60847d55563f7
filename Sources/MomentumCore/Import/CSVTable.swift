import Foundation

/// Comma-separated values as RFC 4180 writes them, read and written without loss.
///
/// Reading accepts what spreadsheet programs and other apps export: a byte order mark,
/// `\r\n` or `\n` line ends, quoted fields holding commas, quotes (`""`) and line breaks,
/// and a last line without a line end. Every record keeps the line it began on, so an error
/// can name it.
public struct CSVTable: Hashable, Sendable {
    /// One record: its fields and the 1-based line it began on.
    public struct Record: Hashable, Sendable {
        /// The fields, unquoted.
        public var fields: [String]
        /// The line of the file the record began on (1 is the first).
        public var line: Int
    }

    /// The records, the header first when the file has one.
    public var records: [Record]

    /// What is wrong with a text that is not CSV.
    public struct Problem: Error, Hashable, Sendable {
        /// The line the problem is on.
        public var line: Int
        /// Why.
        public var reason: String
    }

    /// Reads CSV text.
    ///
    /// - Throws: ``Problem`` for a quoted field that never ends, or text after a quoted
    ///   field's closing quote (`"ab"c`). A quote inside an unquoted field (`a "b" c`) is
    ///   kept, as spreadsheets read it.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - maximumRecords: The most records to read; a longer file throws.
    public init(parsing text: String, maximumRecords: Int = .max) throws(Problem) {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var quoted = false  // Inside a quoted field.
        var wasQuoted = false  // The current field was quoted (text after its end quote is an error).
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        var atRecordStart = true
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        pending = following
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                // A line of a million commas is not a table anyone exported.
                if fields.count >= 10_000 {
                    throw Problem(line: line, reason: "more than 10000 fields on one line")
                }
                fields.append(field)
                field = ""
                wasQuoted = false
                atRecordStart = false
            case "\r", "\n":
                if scalar == "\r" {
                    let following = next()
                    if following != "\n" { pending = following }
                }
                if !(atRecordStart && fields.isEmpty && field.isEmpty && !wasQuoted) {
                    fields.append(field)
                    records.append(Record(fields: fields, line: recordLine))
                    if records.count > maximumRecords {
                        throw Problem(line: recordLine, reason: "more than \(maximumRecords) lines")
                    }
                }
                fields = []
                field = ""
                wasQuoted = false
                atRecordStart = true
                line += 1
                recordLine = line
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
                atRecordStart = false
            default:
                if wasQuoted {
                    throw Problem(line: line, reason: "text after the closing quote of a field")
                }
                // A quote inside an unquoted field (`a "great" day`) is kept as it is, as
                // spreadsheets read it.
                field.unicodeScalars.append(scalar)
                atRecordStart = false
            }
        }
        if quoted { throw Problem(line: recordLine, reason: "a quoted field that never ends") }
        if !(atRecordStart && fields.isEmpty && field.isEmpty && !wasQuoted) {
            fields.append(field)
            records.append(Record(fields: fields, line: recordLine))
        }
        self.records = records
    }

    /// Creates a table from records.
    public init(rows: [[String]]) {
        records = rows.enumerated().map { Record(fields: $1, line: $0 + 1) }
    }

    /// The table as CSV text: fields quoted where they need it, `\n` after every record.
    public var text: String {
        var out = ""
        for record in records {
            // A record of one empty field is `""`: an empty line would be no record at all.
            out += record.fields == [""] ? "\"\"" : record.fields.map(Self.quoted).joined(separator: ",")
            out += "\n"
        }
        return out
    }

    /// A field as CSV writes it.
    public static func quoted(_ field: String) -> String {
        guard
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || field.first == " "
                || field.last == " "
        else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
