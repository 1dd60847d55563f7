import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The console's incident amnesties: the list with each job's progress, the form that
/// declares an outage window (start and end in UTC, a reason; `amnesty.declared`), and the
/// button that lifts an active one (`amnesty.lifted`), for roles that may manage them.
extension ConsoleRoutes {
    func addAmnestyPages(services: Services) {
        let amnesties = services.amnesties
        page("amnesty", .viewAmnesties, section: .amnesty) { request in
            .page(
                ConsolePage(
                    title: "Amnesty",
                    body: ConsoleAmnestyViews.page(
                        try await amnesties.list(), canManage: request.actor.role.allows(.manageAmnesties),
                        csrf: request.csrfField)))
        }
        form("amnesty/declare", .manageAmnesties, section: .amnesty, action: "amnesty.declared") { request in
            var problems: [ServiceError.Field] = []
            let start = ConsoleAmnestyViews.instant(request.form["start"], field: "start", problems: &problems)
            let end = ConsoleAmnestyViews.instant(request.form["end"], field: "end", problems: &problems)
            guard let start, let end, problems.isEmpty else { throw ServiceError.invalid(problems) }
            let declared = try await amnesties.declare(
                start: start, end: end, reason: request.form["reason"] ?? "", by: request.actor)
            return .redirect(
                to: "/console/amnesty",
                notice: "Declared \(declared.id): it is being written to \(declared.usersTotal) users.")
        }
        form("amnesty/:amnesty/lift", .manageAmnesties, section: .amnesty, action: "amnesty.lifted") { request in
            let lifted = try await amnesties.lift(id: try request.parameter("amnesty"), by: request.actor)
            return .redirect(to: "/console/amnesty", notice: "Lifting \(lifted.id): its days are being restored.")
        }
    }
}

/// The HTML of the amnesty section.
enum ConsoleAmnestyViews {
    /// An instant a form names as `2026-07-14T03:00` (a `datetime-local` field) in UTC, or
    /// with seconds or an offset (RFC 3339); a problem naming `field` otherwise.
    static func instant(_ text: String?, field: String, problems: inout [ServiceError.Field]) -> Date? {
        let text = (text ?? "").trimmingCharacters(in: .whitespaces)
        for candidate in [text, text + ":00Z", text + "Z"] {
            if let date = RFC3339.parse(candidate) { return date }
        }
        problems.append(.init(field: field, issue: "\(field) is a date and time in UTC such as 2026-07-14T03:00"))
        return nil
    }

    static func page(_ amnesties: [AmnestyRecord], canManage: Bool, csrf: ConsoleHTML) -> ConsoleHTML {
        let rows = amnesties.map { amnesty -> ConsoleHTML in
            let lift: ConsoleHTML =
                canManage && amnesty.status == .active
                ? """
                <form method="post" action="/console/amnesty/\(amnesty.id)/lift">\(csrf)<button type="submit" class="small danger">Lift</button></form>
                """
                : ""
            let progress: ConsoleHTML =
                "<progress max=\"\(max(1, amnesty.usersTotal))\" value=\"\(amnesty.usersDone)\"></progress> \(amnesty.usersDone) of \(amnesty.usersTotal)"
            return """
                <tr><th scope="row">\(amnesty.reason)<br><code class="muted">\(amnesty.id)</code></th>
                <td>\(ConsoleWebhookViews.when(amnesty.start))</td><td>\(ConsoleWebhookViews.when(amnesty.end))</td>
                <td><span class="badge">\(amnesty.status.rawValue)</span></td><td>\(progress)</td>
                <td>\(amnesty.declaredBy)</td><td>\(amnesty.liftedBy ?? "")</td><td>\(lift)</td></tr>
                """
        }
        let table: ConsoleHTML =
            amnesties.isEmpty
            ? "<p class=\"empty\">No amnesty has been declared.</p>"
            : """
            <div class="table-wrap"><table><caption class="visually-hidden">Amnesties</caption>
            <thead><tr><th scope="col">Reason</th><th scope="col">Start (UTC)</th><th scope="col">End (UTC)</th>
            <th scope="col">Status</th><th scope="col">Users</th><th scope="col">Declared by</th>
            <th scope="col">Lifted by</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
        let declare: ConsoleHTML =
            canManage
            ? """
            <h2>Declare an outage</h2>
            <form method="post" action="/console/amnesty/declare" class="stack">\(csrf)
            <label>Start (UTC) <input type="datetime-local" name="start" required></label>
            <label>End (UTC) <input type="datetime-local" name="end" required></label>
            <label>Reason, shown to users on the covered days <input type="text" name="reason" maxlength="200" required></label>
            <button type="submit" class="primary">Declare the amnesty</button></form>
            """
            : ""
        return """
            <h1>Amnesty</h1>
            <p class="lead">Every user's days an outage touched that were not done are covered: their streaks stand, \
            no freeze is spent. At most 31 days, ended by now. Lifting makes the days what they would have been.</p>
            \(table)
            \(declare)
            """
    }
}
