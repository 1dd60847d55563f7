import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The console's users section: a search form (by id, email or an app's user id; nothing
/// is ever listed), one user's page (everything ``UserLookup/read(_:)`` answers, the last
/// 5 weeks of each habit as a grid whose days explain themselves), a habit's days in
/// words, and the grant form for roles that may grant.
///
/// Every page that shows a user is a look-up, recorded in the audit log (`user.viewed`,
/// for the path's user); a search is recorded as `user.lookup`, a miss too.
extension ConsoleRoutes {
    func addUserPages(services: Services) {
        let lookup = services.userLookup
        let grants = services.grants
        page("users", .viewUsers, section: .users) { request in
            .page(ConsolePage(title: "Users", body: ConsoleUserViews.search(query: request.query, missed: false)))
        }
        page("users/find", .viewUsers, section: .users, action: "user.lookup") { request in
            guard let key = ConsoleUserViews.key(request.query) else {
                throw ServiceError.invalid("give a user id, an email or an app's user id", field: "q")
            }
            do {
                let found = try await lookup.find(key)
                return .redirect(to: ConsoleUserViews.path(found.id), notice: nil)
            } catch let error as ServiceError where error.kind == .notFound {
                var page = ConsolePage(
                    title: "Users", body: ConsoleUserViews.search(query: request.query, missed: true))
                page.status = .notFound
                return .page(page)
            }
        }
        page("users/:user", .viewUsers, section: .users, action: "user.viewed") { request in
            let record = try await lookup.read(try request.parameter("user"))
            let body = ConsoleUserViews.user(
                record, canGrant: request.actor.role.allows(.grantRewards), csrf: request.csrfField,
                grantKey: UUID().uuidString.lowercased())
            return .page(ConsolePage(title: record.summary.displayName, body: body))
        }
        page("users/:user/habits/:habit", .viewUsers, section: .users, action: "user.viewed") { request in
            let record = try await lookup.read(try request.parameter("user"))
            let id = try request.parameter("habit")
            guard let habit = record.habits.first(where: { $0.id == id }) else {
                throw ServiceError.notFound("habit '\(id.prefix(64))'")
            }
            return .page(
                ConsolePage(
                    title: "\(habit.name) — \(record.summary.displayName)",
                    body: ConsoleUserViews.habit(habit, of: record)))
        }
        form("users/:user/grants", .grantRewards, section: .users, action: "user.granted") { request in
            let user = try request.parameter("user")
            let granted = try await grants.grant(
                user: user, diamonds: try ConsoleUserViews.amount(request.form, "diamonds"),
                freezes: try ConsoleUserViews.amount(request.form, "freezes"), reason: request.form["reason"] ?? "",
                by: request.actor, key: request.form["key"].flatMap { $0.isEmpty ? nil : $0 })
            let notice =
                granted.replayed
                ? "That grant was already given."
                : "Granted. The wallet now holds \(granted.wallet.diamonds) diamonds and \(granted.wallet.freezes) freezes."
            return .redirect(to: ConsoleUserViews.path(user), notice: notice)
        }
    }
}

/// The HTML of the users section.
enum ConsoleUserViews {
    static func path(_ user: String) -> String {
        "/console/users/"
            + (user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/")))
                ?? "")
    }

    /// What the search form asks for: `q` (an id, or an email when it has an `@`), or
    /// `appUser` with its `app`.
    static func key(_ query: [String: String]) -> UserLookup.Key? {
        if let appUser = query["appUser"]?.trimmingCharacters(in: .whitespaces), !appUser.isEmpty {
            let app = query["app"]?.trimmingCharacters(in: .whitespaces) ?? ""
            return .appUser(app: app.isEmpty ? "default" : app, id: appUser)
        }
        guard let q = query["q"]?.trimmingCharacters(in: .whitespaces), !q.isEmpty else { return nil }
        return q.contains("@") ? .email(q) : .id(q)
    }

