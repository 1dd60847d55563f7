import Foundation
import MomentumServices

/// The console's Operators page: who may sign in and with which role; owners add
/// operators, change their role, disable and enable them.
extension ConsoleRoutes {
    func addOperatorPages(services: Services) {
        page("operators", .viewOperators, section: .operators) { request in
            let operators = try await services.operators.list()
            let manage = request.actor.role.allows(.manageOperators)
            let rows = operators.map {
                Self.operatorRow($0, manage: manage, csrf: request.csrfField, me: request.actor)
            }
            let actions: ConsoleHTML = manage ? "<th scope=\"col\">Change</th>" : ""
            var body: ConsoleHTML = """
                <p class="lead">Who may sign in to this console, and what their role lets them do.</p>
                <div class="table-wrap"><table>
                <caption class="visually-hidden">Operators</caption>
                <thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Role</th>\
                <th scope="col">Added</th><th scope="col">Status</th>\(actions)</tr></thead>
                <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
                """
            if manage { body = "\(body)\(Self.addForm(request.csrfField))" }
            return .page(ConsolePage(title: "Operators", body: body))
        }
        form("operators", .manageOperators, section: .operators, action: "operator.added") { request in
            let role = try Self.role(request.form["role"])
            let added = try await services.operators.add(
                email: request.form["email"] ?? "", name: request.form["name"] ?? "", role: role,
                password: request.form["password"] ?? "", by: request.actor)
            return .redirect(to: ConsoleSection.operators.path, notice: "\(added.email) was added as \(role.rawValue).")
        }
        form("operators/:operator", .manageOperators, section: .operators, action: "operator.updated") { request in
            let id = try request.parameter("operator")
            let role = try request.form["role"].map { try Self.role($0) }
            let disabled: Bool? =
                switch request.form["disabled"] {
                case nil: nil
                case "true": true
                case "false": false
                default: throw ServiceError.invalid("must be true or false", field: "disabled")
                }
            guard role != nil || disabled != nil else {
                throw ServiceError.invalid("choose a role, or disable or enable the operator", field: "role")
            }
            let updated = try await services.operators.update(id: id, role: role, disabled: disabled, by: request.actor)
            let what =
                switch disabled {
                case true?: "was disabled; their sessions have ended"
                case false?: "was enabled"
                case nil: "is now \(updated.role.rawValue)"
                }
            return .redirect(to: ConsoleSection.operators.path, notice: "\(updated.email) \(what).")
        }
    }

    /// A role's name from a form.
    static func role(_ name: String?) throws -> OperatorRole {
        guard let name, let role = OperatorRole(rawValue: name) else {
            throw ServiceError.invalid("must be owner, support or viewer", field: "role")
        }
        return role
    }

    private static func operatorRow(
        _ person: OperatorView, manage: Bool, csrf: ConsoleHTML, me: OperatorActor
    ) -> ConsoleHTML {
        let status: ConsoleHTML =
            person.disabled
            ? "<span class=\"badge disabled\">disabled</span>" : "<span class=\"badge active\">active</span>"
        let you: ConsoleHTML = person.id == me.id ? " <span class=\"muted\">(you)</span>" : ""
        var change: ConsoleHTML = ""
        if manage {
            let options = OperatorRole.allCases.map { role -> ConsoleHTML in
                let selected: ConsoleHTML = role == person.role ? " selected" : ""
                return "<option value=\"\(role.rawValue)\"\(selected)>\(role.rawValue)</option>"
            }
            let target = "/console/operators/\(ConsoleLayout.queryValue(person.id))"
            let toggle: ConsoleHTML =
                person.disabled
                ? "<input type=\"hidden\" name=\"disabled\" value=\"false\"><button class=\"small\" type=\"submit\">Enable</button>"
                : "<input type=\"hidden\" name=\"disabled\" value=\"true\"><button class=\"small danger\" type=\"submit\">Disable</button>"
            change = """
                <td><form method="post" action="\(target)">\(csrf)\
                <label class="visually-hidden" for="role-\(person.id)">Role of \(person.email)</label>\
                <select id="role-\(person.id)" name="role">\(ConsoleHTML(joining: options))</select>\
                <button class="small" type="submit">Change role</button></form>\
                <form method="post" action="\(target)">\(csrf)\(toggle)</form></td>
                """
        }
        return """
            <tr><th scope="row">\(person.email)\(you)</th><td>\(person.name)</td>\
            <td><span class="badge \(person.role.rawValue)">\(person.role.rawValue)</span></td>\
            <td>\(ConsoleLayout.time(person.createdAt))</td><td>\(status)</td>\(change)</tr>
            """
    }

    private static func addForm(_ csrf: ConsoleHTML) -> ConsoleHTML {
        let options = OperatorRole.allCases.map { role -> ConsoleHTML in
            let selected: ConsoleHTML = role == .viewer ? " selected" : ""
            return "<option value=\"\(role.rawValue)\"\(selected)>\(role.rawValue)</option>"
        }
        return """
            <section class="panel" aria-labelledby="add-operator">
            <h2 id="add-operator">Add an operator</h2>
            <form class="stack" method="post" action="/console/operators">\(csrf)
            <label>Email <input type="email" name="email" required autocomplete="off"></label>
            <label>Name <input type="text" name="name" required autocomplete="off"></label>
            <label>Role <select name="role">\(ConsoleHTML(joining: options))</select></label>
            <label>Initial password <input type="password" name="password" required minlength="12" \
            autocomplete="new-password"></label>
            <p class="muted">At least 12 characters. Give it to them in person; they sign in with it.</p>
            <button class="primary" type="submit">Add operator</button>
            </form></section>
            """
    }
}
