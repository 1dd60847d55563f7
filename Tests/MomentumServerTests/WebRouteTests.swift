import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import MomentumCore
@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The web app's server side: forms, the session cookie and its CSRF rules, pages and
/// static files. (What the pages do in a browser is `BrowserTests`.)
struct WebRouteTests {
    static func cookie(_ response: JSONResponse) -> String? {
        guard let header = response.headers[.setCookie], header.hasPrefix("momentum_session=") else { return nil }
        return String(header.prefix { $0 != ";" })
    }

    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test func signUpSetsAnHttpOnlyCookieThatOpensThePages() async throws {
        try await ServerHarness.with { _, client in
            let signIn = try await client.call(.get, "/")
            #expect(signIn.status == .seeOther)
            #expect(signIn.headers[.location] == "/signin")
            #expect(try await client.call(.get, "/today").headers[.location] == "/signin?next=/today")

            let page = try await client.call(.get, "/signup")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'self'") == true)
            #expect(page.text.contains("Europe/Berlin"))

            let created = try await client.call(
                .post, "/signup",
                bytes: Array(
                    "displayName=Ada&email=ada%40example.com&password=correct+horse&timeZone=Europe%2FBerlin".utf8),
                headers: Self.form)
            #expect(created.status == .seeOther, "\(created.text)")
            #expect(created.headers[.location] == "/today")
            let header = try #require(created.headers[.setCookie])
            #expect(header.contains("HttpOnly") && header.contains("SameSite=Strict"))
            let cookie = try #require(Self.cookie(created))

            let today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            #expect(today.status == .ok)
            #expect(today.text.contains("New habit"))
            for path in ["/journey", "/profile", "/memories"] {
                let response = try await client.call(.get, path, headers: [.cookie: cookie])
                #expect(response.status == .ok, "\(path)")
                #expect(response.text.contains("💎"), "\(path) has no top bar")
            }
            let profile = try await client.call(.get, "/profile", headers: [.cookie: cookie])
            #expect(profile.text.contains(#"value="Ada""#))
            #expect(try await client.call(.get, "/habits/nope", headers: [.cookie: cookie]).status == .notFound)
            // A habit made today: no streak start to name, a trend in words.
            let made = try await client.call(
                .post, "/v1/habits", json: #"{"habit": "floss", "name": "Floss"}"#,
                headers: [.cookie: cookie, HTTPField.Name("X-Momentum-Client")!: "web"])
            #expect(made.status == .created, "\(made.text)")
            let habit = try await client.call(.get, "/habits/floss", headers: [.cookie: cookie])
            #expect(habit.status == .ok)
            #expect(!habit.text.contains("current streak began"))
            #expect(habit.text.contains("trend: too few days yet to tell"))
            // Made without a category: its edit form keeps it so.
            #expect(habit.text.contains(#"<option value="" selected>No category</option>"#))

            let signedOut = try await client.call(.post, "/signout", headers: [.cookie: cookie])
            #expect(signedOut.headers[.location] == "/signin")
            #expect(signedOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(
                try await client.call(.get, "/today", headers: [.cookie: cookie]).headers[.location]
                    == "/signin?next=/today")
        }
    }

    /// A habit with an amount to reach (or stay under) shows today's total toward it and a
    /// field to add to it, instead of a Check in button; its page offers the goal to change.
    @Test func numericHabitsShowTodaysAmountTowardTheirGoal() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("nina")
            let cookie = try await client.signInCookie("nina")
            for body in [
                #"{"habit": "water", "name": "Water", "target": {"atLeast": 8, "unit": "glasses"}}"#,
                #"{"habit": "coffee", "name": "Coffee", "target": {"atMost": 2, "unit": "cups"}}"#,
                #"{"habit": "floss", "name": "Floss"}"#,
            ] {
                #expect(try await client.call(.post, "/v1/habits", token: token, json: body).status == .created)
            }
            var today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            #expect(today.text.contains("0 of 8 glasses today"))
            #expect(today.text.contains("0 of at most 2 cups today"))
            #expect(today.text.contains(#"data-action="log-amount" data-habit="water""#))
            #expect(!today.text.contains(#"data-action="log-amount" data-habit="floss""#))
            #expect(today.text.contains(#"data-action="check-in" data-habit="floss""#))
            for (habit, value) in [("water", "2.5"), ("water", "3"), ("coffee", "3")] {
                let logged = try await client.call(
                    .post, "/v1/habits/\(habit)/check-ins", token: token, json: #"{"value": \#(value)}"#)
                #expect(logged.status == .ok, "\(logged.text)")
            }
            today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            #expect(today.text.contains("5.5 of 8 glasses today"))
            #expect(today.text.contains(#"<progress max="8" value="5.5""#))
            #expect(today.text.contains("3 cups today: over the limit of 2"))
            #expect(today.text.contains(#"class="amount-progress over""#))
            let page = try await client.call(.get, "/habits/water", headers: [.cookie: cookie])
            #expect(page.text.contains("Goal: 8 glasses a day."))
            #expect(page.text.contains(#"<option value="atLeast" selected>"#))
            #expect(page.text.contains(#"name="measure" maxlength="40" value="glasses""#))
            #expect(
                [8, 8.5, 0.001, 20.001, 10.1, -3].map(WebViews.number) == ["8", "8.5", "0", "20", "10.1", "-3"])
        }
    }

    /// Today shows habits in the user's order, gathered in groups (each collapsible), with
    /// the archived ones listed at the end to bring back.
    @Test func todayShowsGroupsInOrderAndTheArchivedHabits() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("gus")
            let cookie = try await client.signInCookie("gus")
            for body in [
                #"{"habit": "stretch", "name": "Stretch", "group": "Morning routine"}"#,
                #"{"habit": "read", "name": "Read"}"#, #"{"habit": "tea", "name": "Tea", "group": "Morning routine"}"#,
                #"{"habit": "old", "name": "Old habit"}"#,
            ] {
                #expect(try await client.call(.post, "/v1/habits", token: token, json: body).status == .created)
            }
            #expect(try await client.call(.post, "/v1/habits/old/archive", token: token).status == .ok)
            let order =
                #"{"events": [{"id": "o1", "type": "order", "at": "\#(RFC3339.format(harness.now))", "tz": "Europe/Berlin", "habits": ["tea", "read", "stretch"]}]}"#
            #expect(try await client.call(.post, "/v1/events", token: token, json: order).status == .ok)
            let today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            let text = today.text
            func position(_ needle: String) -> Int {
                text.range(of: needle).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
            }
            // Read has no group and comes first; the group follows, Tea before Stretch.
            #expect(position(#"data-habit="read""#) < position(#"data-group="Morning routine""#))
            #expect(
                position(#"data-group="Morning routine""#) < position(#"data-habit="tea""#))
            #expect(position(#"data-habit="tea""#) < position(#"data-habit="stretch""#))
            #expect(text.contains(#"<summary>Morning routine <span class="muted">(2)</span></summary>"#))
            #expect(text.contains(#"data-action="move-habit" data-habit="tea" data-step="1""#))
            #expect(text.contains(#"data-action="unarchive-habit" data-habit="old""#))
            #expect(!text.contains(#"<a class="habit-name" href="/habits/old">"#))
            #expect(text.contains(#"<a href="/habits/old">Old habit</a>"#))
            #expect(text.contains(#"<option value="Morning routine">"#))
            let dashboard = try await client.call(.get, "/v1/today", token: token)
            let ids = (dashboard.json["habits"] as? [[String: Any]])?.compactMap {
                ($0["definition"] as? [String: Any])?["habit"] as? String
            }
            #expect(ids == ["tea", "read", "stretch", "old"])
            let page = try await client.call(.get, "/habits/stretch", headers: [.cookie: cookie])
            #expect(page.text.contains(#"name="group" maxlength="100" list="group-names" value="Morning routine""#))
        }
    }

    /// A browser whose account was deleted through another instance a moment ago (its
    /// session still trusted from the cache) is sent to sign in, not shown an error.
    @Test func pagesOfAnAccountDeletedElsewhereSendTheBrowserToSignIn() async throws {
        try await ServerHarness.with { harness, client in
            let created = try await client.call(
                .post, "/signup",
                bytes: Array("displayName=Bo&email=bo%40example.com&password=correct+horse&timeZone=UTC".utf8),
                headers: Self.form)
            let cookie = try #require(Self.cookie(created))
            #expect(try await client.call(.get, "/today", headers: [.cookie: cookie]).status == .ok)
            let user = try #require(try await harness.state.store.account(email: "bo@example.com")).id
            #expect(try await harness.state.store.deleteAccount(id: user))
            for path in ["/today", "/journey", "/profile", "/memories", "/habits/walk"] {
                let page = try await client.call(.get, path, headers: [.cookie: cookie])
                #expect(page.status == .seeOther, "\(path): \(page.status)")
                #expect(page.headers[.location] == "/signin?next=\(path)", "\(path)")
            }
            #expect(try await client.call(.get, "/signin", headers: [.cookie: cookie]).status == .ok)
        }
    }

    /// Plain HTTP gets a cookie without `Secure` (it could not be sent back otherwise);
    /// behind a TLS-terminating proxy (`X-Forwarded-Proto: https`) or when configured,
    /// the cookie is `Secure`, and so is the one that signs out.
    @Test func theCookieIsSecureBehindHTTPSOrWhenConfigured() async throws {
        let signUp = Array("displayName=Ada&email=ada%40example.com&password=correct+horse&timeZone=UTC".utf8)
        let signIn = Array("email=ada%40example.com&password=correct+horse".utf8)
        let forwarded = HTTPField.Name("X-Forwarded-Proto")!
        try await ServerHarness.with { _, client in
            let plain = try await client.call(.post, "/signup", bytes: signUp, headers: Self.form)
            let header = try #require(plain.headers[.setCookie])
            #expect(!header.contains("Secure"))
            var proxied = Self.form
            proxied[forwarded] = "https"
            let signedIn = try await client.call(.post, "/signin", bytes: signIn, headers: proxied)
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.headers[.setCookie]?.contains("Secure") == true)
            var notTLS = Self.form
            notTLS[forwarded] = "http"
            let overHTTP = try await client.call(.post, "/signin", bytes: signIn, headers: notTLS)
            #expect(overHTTP.headers[.setCookie]?.contains("Secure") == false)
        }
        try await ServerHarness.with(secureCookies: true) { _, client in
            let created = try await client.call(.post, "/signup", bytes: signUp, headers: Self.form)
            #expect(created.headers[.setCookie]?.contains("Secure") == true)
            let cookie = try #require(Self.cookie(created))
            let signedOut = try await client.call(.post, "/signout", headers: [.cookie: cookie])
            let cleared = try #require(signedOut.headers[.setCookie])
            #expect(cleared.contains("Max-Age=0") && cleared.contains("Secure"))
        }
    }

    @Test func badFormsReRenderWithTheErrorAndKeepWhatWasTyped() async throws {
        try await ServerHarness.with { _, client in
            _ = try await client.register("bea")
            let wrong = try await client.call(
                .post, "/signin", bytes: Array("email=bea%40example.com&password=nope".utf8), headers: Self.form)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("Wrong email or password."))
            #expect(wrong.text.contains(#"value="bea@example.com""#))
            #expect(Self.cookie(wrong) == nil)

            let short = try await client.call(
                .post, "/signup", bytes: Array("displayName=Cy&email=not-an-email&password=short".utf8),
                headers: Self.form)
            #expect(short.status == .unprocessableContent)
            #expect(
                short.text.contains(
                    "Email is not an email address. Password must be 8 to 72 characters long (accents and emoji count as more than one)."
                ))
            #expect(short.text.contains(#"value="Cy""#))
            // Every field at fault at once, the name among them.
            let nameless = try await client.call(
                .post, "/signup", bytes: Array("displayName=&email=e%40example.com&password=short".utf8),
                headers: Self.form)
            #expect(nameless.status == .unprocessableContent)
            #expect(
                nameless.text.contains(
                    "Password must be 8 to 72 characters long (accents and emoji count as more than one). Display name must have 1 to 100 characters."
                ),
                "\(nameless.text)")

            let taken = try await client.call(
                .post, "/signup", bytes: Array("displayName=B&email=bea%40example.com&password=correct+horse".utf8),
                headers: Self.form)
            #expect(taken.status == .conflict)
            #expect(taken.text.contains("sign in instead"))

            let badZone = try await client.call(
                .post, "/signup",
                bytes: Array("displayName=D&email=d%40example.com&password=correct+horse&timeZone=Mars%2FBase".utf8),
                headers: Self.form)
            #expect(badZone.status == .unprocessableContent, "\(badZone.text)")
        }
    }

    @Test func theCookieWritesOnlyWithTheAppHeaderAndFormsOnlyFromThisSite() async throws {
        try await ServerHarness.with { _, client in
            let signedUp = try await client.call(
                .post, "/signup", bytes: Array("displayName=E&email=e%40example.com&password=correct+horse".utf8),
                headers: Self.form)
            let cookie = try #require(Self.cookie(signedUp))
            #expect(try await client.call(.get, "/v1/today", headers: [.cookie: cookie]).status == .ok)

            let forged = try await client.call(
                .post, "/v1/habits", json: #"{"name": "Forged"}"#, headers: [.cookie: cookie])
            #expect(forged.status == .forbidden)
            #expect(forged.errorCode == "missing_client_header")
            let app = try await client.call(
                .post, "/v1/habits", json: #"{"name": "Real"}"#,
                headers: [.cookie: cookie, HTTPField.Name("X-Momentum-Client")!: "web"])
            #expect(app.status == .created, "\(app.text)")

            let crossSite = try await client.call(
                .post, "/signin", bytes: Array("email=e%40example.com&password=correct+horse".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded", .origin: "https://evil.example"])
            #expect(crossSite.status == .forbidden)
            #expect(Self.cookie(crossSite) == nil)
            let crossSiteOut = try await client.call(
                .post, "/signout", headers: [.cookie: cookie, .origin: "https://evil.example"])
            #expect(crossSiteOut.status == .forbidden)
            #expect(try await client.call(.get, "/v1/today", headers: [.cookie: cookie]).status == .ok)
        }
    }

    /// The 30-day chart gives each day a fixed slot, the newest at the right: a habit a day
    /// old draws one narrow bar, not one as wide as the chart.
    @Test func theChartGivesEachDayAFixedSlot() throws {
        let today = try #require(LocalDay(iso8601: "2026-11-22"))
        func points(_ count: Int) -> [DailyPoint] {
            (0..<count).map { back in
                DailyPoint(
                    day: today.advanced(by: back - count + 1), state: .completed, completed: true, rate7Days: 1)
            }
        }
        func bars(_ svg: String) -> [(x: Double, width: Double)] {
            svg.components(separatedBy: "<rect ").dropFirst().map { rect in
                func number(_ name: String) -> Double {
                    let value = rect.components(separatedBy: "\(name)=\"")[1].prefix { $0 != "\"" }
                    return Double(value) ?? .nan
                }
                return (number("x"), number("width"))
            }
        }
        let one = bars(WebViews.chart(points(1)))
        #expect(one.count == 1)
        #expect(one.first?.width == 16 && one.first?.x == 582)
        let month = bars(WebViews.chart(points(30)))
        #expect(month.count == 30)
        #expect(month.allSatisfy { $0.width == 16 })
        #expect(month.first?.x == 2)
        let labels = WebViews.chart(points(30))
        #expect(labels.contains(">24 Oct</text>") && labels.contains(">22 Nov</text>"))
        // A habit a few days old: only its last day is named, so the two never overlap.
        for count in 1...3 {
            let young = WebViews.chart(points(count))
            #expect(young.components(separatedBy: "<text ").count - 1 == 1, "\(count) days")
            #expect(young.contains(">22 Nov</text>"))
        }
    }

    /// A browser's session is named after it, so that the devices list tells them apart.
    @Test func browsersAreNamedFromTheirUserAgent() {
        let cases: [(String?, String)] = [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
                "Chrome on Linux"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
                "Safari on iPhone"
            ),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:120.0) Gecko/20100101 Firefox/120.0", "Firefox on macOS"),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0",
                "Edge on Windows"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
                "Chrome on iPhone"
            ),
            ("curl/8.5.0", "Web browser"),
            (nil, "Web browser"),
        ]
        for (agent, name) in cases {
            #expect(WebController<MomentumContext>.deviceName(userAgent: agent) == name, "\(agent ?? "none")")
        }
    }

    /// A browser that asks for an address with nothing at it gets a page, and an API
    /// client the JSON error.
    @Test func unknownAddressesGiveBrowsersAPage() async throws {
        try await ServerHarness.with { _, client in
            let page = try await client.call(.get, "/nope", headers: [.accept: "text/html,application/xhtml+xml"])
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<h1>Not found</h1>") && page.text.contains(#"href="/""#))
            let api = try await client.call(.get, "/v1/nope", headers: [.accept: "text/html"])
            #expect(api.status == .notFound && api.errorCode == "not_found")
            let json = try await client.call(.get, "/nope")
            #expect(json.status == .notFound && json.errorCode == "not_found")
        }
    }

    @Test func staticFilesHaveTheirTypes() async throws {
        try await ServerHarness.with { _, client in
            let script = try await client.call(.get, "/static/app.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("EventSource"))
            #expect(try await client.call(.get, "/static/app.css").headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.call(.get, "/static/nope.js").status == .notFound)
            #expect(try await client.call(.get, "/static/..%2FResources%2Fopenapi.json").status == .notFound)
        }
    }

    /// The script is modules by page or concern, with no build step: every module an import
    /// names is served, the page preloads each one (so the browser fetches them at once, not
    /// one import after another), and none grows past about 400 lines.
    @Test func theScriptsModulesAreServedPreloadedAndSmall() async throws {
        try await ServerHarness.with { _, client in
            let page = try await client.call(.get, "/signin").text
            let preloaded = Set(
                page.matches(of: /<link rel="modulepreload" href="\/static\/([\w-]+\.js)">/).map { String($0.1) })
            #expect(page.contains(#"<script type="module" src="/static/app.js"></script>"#))
            var seen: Set<String> = []
            var queue = ["app.js"]
            while let name = queue.popLast() {
                guard seen.insert(name).inserted else { continue }
                let module = try await client.call(.get, "/static/\(name)")
                #expect(module.status == .ok, "\(name) is imported but not served")
                #expect(module.headers[.contentType] == "text/javascript; charset=utf-8")
                let lines = module.text.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(lines <= 400, "\(name) has \(lines) lines")
                if name != "app.js" { #expect(preloaded.contains(name), "\(name) is imported but not preloaded") }
                queue += module.text.matches(of: /from '\.\/([\w-]+\.js)'/).map { String($0.1) }
            }
            #expect(preloaded.isSubset(of: seen), "preloaded but never imported: \(preloaded.subtracting(seen))")
            #expect(seen.count > 10)
        }
    }
}

/// The social pages render for the people who may see them, and an invitation's link
/// survives signing in.
struct SocialPageTests {
    @Test func anInvitationLinkComesBackAfterSigningInAndThePagesRender() async throws {
        try await ServerHarness.with { _, client in
            let ada = try await client.person("ada", pack: "habits+ollie")
            let invitation = try await client.call(.post, "/v1/invitations", token: ada.token, json: "{}")
            let code = try #require(invitation.json["code"] as? String)
            // Bob opens the link signed out, signs up, and is back at the invitation.
            let link = try await client.call(.get, "/invitations/\(code)")
            #expect(link.headers[.location] == "/signin?next=/invitations/\(code)")
            let signUp = try await client.call(
                .post, "/signup",
                headers: WebRouteTests.form,
                body:
                    "displayName=Bob&email=bob%40example.com&password=correct+horse&timeZone=UTC&next=%2Finvitations%2F\(code)"
            )
            #expect(signUp.headers[.location] == "/invitations/\(code)", "\(signUp.text)")
            let cookie = try #require(WebRouteTests.cookie(signUp))
            let page = try await client.call(.get, "/invitations/\(code)", headers: [.cookie: cookie])
            #expect(page.status == .ok && page.text.contains("Ada invites you to be friends"), "\(page.text)")
            // Another site's address is never where signing in leads.
            let away = try await client.call(
                .post, "/signin", headers: WebRouteTests.form,
                body: "email=bob%40example.com&password=correct+horse&next=%2F%2Fevil.example%2F")
            #expect(away.headers[.location] == "/today")
            for path in ["/friends", "/feed", "/packs/ollie"] {
                let cookieAda = try await client.signInCookie("ada")
                let rendered = try await client.call(.get, path, headers: [.cookie: cookieAda])
                #expect(rendered.status == .ok, "\(path): \(rendered.text.prefix(300))")
            }
            let stranger = try await client.call(.get, "/friends/\(ada.id)", headers: [.cookie: cookie])
            #expect(stranger.status == .notFound)
            let family = try await client.call(.get, "/families/\(ada.id)/ollie", headers: [.cookie: cookie])
            #expect(family.status == .notFound)
        }
    }
}

extension TestClientProtocol {
    /// Signs a test user in through the web form and returns the session cookie.
    func signInCookie(_ name: String) async throws -> String {
        let response = try await call(
            .post, "/signin", headers: WebRouteTests.form, body: "email=\(name)%40example.com&password=correct+horse")
        return WebRouteTests.cookie(response) ?? ""
    }

    /// A request with a raw body.
    func call(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: String
    ) async throws -> JSONResponse {
        try await call(method, uri, bytes: Array(body.utf8), headers: headers)
    }
}
