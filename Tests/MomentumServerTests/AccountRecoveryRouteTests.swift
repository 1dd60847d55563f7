import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

extension ServerHarness {
    /// Waits for the mails every instance is writing, then runs one pass of the sender.
    func sendMail() async throws -> MailSender.PassReport {
        for state in [state] + others { await state.services.mail.work.drain() }
        return try await state.runDueMail()
    }
}

/// Email accounts that can recover, against a real SMTP server (aiosmtpd): the reset mail
/// arrives, its link sets a new password once, expires, and is superseded; asking for an
/// unknown email answers the same and sends nothing; a server that is down gets the mail
/// later; verification links verify.
@Suite(.serialized)
struct AccountRecoveryRouteTests {
    static func mailing(
        to port: Int, attempts: Int = 10, perMinute: Int = 0, roots: String? = nil, scheme: String = "smtp",
        host: String = "127.0.0.1", user: String = ""
    ) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.mail.smtpURL = "\(scheme)://\(user)\(host):\(port)"
            configuration.mail.from = "Momentum <no-reply@momentum.example.com>"
            configuration.mail.attempts = attempts
            configuration.mail.requestsPerMinute = perMinute
            configuration.mail.timeout = .seconds(10)
            configuration.mail.trustRootsPEM = roots
            configuration.publicURL = "https://momentum.example.com/"
        }
    }

    static let resetSubject = "Choose a new Momentum password"

    /// Every instance's `/metrics`, one after the other (the sender ran on one of them).
    static func metrics(_ client: any TestClientProtocol) async throws -> String {
        var text = ""
        for _ in 0..<ServerHarness.instances { text += try await client.call(.get, "/metrics").text }
        return text
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aResetMailsALinkThatSetsANewPasswordOnceAndEndsEverySession(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(backend: backend, configure: Self.mailing(to: receiver.port)) { harness, client in
            let session = try await client.register("sam")
            let asked = try await client.call(.post, "/v1/password-reset", json: #"{"email": " Sam@Example.com "}"#)
            #expect(asked.status == .accepted)
            #expect(asked.json["status"] as? String == "accepted")
            // The welcome (verification) mail and the reset mail.
            #expect(try await harness.sendMail().sent == 2)
            let reset = try #require(receiver.mails().first { $0.header("Subject") == Self.resetSubject })
            #expect(reset.recipient == "sam@example.com")
            #expect(reset.header("From") == "Momentum <no-reply@momentum.example.com>")
            #expect(reset.header("Message-ID")?.hasSuffix("@momentum.example.com>") == true)
            #expect(reset.text.contains("https://momentum.example.com/reset-password?token="))
            let token = try #require(reset.token(of: "reset-password"))
            #expect(token.count == 43)

            // Too short a password is refused, and the link stays usable.
            let weak = try await client.call(
                .post, "/v1/password-reset/confirm", json: #"{"token": "\#(token)", "password": "short"}"#)
            #expect(weak.status == .unprocessableContent)
            #expect(weak.errorFields == ["password"])

            let confirmed = try await client.call(
                .post, "/v1/password-reset/confirm", json: #"{"token": "\#(token)", "password": "battery staple"}"#)
            #expect(confirmed.status == .ok, "\(confirmed.text)")
            #expect(confirmed.json["signedOutDevices"] as? Int == 1)
            // Every device session ended.
            #expect(try await client.call(.get, "/v1/profile", token: session).status == .unauthorized)
            // The new password signs in, the old one no longer does.
            let old = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "sam@example.com", "password": "correct horse", "deviceName": "phone"}"#)
            #expect(old.status == .unauthorized)
            let signedIn = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "sam@example.com", "password": "battery staple", "deviceName": "phone"}"#)
            #expect(signedIn.status == .created)
            // The mail reached its owner: the address is verified.
            let profile = try await client.call(
                .get, "/v1/profile", token: try #require(signedIn.json["token"] as? String))
            #expect(profile.json["emailVerified"] as? Bool == true)

            // A link works once.
            let again = try await client.call(
                .post, "/v1/password-reset/confirm", json: #"{"token": "\#(token)", "password": "third password"}"#)
            #expect(again.status == .gone)
            #expect(again.errorCode == "reset_link_used")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func anExpiredOrSupersededLinkIsRefusedAndAForgedOneToo(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(backend: backend, configure: Self.mailing(to: receiver.port)) { harness, client in
            _ = try await client.register("sam")
            for _ in 0..<2 {
                // A second apart, so that the second link is the newer one on every instance.
                harness.clock.value.withLock { $0 += 1 }
                _ = try await client.call(.post, "/v1/password-reset", json: #"{"email": "sam@example.com"}"#)
                _ = try await harness.sendMail()
            }
            let tokens = receiver.mails().filter { $0.header("Subject") == Self.resetSubject }
                .compactMap { $0.token(of: "reset-password") }
            try #require(tokens.count == 2)
            let body = { (token: String) in #"{"token": "\#(token)", "password": "battery staple"}"# }
            // The newer mail supersedes the older link, whichever order they arrived in (under
            // load the newer one can be sent first); an hour and a second later, the newer
            // link has expired too.
            harness.clock.value.withLock { $0 += 3_601 }
            var answers: [String?] = []
            for token in tokens {
                let answer = try await client.call(.post, "/v1/password-reset/confirm", json: body(token))
                answers.append(answer.errorCode)
            }
            // The one live link expired after an hour; the other was superseded.
            #expect(Set(answers) == ["invalid_reset_link", "reset_link_expired"])
            let forged = try await client.call(
                .post, "/v1/password-reset/confirm", json: body(String(repeating: "A", count: 43)))
            #expect(forged.status == .unprocessableContent)
            #expect(forged.errorCode == "invalid_reset_link")
            let odd = try await client.call(.post, "/v1/password-reset/confirm", json: body("x\\r\\nBcc: y"))
            #expect(odd.errorCode == "invalid_reset_link")
            // Nothing changed: the first password still signs in.
            let signedIn = try await client.call(
                .post, "/v1/sessions",
                json: #"{"email": "sam@example.com", "password": "correct horse", "deviceName": "phone"}"#)
            #expect(signedIn.status == .created)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func anUnknownEmailAnswersTheSameAndNothingIsSent(_ backend: ServerHarness.Backend) async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(backend: backend, configure: Self.mailing(to: receiver.port)) { harness, client in
            _ = try await client.register("sam")
            _ = try await harness.sendMail()
            let before = receiver.mails().count
            let known = try await client.call(.post, "/v1/password-reset", json: #"{"email": "sam@example.com"}"#)
            let unknown = try await client.call(.post, "/v1/password-reset", json: #"{"email": "nobody@example.com"}"#)
            #expect(unknown.status == known.status)
            #expect(unknown.text == known.text)
            #expect(Set(unknown.headers.map(\.name)) == Set(known.headers.map(\.name)))
            #expect(try await harness.sendMail().sent == 1)
            let mails = receiver.mails().dropFirst(before)
            #expect(mails.map(\.recipient) == ["sam@example.com"])
        }
    }

    @Test func resetRequestsAreLimitedPerEmailAndPerAddress() async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(configure: Self.mailing(to: receiver.port, perMinute: 2)) { harness, client in
            _ = try await client.register("sam")
            // Two a minute; several instances may each admit that many before they hear of
            // the others' counts (SharedRateLimiter), never more.
            var accepted = 0
            var refused: JSONResponse?
            for _ in 0..<(2 * ServerHarness.instances + 1) {
                let answer = try await client.call(.post, "/v1/password-reset", json: #"{"email": "sam@example.com"}"#)
                if answer.status == .accepted { accepted += 1 } else { refused = refused ?? answer }
            }
            #expect((2...(2 * ServerHarness.instances)).contains(accepted))
            #expect(refused?.status == .tooManyRequests)
            #expect(refused?.errorCode == "rate_limited")
            // The mails asked for and the welcome: nothing for a refused request.
            #expect(try await harness.sendMail().sent == accepted + 1)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aMailAskedForWhileTheServerIsDownArrivesOnceItIsUp(_ backend: ServerHarness.Backend) async throws {
        let port = try SMTPReceiver.freePort()
        try await ServerHarness.with(backend: backend, configure: Self.mailing(to: port)) { harness, client in
            _ = try await client.register("sam")
            let asked = try await client.call(.post, "/v1/password-reset", json: #"{"email": "sam@example.com"}"#)
            // The answer does not wait for the mail server.
            #expect(asked.status == .accepted)
            let down = try await harness.sendMail()
            #expect(down == MailSender.PassReport(sent: 0, retried: 2, failed: 0))
            let receiver = try await SMTPReceiver(port: port)
            defer { receiver.stop() }
            // Not before its next attempt is due…
            #expect(try await harness.sendMail().sent == 0)
            harness.clock.value.withLock { $0 += 30 }
            #expect(try await harness.sendMail().sent == 2)
            #expect(receiver.mails().contains { $0.header("Subject") == Self.resetSubject })
            let metrics = try await Self.metrics(client)
            #expect(metrics.contains(#"momentum_mail_total{outcome="retried"} 2"#))
            #expect(metrics.contains(#"momentum_mail_total{outcome="sent"} 2"#))
        }
    }

    @Test func aMailTheServerKeepsRefusingIsGivenUpAfterItsAttemptsAndCounted() async throws {
        let port = try SMTPReceiver.freePort()
        try await ServerHarness.with(configure: Self.mailing(to: port, attempts: 2)) { harness, client in
            _ = try await client.register("sam")
            #expect(try await harness.sendMail() == MailSender.PassReport(sent: 0, retried: 1, failed: 0))
            harness.clock.value.withLock { $0 += 30 }
            #expect(try await harness.sendMail() == MailSender.PassReport(sent: 0, retried: 0, failed: 1))
            harness.clock.value.withLock { $0 += 86_400 }
            #expect(try await harness.sendMail() == MailSender.PassReport())
            let metrics = try await Self.metrics(client)
            #expect(metrics.contains(#"momentum_mail_total{outcome="failed"} 1"#))
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aVerificationLinkVerifiesTheAddressAndAVerifiedAccountGetsNoMoreMail(
        _ backend: ServerHarness.Backend
    ) async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(backend: backend, configure: Self.mailing(to: receiver.port)) { harness, client in
            let session = try await client.register("sam")
            #expect(try await client.call(.get, "/v1/profile", token: session).json["emailVerified"] as? Bool == false)
            // Asked again: a newer link supersedes the first.
            let resend = try await client.call(.post, "/v1/me/email-verification", token: session)
            #expect(resend.status == .accepted)
            #expect(try await harness.sendMail().sent == 2)
            let tokens = receiver.mails().compactMap { $0.token(of: "verify-email") }
            try #require(tokens.count == 2)
            var answers: [HTTPResponse.Status] = []
            for token in tokens {
                answers.append(
                    try await client.call(
                        .post, "/v1/email-verification/confirm", json: #"{"token": "\#(token)"}"#
                    ).status)
            }
            #expect(answers.sorted { $0.code < $1.code } == [.ok, .unprocessableContent])
            #expect(try await client.call(.get, "/v1/profile", token: session).json["emailVerified"] as? Bool == true)
            _ = try await client.call(.post, "/v1/me/email-verification", token: session)
            #expect(try await harness.sendMail().sent == 0)
            // A reset link is no verification link.
            let wrong = try await client.call(
                .post, "/v1/email-verification/confirm", json: #"{"token": "\#(tokens[0])", "extra": 1}"#)
            #expect(wrong.status == .badRequest || wrong.status == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/me/email-verification").status == .unauthorized)
        }
    }

    @Test func theMailIsWrittenInTheAccountsLanguage() async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(configure: Self.mailing(to: receiver.port)) { harness, client in
            let registered = try await client.call(
                .post, "/v1/accounts",
                json:
                    #"{"email": "ana@example.com", "password": "correct horse", "displayName": "Ana", "timeZone": "America/Sao_Paulo", "deviceName": "phone", "language": "pt-BR"}"#
            )
            #expect(registered.status == .created)
            #expect(try await harness.sendMail().sent == 1)
            let mail = try #require(receiver.mails().first)
            #expect(mail.header("Subject")?.hasPrefix("=?UTF-8?B?") == true)
            #expect(MailSubject.decode(mail.header("Subject") ?? "") == "Confirme seu endereço de e-mail no Momentum")
            #expect(mail.text.contains("Boas-vindas ao Momentum!"))
            #expect(mail.text.contains("https://momentum.example.com/verify-email?token="))
        }
    }

    @Test func startTLSCarriesTheMailAndTheCredentials() async throws {
        let certificate = try LoopbackCertificate.make()
        let receiver = try await SMTPReceiver(security: .startTLS(certificate), user: "momentum", password: "s3cret")
        defer { receiver.stop() }
        let configure = Self.mailing(
            to: receiver.port, roots: certificate.certificatePEM, host: "localhost", user: "momentum:s3cret@")
        try await ServerHarness.with(configure: configure) { harness, client in
            _ = try await client.register("sam")
            // The receiver refuses AUTH and MAIL before STARTTLS: a mail that arrives went
            // over TLS, signed in.
            #expect(try await harness.sendMail().sent == 1)
            #expect(receiver.mails().count == 1)
        }
    }

    @Test func implicitTLSCarriesTheMail() async throws {
        let certificate = try LoopbackCertificate.make()
        let receiver = try await SMTPReceiver(security: .implicitTLS(certificate), user: "momentum", password: "s3cret")
        defer { receiver.stop() }
        let configure = Self.mailing(
            to: receiver.port, roots: certificate.certificatePEM, scheme: "smtps", host: "localhost",
            user: "momentum:s3cret@")
        try await ServerHarness.with(configure: configure) { harness, client in
            _ = try await client.register("sam")
            #expect(try await harness.sendMail().sent == 1)
            #expect(receiver.mails().count == 1)
        }
    }

    @Test func wrongCredentialsGiveTheMailUpAtOnce() async throws {
        let certificate = try LoopbackCertificate.make()
        let receiver = try await SMTPReceiver(security: .startTLS(certificate), user: "momentum", password: "s3cret")
        defer { receiver.stop() }
        let configure = Self.mailing(
            to: receiver.port, roots: certificate.certificatePEM, host: "localhost", user: "momentum:wrong@")
        try await ServerHarness.with(configure: configure) { harness, client in
            _ = try await client.register("sam")
            // 535: permanent, dropped with a log line rather than retried.
            #expect(try await harness.sendMail() == MailSender.PassReport(sent: 0, retried: 0, failed: 1))
        }
    }

    @Test func anUntrustedCertificateIsTransientAndSendsNothing() async throws {
        let certificate = try LoopbackCertificate.make()
        let receiver = try await SMTPReceiver(security: .startTLS(certificate))
        defer { receiver.stop() }
        try await ServerHarness.with(configure: Self.mailing(to: receiver.port, host: "localhost")) { harness, client in
            _ = try await client.register("sam")
            #expect(try await harness.sendMail() == MailSender.PassReport(sent: 0, retried: 1, failed: 0))
            #expect(receiver.mails().isEmpty)
        }
    }
}

/// RFC 2047 encoded words, decoded (UTF-8, base64).
enum MailSubject {
    static func decode(_ header: String) -> String {
        header.split(separator: " ").map { word -> String in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return String(word) }
            let base64 = word.dropFirst(10).dropLast(2)
            return Data(base64Encoded: String(base64)).map { String(decoding: $0, as: UTF8.self) } ?? String(word)
        }.joined()
    }
}

/// The web app's recovery pages: the sign-in page's link, the forms, no token used up by a
/// GET (a mail scanner's prefetch), no `Referer` from a page with a token in its address.
@Suite(.serialized)
struct AccountRecoveryPageTests {
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test func forgotPasswordMailsALinkWhosePageUsesItOnlyOnItsFormsPost() async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(configure: AccountRecoveryRouteTests.mailing(to: receiver.port)) {
            harness, client in
            _ = try await client.register("sam")
            let signIn = try await client.call(.get, "/signin")
            #expect(signIn.text.contains(#"href="/forgot-password""#))
            #expect(try await client.call(.get, "/forgot-password").text.contains(#"action="/forgot-password""#))
            let asked = try await client.call(
                .post, "/forgot-password", bytes: Array("email=sam%40example.com".utf8), headers: Self.form)
            #expect(asked.status == .ok)
            #expect(asked.text.contains("If an account has this address"))
            _ = try await harness.sendMail()
            let mail = try #require(
                receiver.mails().first { $0.header("Subject") == AccountRecoveryRouteTests.resetSubject })
            let token = try #require(mail.token(of: "reset-password"))
            // Opened twice (a scanner, then the person): the token is still good.
            for _ in 0..<2 {
                let page = try await client.call(.get, "/reset-password?token=\(token)")
                #expect(page.status == .ok)
                #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                #expect(page.text.contains(#"name="token" value="\#(token)""#))
            }
            let set = try await client.call(
                .post, "/reset-password", bytes: Array("token=\(token)&password=battery+staple".utf8),
                headers: Self.form)
            #expect(set.status == .ok, "\(set.text)")
            #expect(set.text.contains("Your new password is set"))
            let again = try await client.call(
                .post, "/reset-password", bytes: Array("token=\(token)&password=battery+staple".utf8),
                headers: Self.form)
            #expect(again.status == .gone)
            let signedIn = try await client.call(
                .post, "/signin", bytes: Array("email=sam%40example.com&password=battery+staple".utf8),
                headers: Self.form)
            #expect(signedIn.status == .seeOther)
        }
    }

    @Test func theVerificationPageVerifiesOnlyWhenItsButtonIsPressed() async throws {
        let receiver = try await SMTPReceiver()
        defer { receiver.stop() }
        try await ServerHarness.with(configure: AccountRecoveryRouteTests.mailing(to: receiver.port)) {
            harness, client in
            let session = try await client.register("sam")
            _ = try await harness.sendMail()
            let token = try #require(receiver.mails().first?.token(of: "verify-email"))
            let page = try await client.call(.get, "/verify-email?token=\(token)")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(try await client.call(.get, "/v1/profile", token: session).json["emailVerified"] as? Bool == false)
            let verified = try await client.call(
                .post, "/verify-email", bytes: Array("token=\(token)".utf8), headers: Self.form)
            #expect(verified.status == .ok)
            #expect(verified.text.contains("Email verified"))
            #expect(try await client.call(.get, "/v1/profile", token: session).json["emailVerified"] as? Bool == true)
        }
    }
}
