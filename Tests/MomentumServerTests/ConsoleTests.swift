import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The console's shell: signing in and out through the form, the session cookie, the
/// redirect without a session, the role's navigation and its 403 page (recorded), the
/// forms' CSRF and origin checks, the hosts it answers on, its security headers, and the
/// Operators and Audit log pages. On SQLite and PostgreSQL.
struct ConsoleTests {
    typealias Backend = ServerHarness.Backend

    @Test(arguments: Backend.allCases)
    func operatorsSignInThroughTheFormAndOut(_ backend: Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            // Without a session, a page sends the browser to sign in and back.
            let root = try await client.call(.get, "/console")
            #expect(root.status == .seeOther)
            #expect(root.headers[.location] == "/console/sign-in?next=%2Fconsole")
            let away = try await client.call(.get, "/console/operators?before=x")
            #expect(away.status == .seeOther)
            #expect(away.headers[.location] == "/console/sign-in?next=%2Fconsole%2Foperators%3Fbefore%3Dx")

            // A wrong password and an unknown email get one message, and no session.
            let owner = try await ConsoleSession.add(.owner, harness: harness)
            for (email, password) in [(owner.email, "not the password"), ("nobody@example.com", "whatever it is")] {
                let (cookie, token) = try await ConsoleSession.signInForm(client)
                let refused = try await client.call(
                    .post, "/console/sign-in",
                    headers: [
                        .contentType: "application/x-www-form-urlencoded", .cookie: cookie,
                        .origin: ConsoleSession.origin,
                    ],
                    body: ConsoleSession.encode(["email": email, "password": password, "csrf": token]))
                #expect(refused.status == .unauthorized)
                #expect(refused.text.contains(ConsoleController<MomentumContext>.signInRefused))
                #expect(ConsoleSession.cookie("momentum_console", in: refused) == nil)
            }

            let session = try await ConsoleSession.signIn(owner, password: ConsoleSession.password, client: client)
            // Signed in, the console opens on the first section the role may see.
            let home = try await session.get("/console")
            #expect(home.status == .seeOther)
            #expect(home.headers[.location]?.hasPrefix("/console/") == true)
            let page = try await session.get("/console/operators")
            #expect(page.status == .ok)
            #expect(page.text.contains(owner.email))
            #expect(page.text.contains("Sign out"))

            let out = try await session.post("/console/sign-out")
            #expect(out.status == .seeOther)
            #expect(out.headers[.location] == "/console/sign-in")
            #expect(
                out.headers[values: .setCookie].contains {
                    $0.hasPrefix("momentum_console=;") && $0.contains("Max-Age=0")
                })
            // The session ended on the server: its cookie opens nothing.
            let after = try await session.get("/console/operators")
            #expect(after.status == .seeOther)
            #expect(after.headers[.location]?.hasPrefix("/console/sign-in") == true)
        }
    }

    /// The session cookie: HttpOnly, SameSite=Strict, only sent to /console; Secure when
    /// configured so.
    @Test func theSessionCookieStaysInTheConsole() async throws {
        try await ServerHarness.with(secureCookies: true) { harness, client in
            let owner = try await ConsoleSession.add(.owner, harness: harness)
            let (cookie, token) = try await ConsoleSession.signInForm(client)
            let response = try await client.call(
                .post, "/console/sign-in",
                headers: [
                    .contentType: "application/x-www-form-urlencoded", .cookie: cookie, .origin: "https://localhost",
                ],
                body: ConsoleSession.encode([
                    "email": owner.email, "password": ConsoleSession.password, "csrf": token,
                    "next": "/console/audit",
                ]))
            #expect(response.status == .seeOther, "\(response.text)")
            #expect(response.headers[.location] == "/console/audit")
            let header = try #require(
                response.headers[values: .setCookie].first { $0.hasPrefix("momentum_console=mop_") })
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/console", "Secure"] {
                #expect(header.contains(attribute), "\(header)")
            }
        }
    }

    /// A form past the console's bound is refused before it is read through; a sign-in's
    /// `next` is followed only within the console.
    @Test func oversizedFormsAndForeignNextAddressesAreRefused() async throws {
        try await ServerHarness.with { harness, client in
            let operators = harness.state.services.operators
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            let before = try await operators.list()
            let huge = try await owner.post(
                "/console/operators",
                ["email": "big@example.com", "name": String(repeating: "n", count: 70_000), "role": "viewer"])
            #expect(huge.status == .contentTooLarge)
            #expect(try await operators.list() == before)

            for next in ["https://evil.example/", "//evil.example/console", "/today", "/console/sign-in"] {
                let (cookie, token) = try await ConsoleSession.signInForm(client)
                let response = try await client.call(
                    .post, "/console/sign-in",
                    headers: [
                        .contentType: "application/x-www-form-urlencoded", .cookie: cookie,
                        .origin: ConsoleSession.origin,
                    ],
                    body: ConsoleSession.encode([
                        "email": owner.actor.email, "password": ConsoleSession.password, "csrf": token, "next": next,
                    ]))
                #expect(response.status == .seeOther)
                let location = try #require(response.headers[.location])
                #expect(location.hasPrefix("/console/") && !location.hasPrefix("/console/sign-in"), "\(next)")
            }
        }
    }

    /// The sign-in form is a form like the others: without its own token, or from another
    /// site, it signs no one in.
    @Test(arguments: Backend.allCases)
    func theSignInFormNeedsItsTokenAndOrigin(_ backend: Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let owner = try await ConsoleSession.add(.owner, harness: harness)
            let (cookie, token) = try await ConsoleSession.signInForm(client)
            let fields = ["email": owner.email, "password": ConsoleSession.password]
            let attempts: [(HTTPFields, [String: String])] = [
                ([.origin: ConsoleSession.origin], fields.merging(["csrf": token]) { $1 }),
                ([.cookie: cookie, .origin: ConsoleSession.origin], fields),
                ([.cookie: cookie, .origin: ConsoleSession.origin], fields.merging(["csrf": "mcf_other"]) { $1 }),
                ([.cookie: cookie, .origin: "https://evil.example"], fields.merging(["csrf": token]) { $1 }),
                ([.cookie: cookie], fields.merging(["csrf": token]) { $1 }),
            ]
            for (headers, form) in attempts {
                var headers = headers
                headers[.contentType] = "application/x-www-form-urlencoded"
                let refused = try await client.call(
                    .post, "/console/sign-in", headers: headers, body: ConsoleSession.encode(form))
                #expect(refused.status == .forbidden, "\(headers)")
                #expect(ConsoleSession.cookie("momentum_console", in: refused) == nil)
            }
            let signIns = try await harness.state.services.operators.auditLog(
                AuditQuery(actionPrefix: "operator.signed_in"))
            #expect(signIns.entries.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aViewerIsRefusedTheAddFormAndTheAttemptIsRecorded(_ backend: Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let operators = harness.state.services.operators
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let before = try await operators.list()

            // The page lists operators but offers the viewer no form.
            let page = try await viewer.get("/console/operators")
            #expect(page.status == .ok)
            #expect(!page.text.contains("Add an operator"))
            // The navigation shows what the role may open: no audit log for a viewer.
            #expect(page.text.contains(#"href="/console/operators" aria-current="page""#))
            #expect(!page.text.contains(#"href="/console/audit""#))

            let refused = try await viewer.post(
                "/console/operators",
                ["email": "new@example.com", "name": "New", "role": "owner", "password": ConsoleSession.password])
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("Not allowed"))
            #expect(refused.text.contains("operator_role_forbidden"))
            #expect(refused.text.contains(#"class="console-nav""#), "the 403 page is in the layout")
            #expect(try await operators.list() == before)

            let denied = try await operators.auditLog(AuditQuery(operatorID: viewer.actor.id))
            #expect(denied.entries.contains { $0.action == "operator.added" && $0.outcome == .denied })

            // A page the role may not open: the same 403, recorded.
            let audit = try await viewer.get("/console/audit")
            #expect(audit.status == .forbidden)
            let after = try await operators.auditLog(AuditQuery(operatorID: viewer.actor.id))
            #expect(after.entries.contains { $0.action == "permission.viewAudit" && $0.outcome == .denied })
        }
    }

    /// A form without the session's token, with another, or posted from another origin
    /// (or from nowhere) is refused with 403 before anything happens, the audit log included.
    @Test(arguments: Backend.allCases)
    func formsWithoutTheirTokenOrFromElsewhereChangeNothing(_ backend: Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let operators = harness.state.services.operators
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            let fields = [
                "email": "new@example.com", "name": "New", "role": "viewer", "password": ConsoleSession.password,
            ]
            let before = try await operators.list()
            let refusals: [(String, JSONResponse)] = [
                ("no token", try await owner.post("/console/operators", fields.merging(["csrf": ""]) { $1 })),
                (
                    "another token",
                    try await owner.post("/console/operators", fields.merging(["csrf": "x" + owner.csrf]) { $1 })
                ),
                ("another origin", try await owner.post("/console/operators", fields, origin: "https://evil.example")),
                ("a null origin", try await owner.post("/console/operators", fields, origin: "null")),
                ("no origin", try await owner.post("/console/operators", fields, origin: nil)),
                (
                    "another site's page",
                    try await owner.post(
                        "/console/operators", fields, origin: nil, headers: [.referer: "https://evil.example/console"])
                ),
            ]
            for (what, response) in refusals {
                #expect(response.status == .forbidden, "\(what)")
                #expect(response.text.contains(#"class="console-nav""#), "\(what)")
            }
            #expect(try await operators.list() == before)
            #expect(try await operators.auditLog(AuditQuery(actionPrefix: "operator.added")).entries.isEmpty)

            // From the console's own page (a browser that sends only the Referer), it works.
            let added = try await owner.post(
                "/console/operators", fields, origin: nil, headers: [.referer: "http://localhost/console/operators"])
            #expect(added.status == .seeOther, "\(added.text)")
            #expect(try await operators.list().count == before.count + 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func ownersAddChangeAndDisableOperators(_ backend: Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let operators = harness.state.services.operators
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            let support = try await ConsoleSession.signIn(.support, harness: harness, client: client)

            let added = try await owner.post(
                "/console/operators",
                ["email": "Ada@Example.com", "name": "Ada", "role": "viewer", "password": ConsoleSession.password])
            #expect(added.status == .seeOther)
            #expect(added.headers[.location]?.hasPrefix("/console/operators?notice=ada%40example.com") == true)
            let shown = try await owner.get(try #require(added.headers[.location]))
            #expect(shown.text.contains(#"<p class="notice" role="status">ada@example.com was added as viewer.</p>"#))
            #expect(shown.text.contains("Add an operator"))

            // A refusal of the service is shown in the layout with its reasons.
            let short = try await owner.post(
                "/console/operators",
                ["email": "bob@example.com", "name": "Bob", "role": "viewer", "password": "short"])
            #expect(short.status == .unprocessableContent)
            #expect(short.text.contains("password"))
            let unknownRole = try await owner.post(
                "/console/operators",
                ["email": "bob@example.com", "name": "Bob", "role": "root", "password": ConsoleSession.password])
            #expect(unknownRole.status == .unprocessableContent)

            let ada = try #require(try await operators.find(email: "ada@example.com"))
            let promoted = try await owner.post("/console/operators/\(ada.id)", ["role": "support"])
            #expect(promoted.status == .seeOther)
            #expect(try await operators.find(email: "ada@example.com")?.role == .support)

            // Disabling ends the operator's console session at once.
            #expect(try await support.get("/console/operators").status == .ok)
            let disabled = try await owner.post("/console/operators/\(support.actor.id)", ["disabled": "true"])
            #expect(disabled.status == .seeOther)
            #expect(try await support.get("/console/operators").status == .seeOther)
            let enabled = try await owner.post("/console/operators/\(support.actor.id)", ["disabled": "false"])
            #expect(enabled.status == .seeOther)
            #expect(try await operators.find(email: support.actor.email)?.disabled == false)

            let recorded = try await operators.auditLog(
                AuditQuery(operatorID: owner.actor.id, actionPrefix: "operator."))
            #expect(recorded.entries.filter { $0.action == "operator.updated" && $0.outcome == .done }.count == 3)
        }
    }

    @Test(arguments: Backend.allCases)
    func theAuditLogFiltersAndPagesNewestFirst(_ backend: Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let operators = harness.state.services.operators
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            _ = try await viewer.post("/console/operators", ["email": "x@example.com", "name": "X", "role": "owner"])
            for index in 0..<60 {
                harness.clock.value.withLock { $0 += 1 }
                try await operators.record(
                    owner.actor, action: "user.looked_up", user: "u_\(index)", detail: "", outcome: .done)
            }
            let first = try await owner.get("/console/audit?action=user.looked_up")
            #expect(first.status == .ok)
            #expect(first.text.contains("<code>u_59</code>"))
            #expect(!first.text.contains("<code>u_9</code>"))
            #expect(first.text.range(of: "u_59")!.lowerBound < first.text.range(of: "u_58")!.lowerBound)
            let older = try #require(Self.link("Older entries", in: first.text))
            #expect(older.contains("action=user.looked_up"))
            let second = try await owner.get(older)
            #expect(second.text.contains("<code>u_9</code>"))
            #expect(!second.text.contains("<code>u_10</code>"))
            #expect(Self.link("Older entries", in: second.text) == nil)

            // By user, and by operator: the viewer's refused attempt is marked.
            let byUser = try await owner.get("/console/audit?user=u_7")
            #expect(byUser.text.components(separatedBy: "<code>u_7</code>").count == 2)
            let byViewer = try await owner.get("/console/audit?operator=\(viewer.actor.id)")
            #expect(byViewer.text.contains(#"<tr class="denied">"#))
            #expect(byViewer.text.contains(#"<span class="badge denied">denied</span>"#))
            #expect(!byViewer.text.contains("user.looked_up"))
        }
    }

    /// With `console.hosts` set, the console answers only there: every console path is 404
    /// on another host; off, it is not there at all.
    @Test func theConsoleAnswersOnlyOnItsHosts() async throws {
        let paths = ["/console", "/console/sign-in", "/console/operators", "/console/console.css"]
        let elsewhere = try await ServerHarness.with(configure: { $0.console.hosts = ["console.example.com"] }) {
            _, client in
            var statuses: [HTTPResponse.Status] = []
            for path in paths { statuses.append(try await client.call(.get, path).status) }
            statuses.append(try await client.call(.post, "/console/sign-in", headers: [:], body: "").status)
            return statuses
        }
        #expect(elsewhere == Array(repeating: .notFound, count: paths.count + 1))
        // The router test client's requests come to `localhost`.
        let here = try await ServerHarness.with(configure: { $0.console.hosts = ["console.example.com", "LOCALHOST"] })
        {
            _, client in
            try await client.call(.get, "/console/sign-in").status
        }
        #expect(here == .ok)
        let off = try await ServerHarness.with(configure: { $0.console.enabled = false }) { _, client in
            var statuses: [HTTPResponse.Status] = []
            for path in paths { statuses.append(try await client.call(.get, path).status) }
            return statuses
        }
        #expect(off == Array(repeating: .notFound, count: paths.count))
    }

    /// Forms are accepted only from the configured origins, when some are.
    @Test func formsComeOnlyFromTheConfiguredOrigins() async throws {
        try await ServerHarness.with(configure: { $0.console.origins = ["https://console.example.com"] }) {
            harness, client in
            let owner = try await ConsoleSession.add(.owner, harness: harness)
            for (origin, status) in [
                (ConsoleSession.origin, HTTPResponse.Status.forbidden), ("https://console.example.com", .seeOther),
            ] {
                let (cookie, token) = try await ConsoleSession.signInForm(client)
                let response = try await client.call(
                    .post, "/console/sign-in",
                    headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie, .origin: origin],
                    body: ConsoleSession.encode([
                        "email": owner.email, "password": ConsoleSession.password, "csrf": token,
                    ]))
                #expect(response.status == status, "\(origin)")
            }
        }
    }

    @Test func everyConsoleAnswerCarriesTheSecurityHeaders() async throws {
        try await ServerHarness.with { harness, client in
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let answers = [
                try await client.call(.get, "/console/sign-in"),
                try await client.call(.get, "/console/operators"),
                try await client.call(.get, "/console/console.css"),
                try await viewer.get("/console/operators"),
                try await viewer.get("/console/audit"),
                try await viewer.post("/console/operators", [:], origin: "https://evil.example"),
            ]
            for answer in answers {
                #expect(answer.headers[.cacheControl] == "no-store")
                #expect(
                    answer.headers[.contentSecurityPolicy]
                        == "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
                )
                #expect(answer.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
                #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            }
            #expect(answers[2].headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    /// The `href` of the link with `text`, its entities decoded.
    static func link(_ text: String, in html: String) -> String? {
        guard let end = html.range(of: "\">\(text)</a>") else { return nil }
        guard let start = html[..<end.lowerBound].range(of: "href=\"", options: .backwards) else { return nil }
        return String(html[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&amp;", with: "&")
    }
}