    /// A whole number of a form (0 when empty).
    static func amount(_ form: [String: String], _ field: String) throws -> Int {
        let text = (form[field] ?? "").trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return 0 }
        guard let number = Int(text) else { throw ServiceError.invalid("\(field) is a whole number", field: field) }
        return number
    }

    static func instant(_ date: Date?) -> String {
        guard let date else { return "—" }
        return date.ISO8601Format()
    }

    static func search(query: [String: String], missed: Bool) -> ConsoleHTML {
        let miss: ConsoleHTML =
            missed
            ? "<p role=\"status\">No user matches. Nothing is listed: give an exact id, email or app user id.</p>" : ""
        return """
            <h1>Users</h1>
            <p>Find one user by their exact id or email, or by an app's own id for them. Opening a user is recorded in the audit log.</p>
            \(miss)
            <form method="get" action="/console/users/find" class="search">
            <label for="q">User id or email</label>
            <input id="q" name="q" type="search" autocomplete="off" value="\(query["q"] ?? "")">
            <button type="submit">Find</button>
            </form>
            <form method="get" action="/console/users/find" class="search">
            <label for="app">App</label>
            <input id="app" name="app" autocomplete="off" placeholder="default" value="\(query["app"] ?? "")">
            <label for="appUser">App's user id</label>
            <input id="appUser" name="appUser" autocomplete="off" value="\(query["appUser"] ?? "")">
            <button type="submit">Find</button>
            </form>
            """
    }

    static func user(_ record: ConsoleUserRecord, canGrant: Bool, csrf: ConsoleHTML, grantKey: String) -> ConsoleHTML {
        let summary = record.summary
        let app: ConsoleHTML =
            summary.appUserID.map { (id: String) -> ConsoleHTML in
                "<dt>App user</dt><dd>\(summary.app ?? "default") / \(id)</dd>"
            } ?? ""
        return """
            <h1>\(summary.displayName)</h1>
            <section aria-labelledby="profile"><h2 id="profile">Profile</h2>
            <dl>
            <dt>User id</dt><dd><code>\(summary.id)</code></dd>
            <dt>Email</dt><dd>\(summary.email ?? "—")</dd>
            \(app)
            <dt>Time zone</dt><dd>\(summary.timeZone)</dd>
            <dt>Day starts</dt><dd>\(summary.dayStartHour):00</dd>
            <dt>Packs</dt><dd>\(summary.packs.joined(separator: ", "))</dd>
            <dt>Language</dt><dd>\(summary.language ?? "—")</dd>
            <dt>Created</dt><dd>\(instant(summary.createdAt))</dd>
            <dt>Today</dt><dd>\(record.today.description)</dd>
            </dl></section>
            \(habits(record))
            \(wallet(record, canGrant: canGrant, csrf: csrf, grantKey: grantKey))
            \(unlocks(record))
            \(devices(record))
            \(deliveries(record))
            \(flags(record))
            """
    }

    static func habits(_ record: ConsoleUserRecord) -> ConsoleHTML {
        guard !record.habits.isEmpty else {
            return "<section aria-labelledby=\"habits\"><h2 id=\"habits\">Habits</h2><p>No habits.</p></section>"
        }
        let rows = record.habits.map { habit -> ConsoleHTML in
            let cells = habit.days.map { day -> ConsoleHTML in
                "<td class=\"day day-\(day.state.rawValue)\" title=\"\(day.day.description): \(day.detail)\">\(symbol(day.state))</td>"
            }
            let link =
                path(record.summary.id) + "/habits/"
                + (habit.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            return """
                <tr><th scope="row"><a href="\(link)">\(habit.name)</a>\(habit.archived ? " (archived)" as String : "")</th>
                <td>\(habit.current)</td><td>\(habit.best)</td><td>\(habit.today.rawValue)</td>
                <td><table class="calendar" aria-label="\(habit.name): the last 5 weeks"><tr>\(ConsoleHTML(joining: cells))</tr></table></td></tr>
                """
        }
        return """
            <section aria-labelledby="habits"><h2 id="habits">Habits</h2>
            <p>Each day of the last 5 weeks, oldest first; hover a day for the engine's reason, or open a habit for every day in words.</p>
            <table><thead><tr><th scope="col">Habit</th><th scope="col">Current streak</th><th scope="col">Longest</th>
            <th scope="col">Today</th><th scope="col">Last 5 weeks</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></section>
            """
    }

    /// A day's mark in the grid (its state is also its class and, in words, its title).
    static func symbol(_ state: DayState) -> String {
        switch state.rawValue {
        case "completed": "✓"
        case "grace": "g"
        case "frozen": "❄"
        case "missed": "✗"
        case "skipped": "s"
        case "paused": "p"
        case "covered": "c"
        case "notDue": "·"
        case "pending": "…"
        default: " "
        }
    }

    static func habit(_ habit: ConsoleUserRecord.Habit, of record: ConsoleUserRecord) -> ConsoleHTML {
        let rows = habit.days.reversed().map { day -> ConsoleHTML in
            """
            <tr><th scope="row">\(day.day.description)</th><td>\(day.state.rawValue)</td><td>\(day.detail)</td>
            <td>\(day.events.joined(separator: ", "))</td></tr>
            """
        }
        return """
            <p><a href="\(path(record.summary.id))">← \(record.summary.displayName)</a></p>
            <h1>\(habit.name)</h1>
            <p>Current streak \(habit.current), longest \(habit.best). The last 5 weeks, newest first, as the engine explains them.</p>
            <table><thead><tr><th scope="col">Day</th><th scope="col">State</th><th scope="col">Why</th>
            <th scope="col">Events</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table>
            """
    }

    static func wallet(_ record: ConsoleUserRecord, canGrant: Bool, csrf: ConsoleHTML, grantKey: String) -> ConsoleHTML
    {
        let rows = record.ledger.map { entry -> ConsoleHTML in
            """
            <tr><td>\(entry.day.description)</td><td>\(entry.source.rawValue)</td><td>\(entry.diamonds)</td>
            <td>\(entry.freezes)</td><td>\(entry.reason)</td></tr>
            """
        }
        let form: ConsoleHTML =
            canGrant
            ? """
            <form method="post" action="\(path(record.summary.id))/grants" class="grant">
            \(csrf)<input type="hidden" name="key" value="\(grantKey)">
            <label for="diamonds">Diamonds</label><input id="diamonds" name="diamonds" type="number" min="0" max="\(Grant.maximumDiamonds)" value="0">
            <label for="freezes">Freezes</label><input id="freezes" name="freezes" type="number" min="0" max="\(Grant.maximumFreezes)" value="0">
            <label for="reason">Reason</label><input id="reason" name="reason" required maxlength="200">
            <button type="submit">Grant</button>
            </form>
            """ : ""
        return """
            <section aria-labelledby="wallet"><h2 id="wallet">Wallet</h2>
            <p>\(record.wallet.diamonds) diamonds, \(record.wallet.freezes) freezes.</p>
            <table><caption>Latest movements, newest first</caption><thead><tr><th scope="col">Day</th>
            <th scope="col">Source</th><th scope="col">Diamonds</th><th scope="col">Freezes</th>
            <th scope="col">Reason</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table>
            \(form)</section>
            """
    }

    static func unlocks(_ record: ConsoleUserRecord) -> ConsoleHTML {
        let rows = record.unlocks.map { unlock -> ConsoleHTML in
            "<tr><td>\(unlock.title)</td><td>\(instant(unlock.achievedAt))</td><td>\(unlock.habit ?? "—")</td><td>\(unlock.retroactive ? "from history" : "")</td></tr>"
        }
        return """
            <section aria-labelledby="unlocks"><h2 id="unlocks">Unlocks</h2>
            <table><thead><tr><th scope="col">Title</th><th scope="col">When</th><th scope="col">Habit</th>
            <th scope="col">Mark</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table></section>
            """
    }

    static func devices(_ record: ConsoleUserRecord) -> ConsoleHTML {
        let rows = record.devices.map { device -> ConsoleHTML in
            "<tr><td>\(device.name)</td><td>\(instant(device.createdAt))</td><td>\(instant(device.lastSeenAt))</td></tr>"
        }
        let identities = record.identities.map { identity -> ConsoleHTML in
            "<tr><td>\(identity.provider)</td><td>\(identity.email ?? "—")</td><td>\(instant(identity.linkedAt))</td></tr>"
        }
        return """
            <section aria-labelledby="devices"><h2 id="devices">Devices and identities</h2>
            <table><caption>Devices signed in</caption><thead><tr><th scope="col">Name</th><th scope="col">Signed in</th>
            <th scope="col">Last seen</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table>
            <table><caption>Identities linked</caption><thead><tr><th scope="col">Provider</th><th scope="col">Email</th>
            <th scope="col">Linked</th></tr></thead><tbody>\(ConsoleHTML(joining: identities))</tbody></table></section>
            """
    }

    static func deliveries(_ record: ConsoleUserRecord) -> ConsoleHTML {
        let rows = record.deliveries.map { delivery -> ConsoleHTML in
            """
            <tr><td>\(delivery.channel)</td><td>\(delivery.kind)</td><td>\(delivery.state)</td>
            <td>\(delivery.outcome ?? "")</td><td>\(instant(delivery.createdAt))</td><td>\(instant(delivery.finishedAt))</td></tr>
            """
        }
        return """
            <section aria-labelledby="deliveries"><h2 id="deliveries">Recent deliveries</h2>
            <table><thead><tr><th scope="col">Channel</th><th scope="col">Kind</th><th scope="col">Status</th>
            <th scope="col">Outcome</th><th scope="col">Queued</th><th scope="col">Finished</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></section>
            """
    }

    static func flags(_ record: ConsoleUserRecord) -> ConsoleHTML {
        let rows = record.reviewFlags.map { entry -> ConsoleHTML in
            let link = ConsoleReviewFlagViews.path(entry.flag.user, entry.flag.id)
            return """
                <tr><td><a href="\(link)">\(entry.flag.kind.rawValue)</a></td><td>\(entry.flag.detail)</td>
                <td>\(entry.status.rawValue)</td><td>\(instant(entry.flag.createdAt))</td></tr>
                """
        }
        return """
            <section aria-labelledby="flags"><h2 id="flags">Review flags</h2>
            <table><thead><tr><th scope="col">Kind</th><th scope="col">What was seen</th><th scope="col">Status</th>
            <th scope="col">When</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table></section>
            """
    }
}
