import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

extension WebViews {
    // MARK: Habit details

    func habit(_ caller: Caller, id: String) async throws -> (HabitPage, Chrome)? {
        guard let detail = try await services.dashboard.habitDetail(id, of: caller.user, calendarDays: 91) else {
            return nil
        }
        let (habit, analytics, unlocks, zone) = (detail.habit, detail.analytics, detail.unlocks, detail.zone)
        let chrome = try await layout(caller, "today", title: habit.definition.name)
        // A habit without a category keeps none unless one is chosen ("" is sent as no change).
        let category = habit.definition.category ?? ""
        let categories =
            (category.isEmpty ? [""] : Self.habitCategories.contains(category) ? [] : [category])
            + Self.habitCategories
        let streakStart = habit.current > 0 ? habit.currentStreakStart : nil
        var page = HabitPage(
            habit: habitRow(habit),
            pauses: Self.pauseForm(
                detail.pauses, today: detail.today, names: [habit.definition.id: habit.definition.name],
                profile: try await services.accounts.profile(of: caller.user), habit: habit.definition.id,
                packs: services.packs.library),
            policy: habit.policy.name ?? "custom", breaks: habit.breaks, startDay: Self.longDay(habit.startDay),
            since: L(
                "habit.calendar.since",
                ["policy": Self.policyLabel(habit.policy.name), "day": Self.longDay(habit.startDay)]),
            weeks: calendarWeeks(
                habit, zone: ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!,
                amnesties: detail.amnesties),
            streakStart: streakStart.map(Self.longDay),
            streakBegan: streakStart.map { L("habit.calendar.began", ["day": Self.longDay($0)]) },
            archivedOn: habit.archivedDay.map(Self.longDay),
            archivedNote: habit.archivedDay.map { L("habit.archived", ["day": Self.longDay($0)]) },
            categoryOptions: categories.map {
                HabitPage.CategoryOption(
                    value: $0, name: $0.isEmpty ? L("habit.form.noCategory") : Self.habitCategoryLabel($0),
                    selected: $0 == category)
            },
            difficulties: Difficulty.allCases.map {
                HabitPage.DifficultyOption(
                    name: $0.rawValue, label: Self.difficultyLabel($0), selected: $0 == habit.definition.difficulty)
            },
            scheduleOptions: Self.scheduleOptions(habit.definition.schedule),
            group: habit.definition.group ?? "", groupNames: detail.groups,
            hasBadges: !unlocks.isEmpty || !(analytics?.milestones.isEmpty ?? true),
            badges: unlocks.sorted { $0.achievedAt < $1.achievedAt }.map {
                HabitPage.Badge(
                    badge: $0.badge ?? "🏅", title: $0.title, day: Self.longDay($0.achievedDay), unlock: $0.id,
                    shareable: $0.tier >= .notable, postLabel: L("habit.milestones.postLabel", ["title": $0.title]))
            },
            legend: [
                ("completed", L("habit.legend.completed")), ("grace", L("habit.legend.grace")),
                ("frozen", L("habit.legend.frozen")), ("skipped", L("habit.legend.skipped")),
                ("paused", L("habit.legend.paused")), ("covered", L("habit.legend.covered")),
                ("missed", L("habit.legend.missed")),
                ("pending", L("habit.legend.pending")), ("notStarted", L("habit.legend.notStarted")),
            ].map { HabitPage.LegendEntry(state: $0.0, label: $0.1) })
        if let analytics {
            page.rate30 = analytics.rates.last30Days.percent ?? 0
            page.rateAll = analytics.rates.allTime.percent ?? 0
            page.strength = Int((analytics.strength.value * 100).rounded())
            page.totalDays = analytics.totalDaysCompleted
            page.trend =
                switch analytics.trend.direction {
                case .improving: L("habit.trend.improving")
                case .steady: L("habit.trend.steady")
                case .declining: L("habit.trend.declining")
                case .insufficientData: L("habit.trend.insufficientData")
                }
            // A streak milestone the pack's rules unlocked shows once, as its badge.
            let unlocked = Set(
                unlocks.filter { $0.milestoneType == "streak" }.compactMap { $0.value.flatMap { Int(exactly: $0) } })
            page.milestones = analytics.milestones.filter { !unlocked.contains($0.streak) }.map {
                HabitPage.Milestone(
                    streak: $0.streak, day: Self.longDay($0.day),
                    label: Wording.current.count("habit.milestones.streak", $0.streak))
            }
            page.historyWeeks = analytics.weeks.suffix(12).reversed().map(Self.period)
            page.historyMonths = analytics.months.reversed().map(Self.period)
            page.chart = Self.chart(analytics.last30Days)
            page.insights = Self.insights(analytics)
        }
        return (page, chrome)
    }

    /// A streak policy's name in the page's language (`forgiving`, `strict`, `custom`).
    static func policyLabel(_ name: String?) -> String {
        let name = name ?? "custom"
        return switch name {
        case "forgiving": L("habit.policy.forgiving")
        case "strict": L("habit.policy.strict")
        case "custom": L("habit.policy.custom")
        default: name
        }
    }

