import Foundation
import MomentumServices
import MomentumStore
import Testing

@testable import MomentumServer

/// What the SMTP client puts on the wire: headers no value can break, dot-stuffing,
/// encodings, and the URL it is configured by.
struct MailMessageTests {
    static let sender = try! MailAddress(parsing: "Momentum <no-reply@momentum.example.com>")

    static func message(
        to recipient: String = "sam@example.com", subject: String = "Hi", body: String = "Hello"
    )
        throws -> MailMessage
    {
        try MailMessage(
            OutgoingMail(id: "m_1", recipient: recipient, subject: subject, body: body, createdAt: .distantPast),
            from: sender, date: Date(timeIntervalSince1970: 1_784_000_000))
    }

    /// The header lines of a message's data, folded lines joined.
    static func headers(_ message: MailMessage) -> [String] {
        let head = message.data.components(separatedBy: "\r\n\r\n")[0]
        return head.replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
    }

    @Test func aLineBreakInTheSubjectCannotAddAHeader() throws {
        let message = try Self.message(subject: "Hi\r\nBcc: evil@example.com\nX-Evil: 1")
        let headers = Self.headers(message)
        #expect(!headers.contains { $0.hasPrefix("Bcc:") || $0.hasPrefix("X-Evil:") })
        #expect(headers.filter { $0.hasPrefix("Subject:") } == ["Subject: Hi  Bcc: evil@example.com X-Evil: 1"])
    }

    @Test(arguments: [
        "sam@example.com\r\nBcc: evil@example.com", "sam@example.com>\r\nRCPT TO:<evil@example.com",
        "sam@example.com\n", "sam <sam@example.com>", "nobody", "sam@example.com\u{0}",
    ])
    func aRecipientThatCouldBreakALineIsRefusedForGood(_ recipient: String) {
        #expect(throws: MailSendError(permanent: true, "the recipient is not an address SMTP can carry")) {
            try Self.message(to: recipient)
        }
    }

    @Test func aSenderSettingWithALineBreakIsRefused() {
        #expect(throws: MailSendError.self) {
            try MailAddress(parsing: "Momentum <a@example.com>\r\nBcc: b@example.com")
        }
        #expect(throws: MailSendError.self) { try MailAddress(parsing: "not an address") }
        #expect((try? MailAddress(parsing: "a@example.com"))?.header == "<a@example.com>")
    }

    @Test func aNonASCIISubjectAndNameAreEncodedWords() throws {
        let subject = MailMessage.encodedWord("Confirme seu endereço de e-mail no Momentum, Ana 🎉")
        #expect(subject.hasPrefix("=?UTF-8?B?"))
        #expect(subject.split(separator: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(
            MailSubject.decode(subject.replacingOccurrences(of: "\r\n", with: ""))
                == "Confirme seu endereço de e-mail no Momentum, Ana 🎉")
        let named = try MailAddress(parsing: "Momentum Ação <a@example.com>")
        #expect(named.header.hasPrefix("=?UTF-8?B?"))
        #expect(named.header.hasSuffix(" <a@example.com>"))
    }

    @Test func theBodyIsQuotedPrintableWithShortLinesAndDotStuffed() throws {
        let long = String(repeating: "ação ", count: 40)
        let message = try Self.message(body: ".\nA line\r\n..two dots\nlink=https://x.example/?token=abc \n\(long)")
        let lines = message.data.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        let body = Array(lines.drop { !$0.isEmpty }.dropFirst())
        // A line of one dot would end DATA: it goes with another.
        #expect(body[0] == "..")
        #expect(body[1] == "A line")
        #expect(body[2] == "...two dots")
        // `=` is encoded, and so is a space that ends a line.
        #expect(body[3] == "link=3Dhttps://x.example/?token=3Dabc=20")
        #expect(body[4].contains("a=C3=A7=C3=A3o"))
        #expect(body[4].hasSuffix("="))
        #expect(Self.headers(message).contains("Content-Transfer-Encoding: quoted-printable"))
        #expect(Self.headers(message).contains("Content-Type: text/plain; charset=UTF-8"))
        #expect(Self.headers(message).contains("Date: Tue, 14 Jul 2026 03:33:20 +0000"))
        #expect(Self.headers(message).contains("Message-ID: <m_1@momentum.example.com>"))
        #expect(Self.headers(message).contains("To: <sam@example.com>"))
    }

    @Test func theURLSaysHowToConnect() throws {
        let submission = try SMTPServer(url: "smtp://user%40x:p%3Ass@mail.example.com")
        #expect(submission.port == 587)
        #expect(submission.security == .startTLSRequired)
        #expect(submission.user == "user@x")
        #expect(submission.password == "p:ss")
        let relay = try SMTPServer(url: "smtp://127.0.0.1:25")
        #expect(relay.security == .startTLSWhenOffered)
        #expect(relay.user == nil)
        let implicit = try SMTPServer(url: "smtps://u:p@mail.example.com")
        #expect(implicit.port == 465)
        #expect(implicit.security == .implicitTLS)
        for wrong in ["http://mail.example.com", "smtp://", "smtp://host:0", "smtp://host/path", "mail.example.com"] {
            #expect(throws: MailSendError.self, "\(wrong)") { try SMTPServer(url: wrong) }
        }
    }
}
