import Foundation
import MomentumServices
import MomentumStore

/// The console's notifications: what was scheduled, sent, retried, deferred, failed and
/// dropped (and why dropped) over the last hours, per channel and per kind, as bar charts
/// drawn on the server (inline SVG, one bar per hour stacked by outcome), each with a
/// table of the same numbers. The counts are every instance's (``NotificationSummaries``).
extension ConsoleRoutes {
    func addNotificationPages(services: Services) {
        let summaries = services.notificationSummaries
        page("notifications", .viewNotifications, section: .notifications) { request in
            let hours = request.query["hours"].map { Int($0) ?? 0 } ?? 24
            let summary = try await summaries.summary(hours: hours)
            return .page(ConsolePage(title: "Notifications", body: ConsoleNotificationViews.page(summary)))
        }
    }
}

/// The HTML of the notifications section.
enum ConsoleNotificationViews {
    /// The stacked outcomes: label, outcomes summed, CSS class.
    static let stacks: [(label: String, outcomes: [String], style: String)] = [
        ("sent", ["sent"], "ok"), ("retried or deferred", ["retried", "deferred"], ""), ("failed", ["failed"], "bad"),
        ("dropped", ["dropped"], "warn"),
    ]

    static let channelNames: [String: String] = [
        "inbox": "Inbox (the scheduler)", "webPush": "Web Push", "apns": "APNs (iOS)", "fcm": "FCM (Android)",
        "webhook": "Webhooks",
    ]

    static func page(_ summary: NotificationSummaries.Summary) -> ConsoleHTML {
        let totals = summary.outcomeTotals
        let figures = NotificationSummaries.outcomes.map { outcome -> ConsoleHTML in
            """
            <div class="figure"><div class="value">\(totals[outcome] ?? 0)</div><div class="label">\(outcome)</div></div>
            """
        }
        let channels = ["inbox", "webPush", "apns", "fcm", "webhook"].filter { channel in
            summary.counts.contains { $0.channel == channel }
        }
        let channelCharts = channels.map { channel in
            chart(
                summary, title: channelNames[channel] ?? channel, id: "channel-\(channel)",
                include: { $0.channel == channel })
        }
        let kinds = Set(summary.counts.map(\.kind)).sorted()
        let kindCharts = kinds.map { kind in
            chart(summary, title: kind, id: "kind-\(kind)", include: { $0.kind == kind && $0.channel != "inbox" })
        }
        let choices = [24, 48, 168].map { hours -> ConsoleHTML in
            hours == summary.hours
                ? "<strong>\(hours) h</strong>" : "<a href=\"/console/notifications?hours=\(hours)\">\(hours) h</a>"
        }
        let empty: ConsoleHTML =
            summary.counts.isEmpty ? "<p class=\"empty\">Nothing was scheduled or sent in these hours.</p>" : ""
        return """
            <h1>Notifications</h1>
            <p class="lead">What every instance scheduled, sent and dropped in the last \(summary.hours) hours (UTC hours, the current one last). Show: \(ConsoleHTML(joining: choices.map { "\($0) " }))</p>
            <div class="figures">\(ConsoleHTML(joining: figures))</div>
            \(empty)
            \(drops(summary))
            \(channels.isEmpty ? "" : "<h2>Per channel</h2>" as ConsoleHTML)
            \(ConsoleHTML(joining: channelCharts))
            \(kinds.isEmpty ? "" : "<h2>Per kind (to devices and webhooks)</h2>" as ConsoleHTML)
            \(ConsoleHTML(joining: kindCharts))
            """
    }

