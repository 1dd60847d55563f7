import Foundation
import MomentumServices

/// The console's Audit log page: what operators did and tried, newest first, filtered by
/// operator, user or action, a page at a time.
extension ConsoleRoutes {
    /// Entries per page.
    static var auditPageSize: Int { 50 }

    func addAuditPages(services: Services) {
        page("audit", .viewAudit, section: .audit) { request in
            let filters = AuditFilters(request.query)
            let page = try await services.operators.auditLog(
                AuditQuery(
                    operatorID: filters.operator, user: filters.user, actionPrefix: filters.action,
                    before: request.query["before"], limit: Self.auditPageSize))
            let operators = try await services.operators.list()
            let rows = page.entries.map(Self.auditRow)
            let table: ConsoleHTML =
                rows.isEmpty
                ? "<p class=\"panel empty\">No entries match.</p>"
                : """
                <div class="table-wrap"><table>
                <caption class="visually-hidden">Audit log, newest first</caption>
                <thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th>\
                <th scope="col">User</th><th scope="col">Detail</th><th scope="col">Outcome</th></tr></thead>
                <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
                """
            let older: ConsoleHTML =
                page.nextCursor.map { cursor in
                    "<nav class=\"pager\" aria-label=\"Pages\"><a class=\"button\" href=\"\(filters.link(before: cursor))\">Older entries</a></nav>"
                } ?? ""
            let newest: ConsoleHTML =
                request.query["before"] == nil
                ? ""
                : "<nav class=\"pager\" aria-label=\"Newest\"><a href=\"\(filters.link(before: nil))\">Newest entries</a></nav>"
            let body: ConsoleHTML = """
                <p class="lead">Every operator's action, and every attempt their role did not allow, newest first.</p>
                \(Self.auditFilters(filters, operators: operators))\(newest)\(table)\(older)
                """
            return .page(ConsolePage(title: "Audit log", body: body))
        }
    }

    private static func auditRow(_ entry: AuditEntry) -> ConsoleHTML {
        let denied = entry.outcome == .denied
        let outcome: ConsoleHTML =
            denied ? "<span class=\"badge denied\">denied</span>" : "<span class=\"badge done\">done</span>"
        let who: ConsoleHTML = entry.operatorEmail.isEmpty ? "\(entry.operatorID)" : "\(entry.operatorEmail)"
        let user: ConsoleHTML = entry.user.map { "<code>\($0)</code>" } ?? "<span class=\"muted\">—</span>"
        let rowClass: ConsoleHTML = denied ? " class=\"denied\"" : ""
        return """
            <tr\(rowClass)><td>\(ConsoleLayout.time(entry.at))</td><th scope="row">\(who)</th>\
            <td><code>\(entry.action)</code></td><td>\(user)</td><td>\(entry.detail)</td><td>\(outcome)</td></tr>
            """
    }

    private static func auditFilters(_ filters: AuditFilters, operators: [OperatorView]) -> ConsoleHTML {
        let options = operators.map { person -> ConsoleHTML in
            let selected: ConsoleHTML = person.id == filters.operator ? " selected" : ""
            return "<option value=\"\(person.id)\"\(selected)>\(person.email)</option>"
        }
        let all: ConsoleHTML = filters.operator == nil ? " selected" : ""
        return """
            <form class="filters panel" method="get" action="/console/audit" role="search">
            <label>Operator <select name="operator"><option value=""\(all)>Anyone</option>\
            \(ConsoleHTML(joining: options))</select></label>
            <label>User id <input type="text" name="user" value="\(filters.user ?? "")" placeholder="u_…"></label>
            <label>Action <input type="text" name="action" value="\(filters.action ?? "")" \
            placeholder="user. or pack.activated"></label>
            <button type="submit">Filter</button>
            </form>
            """
    }
}

/// The audit page's filters, from its query: empty fields filter nothing.
struct AuditFilters {
    var `operator`: String?
    var user: String?
    var action: String?

    init(_ query: [String: String]) {
        func value(_ name: String) -> String? {
            guard let text = query[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        `operator` = value("operator")
        user = value("user")
        action = value("action")
    }

    /// The page's address with these filters, and the cursor of the page before.
    func link(before: String?) -> String {
        let pairs = [("operator", `operator`), ("user", user), ("action", action), ("before", before)]
            .compactMap { name, value in value.map { "\(name)=\(ConsoleLayout.queryValue($0))" } }
        return "/console/audit" + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }
}
