import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The console's review flags: the queue awaiting review, one flag with its evidence (the
/// events the suspicion detector saw and the posts it holds back), and the two answers:
/// clear (the held posts are released, as the API's clear does) or confirm (the flag stays
/// on record, the posts stay held, the same evidence flags no one again).
///
/// Opening a flag's evidence is looking its user up: recorded as `user.viewed`.
extension ConsoleRoutes {
    func addReviewFlagPages(services: Services) {
        let reviews = services.flagReviews
        let social = services.social
        page("review-flags", .viewReviewFlags, section: .reviewFlags) { _ in
            .page(
                ConsolePage(
                    title: "Review flags", body: ConsoleReviewFlagViews.queue(try await reviews.awaiting(limit: 200))))
        }
        page("review-flags/:user/:flag", .viewReviewFlags, section: .reviewFlags, action: "user.viewed") { request in
            let evidence = try await reviews.evidence(try request.parameter("flag"), of: try request.parameter("user"))
            return .page(
                ConsolePage(
                    title: "Review flag",
                    body: ConsoleReviewFlagViews.flag(
                        evidence, canResolve: request.actor.role.allows(.resolveReviewFlags), csrf: request.csrfField)))
        }
        form(
            "review-flags/:user/:flag/clear", .resolveReviewFlags, section: .reviewFlags, action: "review_flag.cleared"
        ) { request in
            let user = try request.parameter("user")
            let flag = try request.parameter("flag")
            let cleared = try await social.clearFlag(flag, of: user)
            let notice =
                cleared.openFlags == 0
                ? "Cleared. \(cleared.releasedPosts) held post\(cleared.releasedPosts == 1 ? "" : "s") released."
                : "Cleared. \(cleared.openFlags) other flag\(cleared.openFlags == 1 ? "" : "s") still hold the posts."
            return .redirect(to: ConsoleReviewFlagViews.path(user, flag), notice: notice)
        }
        form(
            "review-flags/:user/:flag/confirm", .resolveReviewFlags, section: .reviewFlags,
            action: "review_flag.confirmed"
        ) { request in
            let user = try request.parameter("user")
            let flag = try request.parameter("flag")
            _ = try await reviews.confirm(flag, of: user, by: request.actor)
            return .redirect(
                to: ConsoleReviewFlagViews.path(user, flag), notice: "Confirmed. The posts stay held.")
        }
    }
}

/// The HTML of the review flags section.
enum ConsoleReviewFlagViews {
    static func path(_ user: String, _ flag: String) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(.init(charactersIn: "/"))
        return "/console/review-flags/\(user.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")/"
            + (flag.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    static func queue(_ flags: [ReviewFlag]) -> ConsoleHTML {
        guard !flags.isEmpty else {
            return "<h1>Review flags</h1><p>Nothing awaits review.</p>"
        }
        let rows = flags.map { flag -> ConsoleHTML in
            """
            <tr><td><a href="\(path(flag.user, flag.id))">\(flag.kind.rawValue)</a></td><td>\(flag.detail)</td>
            <td>\(flag.events.count)</td><td>\(flag.createdAt.ISO8601Format())</td></tr>
            """
        }
        return """
            <h1>Review flags</h1>
            <p>Activity that looked like gaming the rules, awaiting review, newest first. Opening a flag shows its evidence and its user, and is recorded in the audit log.</p>
            <table><thead><tr><th scope="col">Kind</th><th scope="col">What was seen</th><th scope="col">Events</th>
            <th scope="col">When</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table>
            """
    }

    static func flag(_ evidence: FlagReviews.Evidence, canResolve: Bool, csrf: ConsoleHTML) -> ConsoleHTML {
        let entry = evidence.entry
        let flag = entry.flag
        let events = evidence.events.map { event -> ConsoleHTML in
            """
            <tr><td><code>\(event.id)</code></td><td>\(event.type)</td><td>\(event.habit ?? "—")</td>
            <td>\(event.at.ISO8601Format())</td><td>\(event.timeZone)</td><td>\(event.day?.description ?? "—")</td></tr>
            """
        }
        let posts = evidence.heldPosts.map { post -> ConsoleHTML in
            "<tr><td>\(post.title)</td><td>\(post.createdAt.ISO8601Format())</td></tr>"
        }
        let status: ConsoleHTML =
            switch entry.status {
            case .open: "Open: awaiting review."
            case .confirmed:
                "Confirmed by \(entry.confirmedBy ?? "an operator") at \(entry.confirmedAt?.ISO8601Format() ?? "—")."
            case .cleared: "Cleared at \(entry.clearedAt?.ISO8601Format() ?? "—")."
            }
        let base = path(flag.user, flag.id)
        let clear: ConsoleHTML =
            canResolve && entry.status != .cleared
            ? """
            <form method="post" action="\(base)/clear">\(csrf)<button type="submit">Clear: release the held posts</button></form>
            """ : ""
        let confirm: ConsoleHTML =
            canResolve && entry.status == .open
            ? """
            <form method="post" action="\(base)/confirm">\(csrf)<button type="submit">Confirm: keep the posts held</button></form>
            """ : ""
        return """
            <p><a href="/console/review-flags">← Review flags</a></p>
            <h1>Review flag: \(flag.kind.rawValue)</h1>
            <dl>
            <dt>User</dt><dd><a href="\(ConsoleUserViews.path(flag.user))"><code>\(flag.user)</code></a></dd>
            <dt>What was seen</dt><dd>\(flag.detail)</dd>
            <dt>When</dt><dd>\(flag.createdAt.ISO8601Format())</dd>
            <dt>Status</dt><dd>\(status)</dd>
            </dl>
            \(clear)\(confirm)
            <section aria-labelledby="evidence"><h2 id="evidence">Evidence</h2>
            <table><thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col">Habit</th>
            <th scope="col">At</th><th scope="col">Zone</th><th scope="col">For day</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: events))</tbody></table></section>
            <section aria-labelledby="held"><h2 id="held">Posts held back</h2>
            <table><thead><tr><th scope="col">Unlock</th><th scope="col">Shared</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: posts))</tbody></table></section>
            """
    }
}