    static func drops(_ summary: NotificationSummaries.Summary) -> ConsoleHTML {
        let drops = summary.drops
        guard !drops.isEmpty else { return "" }
        let rows = drops.map { drop -> ConsoleHTML in
            let reason = NotificationDropReason(rawValue: drop.reason)?.words ?? drop.reason
            return """
                <tr><th scope="row">\(reason)</th><td>\(channelNames[drop.channel] ?? drop.channel)</td><td>\(drop.kind)</td>
                <td class="number">\(drop.count)</td></tr>
                """
        }
        return """
            <h2>Why notifications were dropped</h2>
            <div class="table-wrap"><table><caption class="visually-hidden">Drops by reason</caption>
            <thead><tr><th scope="col">Reason</th><th scope="col">Channel</th><th scope="col">Kind</th>
            <th scope="col" class="number">Dropped</th></tr></thead><tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
    }

    /// One chart: a bar per hour stacked by outcome, and the table of its numbers.
    static func chart(
        _ summary: NotificationSummaries.Summary, title: String, id: String,
        include: (NotificationCount) -> Bool
    ) -> ConsoleHTML {
        let hours = summary.hourStarts
        let perHour = summary.perHour(where: include)
        let stacked = hours.map { hour in
            stacks.map { stack in stack.outcomes.reduce(0) { $0 + (perHour[hour]?[$1] ?? 0) } }
        }
        let highest = max(1, stacked.map { $0.reduce(0, +) }.max() ?? 1)
        let width = 720.0
        let height = 180.0
        let left = 36.0
        let bottom = 20.0
        let plot = height - bottom - 6
        let step = (width - left) / Double(max(hours.count, 1))
        let barWidth = max(1, step * 0.7)
        var shapes: [String] = []
        shapes.append(
            "<line class=\"axis\" x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width)\" y2=\"\(height - bottom)\"/>")
        shapes.append("<text x=\"\(left - 4)\" y=\"\(height - bottom)\" text-anchor=\"end\">0</text>")
        shapes.append(
            "<line class=\"grid\" x1=\"\(left)\" y1=\"\(height - bottom - plot)\" x2=\"\(width)\" y2=\"\(height - bottom - plot)\"/>"
        )
        shapes.append(
            "<text x=\"\(left - 4)\" y=\"\(height - bottom - plot + 4)\" text-anchor=\"end\">\(highest)</text>")
        let labelEvery = max(1, hours.count / 8)
        for (index, hour) in hours.enumerated() {
            let x = left + Double(index) * step + (step - barWidth) / 2
            var y = height - bottom
            for (stack, value) in zip(stacks, stacked[index]) where value > 0 {
                let barHeight = plot * Double(value) / Double(highest)
                y -= barHeight
                let label = ConsoleHTML.escape("\(hourLabel(hour)): \(value) \(stack.label)")
                shapes.append(
                    "<rect class=\"bar \(stack.style)\" x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(barWidth))\" height=\"\(format(barHeight))\"><title>\(label)</title></rect>"
                )
            }
            if index % labelEvery == 0 {
                shapes.append(
                    "<text x=\"\(format(x + barWidth / 2))\" y=\"\(height - 5)\" text-anchor=\"middle\">\(shortHour(hour))</text>"
                )
            }
        }
        let legend = stacks.map { stack -> ConsoleHTML in
            "<li><span class=\"swatch \(stack.style)\"></span>\(stack.label)</li>"
        }
        let rows = hours.map { hour -> ConsoleHTML in
            let cells = NotificationSummaries.outcomes.map { outcome -> ConsoleHTML in
                "<td class=\"number\">\(perHour[hour]?[outcome] ?? 0)</td>"
            }
            return "<tr><th scope=\"row\">\(hourLabel(hour))</th>\(ConsoleHTML(joining: cells))</tr>"
        }
        let headers = NotificationSummaries.outcomes.map { outcome -> ConsoleHTML in
            "<th scope=\"col\" class=\"number\">\(outcome)</th>"
        }
        return """
            <figure class="chart" id="\(id)"><figcaption id="\(id)-title">\(title)</figcaption>
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="\(id)-title">\(raw: shapes.joined())</svg>
            <ul class="legend">\(ConsoleHTML(joining: legend))</ul>
            <details><summary>The numbers</summary>
            <div class="table-wrap"><table><caption>\(title), per hour</caption>
            <thead><tr><th scope="col">Hour (UTC)</th>\(ConsoleHTML(joining: headers))</tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div></details>
            </figure>
            """
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func hourLabel(_ hour: Date) -> String {
        let text = hour.ISO8601Format()
        return String(text.prefix(13)) + ":00"
    }

    static func shortHour(_ hour: Date) -> String {
        String(hour.ISO8601Format().dropFirst(11).prefix(2))
    }
}
