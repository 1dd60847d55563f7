import Foundation
import MomentumServices
import MomentumStore

/// The console's what-if pages: for a candidate pack version, start a replay over all users
/// of the pack or a sample (`pack.what_if_started`), follow its progress (the page reloads
/// itself while it runs), cancel it (`pack.what_if_cancelled`), and read its report as
/// tables, each example user linking to their page.
extension ConsoleRoutes {
    func addWhatIfPages(services: Services) {
        let whatIf = services.whatIf
        page("packs/:name/versions/:version/what-if", .viewPacks, section: .packs) { request in
            let (name, version) = (try request.parameter("name"), try request.parameter("version"))
            return .page(
                ConsolePage(
                    title: "What-if: \(name) \(version)",
                    body: ConsoleWhatIfViews.start(
                        name: name, version: version, runs: try await whatIf.runs(pack: name, version: version),
                        canManage: request.actor.role.allows(.managePacks), csrf: request.csrfField)))
        }
        form("packs/:name/versions/:version/what-if", .managePacks, section: .packs, action: "pack.what_if_started") {
            request in
            let (name, version) = (try request.parameter("name"), try request.parameter("version"))
            let run = try await whatIf.start(
                pack: name, version: version, sample: try ConsoleWhatIfViews.sample(request.form), by: request.actor)
            return .redirect(to: ConsoleWhatIfViews.path(name, version, run: run.id), notice: "The what-if started.")
        }
        page("packs/:name/versions/:version/what-if/:run", .viewPacks, section: .packs) { request in
            let progress = try await whatIf.run(try request.parameter("run"))
            return .page(
                ConsolePage(
                    title: "What-if: \(progress.run.pack) \(progress.run.version)",
                    body: ConsoleWhatIfViews.run(
                        progress, canManage: request.actor.role.allows(.managePacks), csrf: request.csrfField)))
        }
        form(
            "packs/:name/versions/:version/what-if/:run/cancel", .managePacks, section: .packs,
            action: "pack.what_if_cancelled"
        ) { request in
            let progress = try await whatIf.cancel(try request.parameter("run"))
            return .redirect(
                to: ConsoleWhatIfViews.path(progress.run.pack, progress.run.version, run: progress.run.id),
                notice: "The what-if was cancelled.")
        }
    }
}

/// The HTML of the what-if pages.
enum ConsoleWhatIfViews {
    static func path(_ name: String, _ version: String, run: String? = nil) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(.init(charactersIn: "/"))
        func part(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        let base = "/console/packs/\(part(name))/versions/\(part(version))/what-if"
        return run.map { "\(base)/\(part($0))" } ?? base
    }

    /// The sample a start form asks for: `sample` is `all`, `count` (with `count` and
    /// `seed`) or `users` (ids separated by spaces, commas or lines).
    static func sample(_ form: [String: String]) throws -> WhatIfSample? {
        switch form["sample"] ?? "all" {
        case "count":
            guard let count = Int(form["count"] ?? "") else {
                throw ServiceError.invalid("give how many users to choose", field: "sample.count")
            }
            let seedText = (form["seed"] ?? "").trimmingCharacters(in: .whitespaces)
            guard seedText.isEmpty || Int64(seedText) != nil else {
                throw ServiceError.invalid("a seed is a whole number", field: "sample.seed")
            }
            return WhatIfSample(count: count, seed: Int64(seedText) ?? 0)
        case "users":
            let users = (form["users"] ?? "").split { $0 == "," || $0.isWhitespace }.map(String.init)
            return WhatIfSample(users: users)
        default:
            return nil
        }
    }