    /// The calendar as weeks (Monday first) of day cells; days before the window are blank.
    /// A covered day's detail gives the amnesty's reason.
    func calendarWeeks(
        _ habit: HabitState, zone: ZoneOffsetTable, amnesties: [AmnestyPeriod] = []
    ) -> [HabitPage.Week] {
        guard let first = habit.calendar.first?.day else { return [] }
        let padding = first.weekday.rawValue - 1
        var cells = Array(repeating: CalendarCell(blank: true), count: padding)
        let streakStart = habit.current > 0 ? habit.currentStreakStart : nil
        for day in habit.calendar {
            let times = day.completions.map { Self.time($0.at, zone: zone) }
            let notes = day.completions.compactMap(\.note)
            var detail = "\(Self.longDay(day.day)) — \(Self.label(day.state, due: true))"
            if day.state == .covered, let reason = AmnestyPeriod.reason(on: day.day, in: amnesties) {
                detail += " · " + L("habit.calendar.covered", ["reason": reason])
            }
            if !times.isEmpty {
                detail += " · " + L("habit.calendar.loggedAt", ["times": times.joined(separator: ", ")])
            }
            if !notes.isEmpty { detail += " · “\(notes.joined(separator: "”, “"))”" }
            let inStreak = streakStart.map { day.day >= $0 && day.streak > 0 } ?? false
            var cell = CalendarCell(
                day: day.day.description, number: day.day.civil.day, state: day.state.rawValue,
                border: day.border.rawValue, inStreak: inStreak, detail: detail, hasNote: !notes.isEmpty)
            // The month is named on its first day, and on the calendar's first.
            if day.day.civil.day == 1 || cells.count == padding {
                cell.monthStart = Self.shortMonth(day.day.civil.month)
            }
            cells.append(cell)
        }
        // One Tab stop for the whole calendar, on its last day; arrow keys move from there.
        if !cells.isEmpty { cells[cells.count - 1].tabStop = true }
        return stride(from: 0, to: cells.count, by: 7).map {
            HabitPage.Week(days: Array(cells[$0..<min(cells.count, $0 + 7)]))
        }
    }

    static func period(_ period: PeriodSummary) -> HabitPage.Period {
        HabitPage.Period(
            label: period.start.civil.day == 1 && period.end.civil.month == period.start.civil.month
                ? monthName(period.start) : "\(shortDay(period.start)) – \(shortDay(period.end))",
            done: period.rate.done, due: period.rate.due, percent: period.rate.percent ?? 0)
    }

    /// Thirty days of completions as bars with the 7-day rate as a line, in inline SVG.
    /// The last 30 days as an SVG: a bar for each day done, the 7-day completion rate as a
    /// line, and the first and last day named under them. The days take fixed slots, the
    /// newest at the right, so that a habit a few days old draws a few narrow bars rather
    /// than bars stretched across the whole width.
    static func chart(_ points: [DailyPoint]) -> String {
        let width = 600.0
        let plot = 140.0
        let slots = max(30, points.count)
        let step = width / Double(slots)
        let offset = slots - points.count
        var bars = ""
        var line: [String] = []
        for (index, point) in points.enumerated() {
            let x = Double(offset + index) * step
            if point.completed {
                bars +=
                    "<rect x=\"\(fmt(x + 2))\" y=\"\(fmt(plot - 60))\" width=\"\(fmt(step - 4))\" height=\"60\" "
                    + "class=\"bar\"><title>\(point.day): \(chartText(label(.completed, due: true)))</title></rect>"
            }
            line.append("\(fmt(x + step / 2)),\(fmt(plot - 10 - (point.rate7Days ?? 0) * (plot - 20)))")
        }
        // The last day under the right edge; the first under its own bar, unless it is too
        // close to the last to be read beside it (a habit a few days old).
        var labels = ""
        if let first = points.first, let last = points.last {
            if points.count > 1, Double(offset) * step < width - 100 {
                labels +=
                    "<text class=\"axis\" x=\"\(fmt(Double(offset) * step))\" y=\"156\">\(chartText(shortDay(first.day)))</text>"
            }
            labels +=
                "<text class=\"axis\" x=\"\(fmt(width))\" y=\"156\" text-anchor=\"end\">\(chartText(shortDay(last.day)))</text>"
        }
        return
            "<svg class=\"chart\" viewBox=\"0 0 \(fmt(width)) 160\" role=\"img\" "
            + "aria-label=\"\(chartText(L("habit.chart.label")))\">"
            + "<line class=\"baseline\" x1=\"0\" y1=\"\(fmt(plot))\" x2=\"\(fmt(width))\" y2=\"\(fmt(plot))\"/>"
            + bars + "<polyline class=\"rate\" fill=\"none\" points=\"\(line.joined(separator: " "))\"/>" + labels
            + "</svg>"
    }

    static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Text made safe inside the chart's markup, which the template writes unescaped.
    static func chartText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
