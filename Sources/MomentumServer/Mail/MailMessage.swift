import Foundation
import MomentumServices
import MomentumStore

/// A mail as SMTP's `DATA` carries it (RFC 5322 and MIME): headers whose values cannot
/// break a line, a UTF-8 `text/plain` body in quoted-printable, CRLF line ends, and
/// dot-stuffing.
struct MailMessage: Sendable {
    /// The envelope's sender (`MAIL FROM`).
    let sender: MailAddress
    /// The envelope's recipient (`RCPT TO`).
    let recipient: String
    /// `DATA`'s content, dot-stuffed, without the final `.` line.
    let data: String

    /// Renders `mail` from `sender`, dated `date`.
    ///
    /// - Throws: A permanent ``MailSendError`` when the recipient is not an address that
    ///   can go on an SMTP line (a CR or LF in it is an attempt to add headers or commands).
    init(_ mail: OutgoingMail, from sender: MailAddress, date: Date) throws {
        guard MailAddress.isPlain(mail.recipient) else {
            throw MailSendError(permanent: true, "the recipient is not an address SMTP can carry")
        }
        self.sender = sender
        recipient = mail.recipient
        let domain = sender.address.split(separator: "@").last.map(String.init) ?? "momentum.invalid"
        let id = String(
            mail.id.unicodeScalars.filter {
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789_-".unicodeScalars.contains($0))
            })
        let headers = [
            "Date: " + Self.date(date),
            "Message-ID: <\(id.isEmpty ? "mail" : id)@\(domain)>",
            "From: " + sender.header,
            "To: <\(mail.recipient)>",
            "Subject: " + Self.encodedWord(mail.subject),
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "Auto-Submitted: auto-generated",
        ]
        data = Self.dotStuffed(headers.joined(separator: "\r\n") + "\r\n\r\n" + Self.quotedPrintable(mail.body))
    }

    /// An RFC 5322 date in UTC.
    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// A header value with no line breaks or other control characters: printable ASCII as
    /// it is, anything else as RFC 2047 encoded words (UTF-8, base64) folded onto lines of
    /// their own.
    static func encodedWord(_ text: String) -> String {
        let flat = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        if flat.unicodeScalars.allSatisfy({ $0.isASCII }), flat.utf8.count <= 900 { return flat }
        // Whole characters, at most 45 bytes (60 in base64) per word.
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in flat {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45, !chunk.isEmpty {
                words.append(chunk.base64Word)
                chunk = []
            }
            chunk += bytes.prefix(45)
        }
        if !chunk.isEmpty { words.append(chunk.base64Word) }
        return words.joined(separator: "\r\n ")
    }

    /// A text as quoted-printable (RFC 2045 §6.7), with CRLF line ends and lines of at
    /// most 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var lines: [String] = []
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(line.utf8)
            var output: [UInt8] = []
            var width = 0
            for (index, byte) in bytes.enumerated() {
                let last = index == bytes.count - 1
                var piece: [UInt8]
                if (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !last) {
                    piece = [byte]
                } else {
                    piece = [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                }
                if width + piece.count > 75 {
                    output += Array("=\r\n".utf8)
                    width = 0
                }
                output += piece
                width += piece.count
            }
            lines.append(String(decoding: output, as: UTF8.self))
        }
        return lines.joined(separator: "\r\n")
    }

    /// `DATA`'s content with every line that begins with `.` given another (RFC 5321
    /// §4.5.2), so that no line of the mail ends it early.
    static func dotStuffed(_ text: String) -> String {
        text.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
            .joined(separator: "\r\n")
    }
}

/// A mailbox: an address and, optionally, a name people read (`Momentum <no-reply@…>`).
struct MailAddress: Sendable, Hashable {
    /// The address (`local@domain`).
    let address: String
    /// The name, if any.
    let name: String?

    /// Reads `Name <address>` or a bare address.
    ///
    /// - Throws: When it is neither, or the address holds what an SMTP line cannot.
    init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            self.name = name.isEmpty ? nil : name
        } else {
            address = trimmed
            name = nil
        }
        guard Self.isPlain(address) else {
            throw MailSendError(permanent: true, "'\(address)' is not an address SMTP can carry")
        }
    }

    /// The `From` header's value.
    var header: String {
        guard let name else { return "<\(address)>" }
        let plain = name.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || $0.properties.isWhitespace
                    || "0123456789-.".unicodeScalars.contains($0))
        }
        return (plain ? name : MailMessage.encodedWord(name)) + " <\(address)>"
    }

    /// Whether an address can go between `<` and `>` on an SMTP line and in a header:
    /// printable ASCII, no spaces, angle brackets or quotes, one `@` with text on each side.
    static func isPlain(_ address: String) -> Bool {
        let scalars = address.unicodeScalars
        guard address.utf8.count <= 320, scalars.allSatisfy({ $0.value > 32 && $0.value < 127 }),
            !address.contains(where: { "<>\"(),;:\\[]".contains($0) })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }
}

extension [UInt8] {
    /// An RFC 2047 encoded word of these UTF-8 bytes.
    fileprivate var base64Word: String { "=?UTF-8?B?\(Data(self).base64EncodedString())?=" }
}
