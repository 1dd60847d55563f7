import Foundation
import MomentumServices

/// Where and how to reach the SMTP server, read from ``MailSettings/smtpURL``.
struct SMTPServer: Sendable, Hashable {
    /// How the connection is secured.
    enum Security: Sendable, Hashable {
        /// `smtps://`: TLS from the first byte (port 465).
        case implicitTLS
        /// `smtp://` with a user: STARTTLS, required (a password never goes in clear).
        case startTLSRequired
        /// `smtp://` without a user: STARTTLS when the server offers it, else plain (a
        /// local relay).
        case startTLSWhenOffered
    }

    let host: String
    let port: Int
    let security: Security
    let user: String?
    let password: String?

    /// Reads `smtp://[user:password@]host[:port]` or `smtps://…`.
    ///
    /// - Throws: A sentence naming what is wrong (never the password).
    init(url text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps"
        else { throw MailSendError(permanent: true, "the SMTP URL must look like smtp://host:25 or smtps://host:465") }
        guard let host = components.host, !host.isEmpty else {
            throw MailSendError(permanent: true, "the SMTP URL names no host")
        }
        guard components.path.isEmpty || components.path == "/" else {
            throw MailSendError(permanent: true, "the SMTP URL has a path; give only user, password, host and port")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        user = components.user?.removingPercentEncoding
        password = components.password?.removingPercentEncoding
        if scheme == "smtps" {
            security = .implicitTLS
            port = components.port ?? 465
        } else {
            security = user == nil ? .startTLSWhenOffered : .startTLSRequired
            port = components.port ?? 587
        }
        guard (1...65_535).contains(port) else { throw MailSendError(permanent: true, "the SMTP port is out of range") }
    }
}
