import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP server for a test: `Tests/Mail/smtp_receiver.py` (aiosmtpd) on a free
/// loopback port, writing what it accepts to a maildir the test reads. aiosmtpd missing is
/// a failure, not a skip (Scripts/install-test-dependencies installs it).
final class SMTPReceiver: Sendable {
    /// How the receiver secures its connections.
    enum Security: Sendable {
        case plain
        case startTLS(LoopbackCertificate)
        case implicitTLS(LoopbackCertificate)
    }

    let port: Int
    let maildir: URL
    private let directory: URL
    private let process: Process

    /// A free port on 127.0.0.1 (bound, read, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ReceiverError("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw ReceiverError("could not bind a port") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw ReceiverError("could not read the port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts the receiver (on `port`, or a free one) and waits until it listens.
    init(port: Int? = nil, security: Security = .plain, user: String? = nil, password: String? = nil) async throws {
        self.port = try port ?? Self.freePort()
        directory = FileManager.default.temporaryDirectory.appending(path: "momentum-smtp-\(UUID().uuidString)")
        maildir = directory.appending(path: "maildir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Mail/smtp_receiver.py")
        var arguments = [script.path, "--port", String(self.port), "--maildir", maildir.path]
        switch security {
        case .plain: break
        case .startTLS(let certificate), .implicitTLS(let certificate):
            let cert = directory.appending(path: "cert.pem")
            let key = directory.appending(path: "key.pem")
            try certificate.certificatePEM.write(to: cert, atomically: true, encoding: .utf8)
            try certificate.keyPEM.write(to: key, atomically: true, encoding: .utf8)
            if case .startTLS = security {
                arguments += ["--starttls", cert.path, key.path]
            } else {
                arguments += ["--smtps", cert.path, key.path]
            }
        }
        if let user { arguments += ["--user", user, "--password", password ?? ""] }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let log = directory.appending(path: "receiver.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Generous: in the parallel pass, a process may wait long for the CPU.
        let deadline = ContinuousClock.now + .seconds(120)
        while !(try String(contentsOf: log, encoding: .utf8).contains("ready")) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                stop()
                throw ReceiverError("the SMTP receiver (aiosmtpd) did not start: \(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the receiver and removes its files.
    func stop() {
        if process.isRunning {
            // aiosmtpd needs no goodbye: killed at once, it cannot keep a test waiting.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every mail received so far, as its raw text.
    func mails() -> [ReceivedMail] {
        let new = maildir.appending(path: "new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []
        return names.sorted().compactMap { name in
            (try? String(contentsOf: new.appending(path: name), encoding: .utf8)).map(ReceivedMail.init)
        }
    }
}

/// A mail as the receiver stored it.
struct ReceivedMail: Sendable {
    let raw: String

    /// The headers and the body, split at the first empty line.
    private var parts: (headers: String, body: String) {
        let text = raw.replacingOccurrences(of: "\r\n", with: "\n")
        guard let range = text.range(of: "\n\n") else { return (text, "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }

    /// A header's value (folded lines joined), the first of its name.
    func header(_ name: String) -> String? {
        var value: String?
        for line in parts.headers.split(separator: "\n", omittingEmptySubsequences: false) {
            if let current = value {
                guard line.hasPrefix(" ") || line.hasPrefix("\t") else { return current }
                value = current + " " + line.trimmingCharacters(in: .whitespaces)
            } else if line.lowercased().hasPrefix(name.lowercased() + ":") {
                value = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
            }
        }
        return value
    }

    /// The recipient of the envelope, as aiosmtpd records it.
    var recipient: String? { header("X-RcptTo") }

    /// The body decoded from quoted-printable.
    var text: String {
        let body = parts.body.replacingOccurrences(of: "=\n", with: "")
        var bytes: [UInt8] = []
        var index = body.utf8.startIndex
        let utf8 = body.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "="), let end = utf8.index(index, offsetBy: 3, limitedBy: utf8.endIndex),
                let value = UInt8(String(decoding: utf8[utf8.index(after: index)..<end], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = end
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The token of the first link to `page` in the body.
    func token(of page: String) -> String? {
        guard let range = text.range(of: "/\(page)?token=") else { return nil }
        return String(text[range.upperBound...].prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }))
    }
}