    static func start(
        name: String, version: String, runs: [WhatIfRun], canManage: Bool, csrf: ConsoleHTML
    ) -> ConsoleHTML {
        let rows = runs.map { run -> ConsoleHTML in
            """
            <tr><th scope="row"><a href="\(path(name, version, run: run.id))">\(run.id)</a></th>
            <td>\(run.status.rawValue)</td><td class="number">\(run.done) / \(run.total)</td>
            <td>\(ConsoleWebhookViews.when(run.startedAt))</td><td>\(run.startedBy)</td></tr>
            """
        }
        let table: ConsoleHTML =
            runs.isEmpty
            ? "<p class=\"empty\">No what-if of this version yet.</p>"
            : """
            <div class="table-wrap"><table><caption class="visually-hidden">What-ifs of this version</caption>
            <thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col" class="number">Users</th>
            <th scope="col">Started</th><th scope="col">By</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
        let form: ConsoleHTML =
            canManage
            ? """
            <h2>Start a what-if</h2>
            <form method="post" action="\(path(name, version))" class="stack">\(csrf)
            <fieldset><legend>Users to replay</legend>
            <label class="check"><input type="radio" name="sample" value="all" checked> Every user of the pack</label>
            <label class="check"><input type="radio" name="sample" value="count"> A random sample of
            <input type="number" name="count" min="1" max="\(WhatIfSample.maximumUsers)" value="100"> users, seed
            <input type="number" name="seed" value="0"></label>
            <label class="check"><input type="radio" name="sample" value="users"> These users (ids):</label>
            <textarea name="users" rows="3" cols="60" aria-label="User ids"></textarea>
            </fieldset>
            <button type="submit" class="primary">Replay</button></form>
            """
            : ""
        return """
            <h1>What-if: \(name) \(version)</h1>
            <p class="lead">Replays this version over the real logs of the pack's users and reports what would change,
            before it goes live. Nothing is written to any user.</p>
            \(form)
            <h2>Runs</h2>
            \(table)
            <p><a href="/console/packs">Back to the packs</a></p>
            """
    }

    static func run(_ progress: WhatIfProgress, canManage: Bool, csrf: ConsoleHTML) -> ConsoleHTML {
        let run = progress.run
        let report = progress.report
        let running = run.status == .running
        let refresh: ConsoleHTML = running ? "<meta http-equiv=\"refresh\" content=\"2\">" : ""
        let cancel: ConsoleHTML =
            running && canManage
            ? """
            <form method="post" action="\(path(run.pack, run.version, run: run.id))/cancel">\(csrf)<button type="submit" class="danger">Cancel</button></form>
            """
            : ""
        let sample: String =
            if let users = progress.sample.users {
                "\(users.count) named users"
            } else if let count = progress.sample.count {
                "\(count) users at random (seed \(progress.sample.seed ?? 0))"
            } else {
                "every user of the pack"
            }
        return """
            \(refresh)
            <h1>What-if: \(run.pack) \(run.version)</h1>
            <p class="lead">Started by \(run.startedBy) \(ConsoleWebhookViews.when(run.startedAt)) over \(sample).</p>
            <p><strong>\(run.status.rawValue)</strong>:
            <progress max="\(max(run.total, 1))" value="\(run.done)">\(run.done) of \(run.total)</progress>
            \(run.done) of \(run.total) users replayed\(running ? " (this page reloads itself)" : "").</p>
            \(cancel)
            \(self.report(report))
            <p><a href="\(path(run.pack, run.version))">All runs of this version</a></p>
            """
    }

    static func report(_ report: WhatIfReport) -> ConsoleHTML {
        let rules = report.rules.sorted { $0.key < $1.key }.map { rule, change -> ConsoleHTML in
            """
            <tr><th scope="row">\(change.title)<br><code class="muted">\(rule)</code></th>
            <td class="number">\(change.gaining)</td><td>\(examples(change.gainingExamples))</td>
            <td class="number">\(change.losing)</td><td>\(examples(change.losingExamples))</td></tr>
            """
        }
        let ruleTable: ConsoleHTML =
            rules.isEmpty
            ? "<p class=\"empty\">No unlock would change.</p>"
            : """
            <div class="table-wrap"><table><caption>Unlocks, per rule</caption>
            <thead><tr><th scope="col">Rule</th><th scope="col" class="number">Users gaining</th>
            <th scope="col">For example</th><th scope="col" class="number">Users losing</th>
            <th scope="col">For example</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rules))</tbody></table></div>
            """
        func total(_ label: String, _ total: WhatIfReport.Total) -> ConsoleHTML {
            """
            <tr><th scope="row">\(label)</th><td class="number">\(total.sum)</td><td class="number">\(total.users)</td>
            <td>\(examples(total.examples))</td></tr>
            """
        }
        return """
            <h2>Report</h2>
            <p>\(report.users) users replayed; something would change for \(report.changed)\(
                report.skipped > 0 ? "; \(report.skipped) could not be replayed" : "").</p>
            \(ruleTable)
            <div class="table-wrap"><table><caption>Celebrations, diamonds and freezes</caption>
            <thead><tr><th scope="col">What</th><th scope="col" class="number">Change</th>
            <th scope="col" class="number">Users</th><th scope="col">For example</th></tr></thead>
            <tbody>\(total("Celebrations created", report.celebrations))\(total("Diamonds held", report.diamonds))\(
                total("Freezes held", report.freezes))</tbody></table></div>
            <h2>Rewards kept</h2>
            <p>\(report.kept.users) users would lose a reward (\(report.kept.unlocks) unlocks, \(report.kept.diamonds)
            diamonds and \(report.kept.freezes) freezes earned). \(report.kept.how)</p>
            <p>For example: \(examples(report.kept.examples))</p>
            """
    }

    static func examples(_ examples: [WhatIfReport.Example]) -> ConsoleHTML {
        guard !examples.isEmpty else { return "<span class=\"muted\">–</span>" }
        let allowed = CharacterSet.urlPathAllowed.subtracting(.init(charactersIn: "/"))
        let items = examples.map { example -> ConsoleHTML in
            var what: [String] = []
            if !example.gains.isEmpty { what.append("gains " + example.gains.joined(separator: ", ")) }
            if !example.losses.isEmpty { what.append("loses " + example.losses.joined(separator: ", ")) }
            if example.diamonds != 0 { what.append("\(example.diamonds > 0 ? "+" : "")\(example.diamonds) diamonds") }
            if example.freezes != 0 { what.append("\(example.freezes > 0 ? "+" : "")\(example.freezes) freezes") }
            let link = "/console/users/" + (example.user.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            return "<li><a href=\"\(link)\">\(example.user)</a>: \(what.joined(separator: "; "))</li>"
        }
        return "<ul class=\"compact\">\(ConsoleHTML(joining: items))</ul>"
    }
}
