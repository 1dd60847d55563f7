import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// The console's HTML around each page: the header (who is signed in, signing out), the
/// navigation of the sections the operator's role may open, the notice of the last form.
enum ConsoleLayout {
    /// What every console answer carries: never stored, no framing, no script, no other
    /// site's styles or forms, no address leaked to another site.
    static let securityHeaders: HTTPFields = [
        .cacheControl: "no-store",
        .contentSecurityPolicy:
            "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
    ]

    /// The stylesheet's address (served by ``ConsoleController``).
    static let stylesheet = "/console/console.css"

    /// `page` in the layout, for `actor`, with `navigation`'s sections (those `actor` may
    /// open), `section` marked as the current one.
    static func page(
        _ page: ConsolePage, section: ConsoleSection?, navigation: [ConsoleSection], actor: OperatorActor,
        csrf: String, notice: String?
    ) -> Response {
        let items = navigation.map { item -> ConsoleHTML in
            let current: ConsoleHTML = item == section ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(item.path)\"\(current)>\(item.title)</a></li>"
        }
        let notice: ConsoleHTML = notice.map { "<p class=\"notice\" role=\"status\">\($0)</p>" } ?? ""
        let heading: ConsoleHTML =
            page.body.html.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<h1")
            ? "" : "<h1>\(page.title)</h1>"
        let body: ConsoleHTML = """
            <a class="skip" href="#main">Skip to content</a>
            <header class="console-header">
            <a class="brand" href="/console">Momentum <span>Console</span></a>
            <div class="who"><span>\(actor.email)</span> <span class="badge \(actor.role.rawValue)">\(actor.role.rawValue)</span>
            <form method="post" action="/console/sign-out">\(csrfField(csrf))<button type="submit">Sign out</button></form></div>
            </header>
            <div class="console">
            <nav class="console-nav" aria-label="Console"><ul>\(ConsoleHTML(joining: items))</ul></nav>
            <main id="main" class="console-main">\(notice)\(heading)\(page.body)</main>
            </div>
            """
        return document(title: page.title, bodyClass: nil, body, status: page.status)
    }

    /// A whole document with the console's stylesheet.
    static func document(
        title: String, bodyClass: String?, _ body: ConsoleHTML, status: HTTPResponse.Status,
        headers: HTTPFields = [:]
    ) -> Response {
        let bodyAttributes: ConsoleHTML = bodyClass.map { " class=\"\($0)\"" } ?? ""
        let html: ConsoleHTML = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <title>\(title) · Momentum Console</title>
            <link rel="stylesheet" href="\(stylesheet)">
            </head>
            <body\(bodyAttributes)>
            \(body)
            </body></html>
            """
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: html.html)))
    }

    /// A refusal outside the layout (no operator known yet): its message and code, and the
    /// way back to the console.
    static func problem(_ error: ServiceError, status: HTTPResponse.Status) -> Response {
        let body: ConsoleHTML = """
            <main class="sign-in"><section class="panel" role="alert">
            <h1>Momentum Console</h1>
            <p class="error">\(error.message)</p><p class="muted"><code>\(error.code)</code></p>
            <p><a href="/console">Back to the console</a></p>
            </section></main>
            """
        return document(title: "Not done", bodyClass: nil, body, status: status)
    }

    /// The hidden field that carries a form's CSRF token.
    static func csrfField(_ csrf: String) -> ConsoleHTML {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
    }

    /// The sign-in page: email and password, the form's token, where to go next.
    static func signIn(
        csrf: String, next: String?, email: String, error: String?, status: HTTPResponse.Status,
        headers: HTTPFields
    ) -> Response {
        let error: ConsoleHTML = error.map { "<p class=\"error\" role=\"alert\">\($0)</p>" } ?? ""
        let next: ConsoleHTML = next.map { "<input type=\"hidden\" name=\"next\" value=\"\($0)\">" } ?? ""
        let body: ConsoleHTML = """
            <main class="sign-in"><section class="panel" aria-labelledby="sign-in-title">
            <h1 id="sign-in-title">Momentum Console</h1>
            <p class="muted">Sign in with your operator account.</p>
            \(error)
            <form class="stack" method="post" action="/console/sign-in">
            \(csrfField(csrf))\(next)
            <label>Email <input type="email" name="email" value="\(email)" autocomplete="username" required autofocus></label>
            <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
            <button class="primary" type="submit">Sign in</button>
            </form>
            </section></main>
            """
        return document(title: "Sign in", bodyClass: nil, body, status: status, headers: headers)
    }

    /// A date and time as the console shows it: `2026-07-14 03:33 UTC`, in a `<time>`.
    static func time(_ date: Date) -> ConsoleHTML {
        let iso = ISO8601DateFormatter().string(from: date)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return "<time datetime=\"\(iso)\">\(formatter.string(from: date))</time>"
    }

    /// A percent-encoded query value.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? ""
    }
}
