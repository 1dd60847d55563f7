import Foundation
import MomentumCore
import MomentumStore

/// Builds the web pages' template contexts from the engine's state. Every value is a plain
/// Swift string, number, Boolean, array or dictionary, so the templates stay logic-less.
struct WebViews: Sendable {
    let server: ServerState

    /// What every signed-in page shows: the top bar's counters, the navigation, the store
    /// and the celebration settings.
    func chrome(_ caller: Caller, _ section: String, title: String) async throws -> [String: Any] {
        let (state, profile) = try await server.dashboard.state(caller.user, calendarDays: 1)
        return chrome(section, title: title, wallet: state.wallet, profile: profile)
    }

    /// The same, from a wallet and profile the page has already evaluated.
    func chrome(_ section: String, title: String, wallet: Wallet, profile: Profile) -> [String: Any] {
        let pack = (try? profile.rulePack()) ?? .habits
        let catalog = pack.store
        let sections =
            [("today", "Today")] + Self.packLinks(pack) + [
                ("memories", "Memories"), ("journey", "Journey"), ("feed", "Feed"), ("friends", "Friends"),
                ("profile", "Profile"),
            ]
        return [
            "title": title,
            "signedIn": true,
            "displayName": profile.displayName.isEmpty ? "You" : profile.displayName,
            "diamonds": wallet.diamonds,
            "freezes": wallet.freezes,
            "reduceMotion": profile.preferences.accessibility.reduceMotion,
            "celebrationStyle": profile.preferences.style.rawValue,
            "timeZone": profile.timeZone,
            "nav": sections.map { ["href": "/\($0.0)", "label": $0.1, "current": $0.0 == section] },
            "store": [
                "items": catalog.items.map {
                    [
                        "id": $0.id, "freezes": $0.freezes, "diamonds": $0.diamonds,
                        "affordable": $0.diamonds <= wallet.diamonds,
                    ]
                },
                "price": catalog.customPricePerFreeze,
                "maximum": catalog.customMaximum,
            ] as [String: Any],
        ]
    }

    // MARK: Today

    func today(_ caller: Caller) async throws -> [String: Any] {
        let (state, profile) = try await server.dashboard.state(caller.user, calendarDays: 7)
        var page = chrome("today", title: "Today", wallet: state.wallet, profile: profile)
        let names = Dictionary(
            state.habits.map { ($0.definition.id, $0.definition.name) }, uniquingKeysWith: { a, _ in a })
        let position = Dictionary(state.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let active = state.habits.filter { $0.archivedDay == nil }
            .sorted { (position[$0.definition.id] ?? .max) < (position[$1.definition.id] ?? .max) }
        page["dayLabel"] = Self.longDay(state.today)
        page["groups"] = Self.habitGroups(active).map { group -> [String: Any] in
            [
                "name": group.name, "grouped": !group.name.isEmpty, "count": group.habits.count,
                "habits": group.habits.map(habitRow),
            ]
        }
        page["movable"] = active.count > 1
        page["groupNames"] = Self.groupNames(state.habits)
        page["noHabits"] = active.isEmpty
        page["archived"] = state.habits.filter { $0.archivedDay != nil }.map { habit -> [String: Any] in
            [
                "id": habit.definition.id, "name": habit.definition.name,
                "archivedOn": habit.archivedDay.map(Self.longDay) ?? "",
            ]
        }
        page["hasArchived"] = state.habits.contains { $0.archivedDay != nil }
        page["offers"] = state.freezeOffers.map {
            [
                "habit": $0.habit, "name": names[$0.habit] ?? $0.habit, "day": $0.day.description,
                "dayLabel": Self.longDay($0.day),
            ]
        }
        page["categories"] = Self.habitCategories
        let pauses = state.pauses.filter { $0.until >= state.today }
        page["pauses"] = Self.pauseForm(
            pauses.filter { $0.habit == nil }, today: state.today, names: names, profile: profile, habit: nil)
        if let vacation = pauses.first(where: { $0.habit == nil && $0.from <= state.today }) {
            page["vacation"] = ["until": Self.longDay(vacation.until), "note": vacation.note ?? ""]
        }
        // The packs with forms each have a section: the puppy's one-tap logs, the savings
        // goals, the growth stages. Habits show when the account tracks them or has some.
        let pack = (try? profile.rulePack()) ?? .habits
        if pack.members.contains(where: { !$0.forms.isEmpty }) {
            page["packs"] = packSections(try await server.dashboard.journal(caller.user, recent: 0))
        }
        let tracksHabits = pack.memberNames.contains("habits") || !state.habits.isEmpty
        page["showHabits"] = tracksHabits
        if !tracksHabits { page["noHabits"] = false }
        return page
    }

    /// The categories the web app offers for a habit.
    static let habitCategories = ["health", "fitness", "mind", "learning", "home", "social", "finance", "other"]

    private func habitRow(_ habit: HabitState) -> [String: Any] {
        let done = habit.today.state == .completed
        return [
            "id": habit.definition.id,
            "name": habit.definition.name,
            "category": habit.definition.category ?? "",
            "categoryLabel": habit.definition.category.map { "\($0) · " } ?? "",
            "current": habit.current,
            "best": habit.best,
            // A weekly or monthly habit's streak is told in weeks or months.
            "unit": habit.streakUnit,
            "units": Self.plural(habit.current, habit.streakUnit),
            "unitLabel": habit.streakUnit == "day" ? "" : Self.plural(habit.current, habit.streakUnit),
            "bestUnits": Self.plural(habit.best, habit.streakUnit),
            "shield": habit.shieldActive,
            "done": done,
            "skipped": habit.today.state == .skipped,
            "due": habit.today.due,
            // Due today and not already covered (a weekly quota met): the check-in stands out.
            "needed": habit.today.due && habit.today.state != .notDue && habit.today.state != .paused,
            "paused": habit.today.state == .paused,
            "status": Self.label(habit.today.state, due: habit.today.due),
            "border": habit.border.rawValue,
            "target": Self.targetFields(habit),
            "week": habit.calendar.suffix(7).map { day in
                [
                    "day": day.day.description, "state": day.state.rawValue,
                    "label": "\(Self.shortDay(day.day)): \(Self.label(day.state, due: true))",
                ]
            },
        ]
    }

    /// A numeric habit's target and today's progress toward it, for the page: the amount,
    /// the unit, what was logged, a sentence ("5 of 8 glasses") and the meter's numbers.
    /// Empty for a check-off habit, so that templates show its Check in button instead.
    static func targetFields(_ habit: HabitState) -> [String: Any] {
        let target = habit.definition.target
        var fields: [String: Any] = [
            "kind": target.comparison.rawValue, "amount": number(target.amount), "measure": target.unit ?? "",
        ]
        fields["isCheck"] = target.comparison == .check
        fields["isAtLeast"] = target.comparison == .atLeast
        fields["isAtMost"] = target.comparison == .atMost
        guard target.comparison != .check else { return fields }
        let logged = habit.today.logged.isFinite ? max(0, habit.today.logged) : 0
        let unit = target.unit.map { " \($0)" } ?? ""
        let atMost = target.comparison == .atMost
        let over = atMost && logged > target.amount
        fields["numeric"] = true
        fields["atMost"] = atMost
        fields["over"] = over
        fields["logged"] = number(logged)
        fields["meterMax"] = number(max(target.amount, atMost ? logged : 0, 1))
        fields["meterValue"] = number(min(logged, max(target.amount, atMost ? logged : 0)))
        fields["goal"] =
            atMost ? "at most \(number(target.amount))\(unit) a day" : "\(number(target.amount))\(unit) a day"
        fields["progress"] =
            if over {
                "\(number(logged))\(unit) today: over the limit of \(number(target.amount))"
            } else if atMost {
                "\(number(logged)) of at most \(number(target.amount))\(unit) today"
            } else {
                "\(number(logged)) of \(number(target.amount))\(unit) today"
            }
        return fields
    }

    /// Habits in display order, gathered in their groups: the habits without a group first,
    /// then each group where its first habit comes.
    static func habitGroups(_ habits: [HabitState]) -> [(name: String, habits: [HabitState])] {
        var groups: [(name: String, habits: [HabitState])] = [("", [])]
        var index: [String: Int] = ["": 0]
        for habit in habits {
            let name = habit.definition.group ?? ""
            if let at = index[name] {
                groups[at].habits.append(habit)
            } else {
                index[name] = groups.count
                groups.append((name, [habit]))
            }
        }
        return groups.filter { !$0.habits.isEmpty }
    }

    /// The groups the user's habits are in, for the forms' suggestions.
    static func groupNames(_ habits: [HabitState]) -> [String] {
        var seen: Set<String> = []
        return habits.compactMap(\.definition.group).filter { seen.insert($0).inserted }
    }

    /// The schedules the web app offers (the new-habit form's three), with the habit's own
    /// first when it is another ("Keep: every 2 days").
    static func scheduleOptions(_ current: Schedule) -> [[String: Any]] {
        let offered: [(value: String, label: String, schedule: Schedule)] = [
            ("daily", "Every day", .daily),
            ("weekdays", "Weekdays", .weekdays([.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("3", "3 times a week", .timesPerWeek(3)),
        ]
        var options = offered.map { ["value": $0.value, "label": $0.label, "selected": $0.schedule == current] }
        if !offered.contains(where: { $0.schedule == current }) {
            options.insert(["value": "current", "label": "Keep: \(scheduleLabel(current))", "selected": true], at: 0)
        }
        return options
    }

    /// A schedule in words: "every day", "Mon, Wed, Fri", "3 times a week", "every 2 days".
    static func scheduleLabel(_ schedule: Schedule) -> String {
        switch schedule {
        case .daily: "every day"
        case .weekdays(let days): days.sorted().map { String($0.name.capitalized.prefix(3)) }.joined(separator: ", ")
        case .timesPerWeek(let n): n == 1 ? "once a week" : "\(n) times a week"
        case .timesPerMonth(let n): n == 1 ? "once a month" : "\(n) times a month"
        case .everyNDays(let n): n == 1 ? "every day" : "every \(n) days"
        case .monthly(let day): "monthly on day \(day)"
        case .yearly(let month, let day): "yearly on \(day) \(months[month - 1])"
        }
    }

    /// The pause form of Today (every habit) or of a habit's page: the pauses under way or
    /// to come (each with End now or Cancel), and the dates a new one may take — from the
    /// earliest day the backfill window allows, a week by default.
    static func pauseForm(
        _ pauses: [PausePeriod], today: LocalDay, names: [String: String], profile: Profile, habit: String?
    ) -> [String: Any] {
        let window = ((try? profile.rulePack()) ?? .habits).backfillDays(forEventType: "completion")
        var form: [String: Any] = [
            "today": today.description, "weekLater": today.advanced(by: 6).description,
            "backfill": window.map { $0 == 1 ? "1 day" : "\($0) days" } ?? "",
            "list": pauses.map { pause -> [String: Any] in
                [
                    "id": pause.id, "what": pause.habit.map { names[$0] ?? $0 } ?? "Every habit",
                    "from": longDay(pause.from), "until": longDay(pause.until), "note": pause.note ?? "",
                    "underway": pause.from <= today, "upcoming": pause.from > today,
                ]
            },
        ]
        if let window { form["earliest"] = today.advanced(by: -window).description }
        if let habit { form["habit"] = habit }
        form["hasList"] = !pauses.isEmpty
        return form
    }

    // MARK: Habit details

    func habit(_ caller: Caller, id: String) async throws -> [String: Any]? {
        guard let detail = try await server.dashboard.habitDetail(id, of: caller.user, calendarDays: 91) else {
            return nil
        }
        let (habit, analytics, unlocks, zone) = (detail.habit, detail.analytics, detail.unlocks, detail.zone)
        var page = try await chrome(caller, "today", title: habit.definition.name)
        page["habit"] = habitRow(habit)
        page["pauses"] = Self.pauseForm(
            detail.pauses, today: detail.today, names: [habit.definition.id: habit.definition.name],
            profile: try await server.accounts.profile(of: caller.user), habit: habit.definition.id)
        page["policy"] = habit.policy.name ?? "custom"
        page["breaks"] = habit.breaks
        page["startDay"] = Self.longDay(habit.startDay)
        page["weeks"] = calendarWeeks(habit, zone: ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!)
        if habit.current > 0, let start = habit.currentStreakStart { page["streakStart"] = Self.longDay(start) }
        if let archived = habit.archivedDay { page["archivedOn"] = Self.longDay(archived) }
        // A habit without a category keeps none unless one is chosen ("" is sent as no change).
        let category = habit.definition.category ?? ""
        let categories =
            (category.isEmpty ? [""] : Self.habitCategories.contains(category) ? [] : [category])
            + Self.habitCategories
        page["categoryOptions"] = categories.map {
            ["value": $0, "name": $0.isEmpty ? "No category" : $0, "selected": $0 == category]
        }
        page["difficulties"] = Difficulty.allCases.map {
            ["name": $0.rawValue, "selected": $0 == habit.definition.difficulty]
        }
        page["scheduleOptions"] = Self.scheduleOptions(habit.definition.schedule)
        page["group"] = habit.definition.group ?? ""
        page["groupNames"] = detail.groups
        if let analytics {
            page["rate30"] = analytics.rates.last30Days.percent ?? 0
            page["rateAll"] = analytics.rates.allTime.percent ?? 0
            page["strength"] = Int((analytics.strength.value * 100).rounded())
            page["totalDays"] = analytics.totalDaysCompleted
            page["trend"] =
                switch analytics.trend.direction {
                case .improving: "improving ↗"
                case .steady: "steady"
                case .declining: "declining ↘"
                case .insufficientData: "too few days yet to tell"
                }
            // A streak milestone the pack's rules unlocked shows once, as its badge.
            let unlocked = Set(
                unlocks.filter { $0.milestoneType == "streak" }.compactMap { $0.value.flatMap { Int(exactly: $0) } })
            page["milestones"] = analytics.milestones.filter { !unlocked.contains($0.streak) }.map {
                ["streak": $0.streak, "day": Self.longDay($0.day)]
            }
            page["historyWeeks"] = analytics.weeks.suffix(12).reversed().map(Self.period)
            page["historyMonths"] = analytics.months.reversed().map(Self.period)
            page["chart"] = Self.chart(analytics.last30Days)
            page["insights"] = Self.insights(analytics)
        }
        page["hasBadges"] = !unlocks.isEmpty || !(analytics?.milestones.isEmpty ?? true)
        page["badges"] = unlocks.sorted { $0.achievedAt < $1.achievedAt }.map {
            [
                "badge": $0.badge ?? "🏅", "title": $0.title, "day": Self.longDay($0.achievedDay), "unlock": $0.id,
                "shareable": $0.tier >= .notable,
            ] as [String: Any]
        }
        page["legend"] = [
            ["state": "completed", "label": "Done"], ["state": "grace", "label": "Grace (icy)"],
            ["state": "frozen", "label": "Freeze (snowy)"], ["state": "skipped", "label": "Skipped"],
            ["state": "paused", "label": "Paused (vacation)"],
            ["state": "missed", "label": "Missed"], ["state": "pending", "label": "Today, open"],
            ["state": "notStarted", "label": "Before the first check-in"],
        ]
        return page
    }

    /// The calendar as weeks (Monday first) of day cells; days before the window are blank.
    private func calendarWeeks(_ habit: HabitState, zone: ZoneOffsetTable) -> [[String: Any]] {
        guard let first = habit.calendar.first?.day else { return [] }
        let padding = first.weekday.rawValue - 1
        var cells: [[String: Any]] = Array(repeating: ["blank": true], count: padding)
        let streakStart = habit.current > 0 ? habit.currentStreakStart : nil
        for day in habit.calendar {
            let times = day.completions.map { Self.time($0.at, zone: zone) }
            let notes = day.completions.compactMap(\.note)
            var detail = "\(Self.longDay(day.day)) — \(Self.label(day.state, due: true))"
            if !times.isEmpty { detail += " · logged at \(times.joined(separator: ", "))" }
            if !notes.isEmpty { detail += " · “\(notes.joined(separator: "”, “"))”" }
            let inStreak = streakStart.map { day.day >= $0 && day.streak > 0 } ?? false
            var cell: [String: Any] = [
                "day": day.day.description, "number": day.day.civil.day, "state": day.state.rawValue,
                "border": day.border.rawValue, "inStreak": inStreak, "detail": detail,
                "hasNote": !notes.isEmpty,
            ]
            // The month is named on its first day, and on the calendar's first.
            if day.day.civil.day == 1 || cells.count == padding {
                cell["monthStart"] = String(Self.months[day.day.civil.month - 1].prefix(3))
            }
            cells.append(cell)
        }
        // One Tab stop for the whole calendar, on its last day; arrow keys move from there.
        if !cells.isEmpty { cells[cells.count - 1]["tabStop"] = true }
        return stride(from: 0, to: cells.count, by: 7).map { ["days": Array(cells[$0..<min(cells.count, $0 + 7)])] }
    }

    private static func period(_ period: PeriodSummary) -> [String: Any] {
        [
            "label": period.start.civil.day == 1 && period.end.civil.month == period.start.civil.month
                ? monthName(period.start) : "\(shortDay(period.start)) – \(shortDay(period.end))",
            "done": period.rate.done, "due": period.rate.due, "percent": period.rate.percent ?? 0,
        ]
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
                    + "class=\"bar\"><title>\(point.day): done</title></rect>"
            }
            line.append("\(fmt(x + step / 2)),\(fmt(plot - 10 - (point.rate7Days ?? 0) * (plot - 20)))")
        }
        // The last day under the right edge; the first under its own bar, unless it is too
        // close to the last to be read beside it (a habit a few days old).
        var labels = ""
        if let first = points.first, let last = points.last {
            if points.count > 1, Double(offset) * step < width - 100 {
                labels +=
                    "<text class=\"axis\" x=\"\(fmt(Double(offset) * step))\" y=\"156\">\(shortDay(first.day))</text>"
            }
            labels +=
                "<text class=\"axis\" x=\"\(fmt(width))\" y=\"156\" text-anchor=\"end\">\(shortDay(last.day))</text>"
        }
        return
            "<svg class=\"chart\" viewBox=\"0 0 \(fmt(width)) 160\" role=\"img\" "
            + "aria-label=\"Last 30 days: completions as bars, the 7-day completion rate as a line\">"
            + "<line class=\"baseline\" x1=\"0\" y1=\"\(fmt(plot))\" x2=\"\(fmt(width))\" y2=\"\(fmt(plot))\"/>"
            + bars + "<polyline class=\"rate\" fill=\"none\" points=\"\(line.joined(separator: " "))\"/>" + labels
            + "</svg>"
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

    // MARK: Memories

    func memories(_ caller: Caller, category: String?) async throws -> [String: Any] {
        let all = try await server.memories.list(of: caller.user)
        let onThisDay = try await server.memories.onThisDay(of: caller.user)
        var page = try await chrome(caller, "memories", title: "Memories")
        let shown = category.map { wanted in all.filter { $0.category == wanted } } ?? all
        page["memories"] = shown.map(memoryCard)
        page["noMemories"] = shown.isEmpty
        page["onThisDay"] = onThisDay.map(memoryCard)
        page["hasOnThisDay"] = !onThisDay.isEmpty
        page["categories"] =
            ([["name": "All", "href": "/memories", "current": category == nil]] as [[String: Any]])
            + Set(all.map(\.category)).sorted().map {
                ["name": $0.capitalized, "href": "/memories?category=\($0)", "current": $0 == category]
            }
        return page
    }

    private func memoryCard(_ memory: Memory) -> [String: Any] {
        [
            "id": memory.id,
            "escapedID": memory.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? memory.id,
            "title": memory.title, "caption": memory.caption, "category": memory.category,
            "day": Self.longDay(memory.day), "note": memory.note ?? "",
            "photo": memory.photo.map { "/v1/photos/\($0.original)" } ?? "",
            "hasPhoto": memory.photo != nil,
        ]
    }

    func share(_ caller: Caller, memory id: String) async throws -> [String: Any]? {
        let memory: Memory
        do {
            memory = try await server.memories.memory(id, of: caller.user)
        } catch let error as APIError where error.status == .notFound {
            return nil
        }
        var page = try await chrome(caller, "memories", title: "Share “\(memory.title)”")
        let card = memoryCard(memory)
        page["memory"] = card
        let escaped = card["escapedID"] as? String ?? id
        page["formats"] = ShareCardFormat.allCases.map { format in
            let base = "/v1/memories/\(escaped)/share-card?format=\(format.rawValue)"
            return [
                "name": format.rawValue.capitalized, "format": format.rawValue,
                "size": "\(format.width) × \(format.height)", "width": format.width, "height": format.height,
                "svg": base + "&type=svg", "png": base + "&type=png",
                "file": memory.unlockID.replacingOccurrences(of: "#", with: "-") + "-\(format.rawValue)",
            ]
        }
        return page
    }

    // MARK: Journey and profile

    func journey(_ caller: Caller) async throws -> [String: Any] {
        let journey = try await server.dashboard.journey(caller.user)
        let (progression, unlocks, analytics, zone) = (
            journey.progression, journey.unlocks, journey.analytics, journey.zone
        )
        let table = ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
        var page = try await chrome(caller, "journey", title: "Journey")
        page["timelines"] = progression.timelines.keys.sorted().map { method in
            let items = progression.timelines[method] ?? []
            return [
                "method": items.first?.methodName ?? method,
                "items": items.map {
                    [
                        "stage": $0.toStage.name, "number": $0.stageNumber, "count": $0.stageCount,
                        "kind": $0.kind.rawValue, "day": Self.longDate($0.advance.at, zone: table),
                        "note": $0.advance.note ?? "",
                    ] as [String: Any]
                },
            ] as [String: Any]
        }
        page["noProgression"] = progression.timelines.isEmpty
        page["methodsPracticed"] = progression.statistics.methodsPracticed
        page["totalAdvances"] = progression.statistics.totalAdvances
        page["regressions"] = progression.statistics.regressions
        var months: [(String, [Unlock])] = []
        for unlock in unlocks.sorted(by: { $0.achievedAt > $1.achievedAt }) {
            let month = Self.monthName(unlock.achievedDay)
            if months.last?.0 == month {
                months[months.count - 1].1.append(unlock)
            } else {
                months.append((month, [unlock]))
            }
        }
        // Cards and full-screen milestones by name; a month's small steps (tier 1: "5 days
        // in a row outside", each day) counted in one line instead of filling the page.
        page["months"] = months.map { month, unlocks in
            var entry: [String: Any] = [
                "month": month,
                "unlocks": unlocks.filter { $0.tier >= .notable }.map {
                    [
                        "badge": $0.badge ?? "🏅", "title": $0.title, "day": Self.longDay($0.achievedDay),
                        "tier": $0.tier.rawValue, "unlock": $0.id,
                    ]
                },
            ]
            let small = unlocks.filter { $0.tier < .notable }
            if let latest = small.first {
                entry["smallSteps"] =
                    small.count == 1
                    ? "1 small step: \(latest.title)" : "\(small.count) small steps, the latest: \(latest.title)"
            }
            return entry
        }
        page["achievements"] = unlocks.count
        page["consistency"] = analytics.consistency.score ?? 0
        page["totalDays"] = analytics.profile.totalDaysCompleted
        page["totalMilestones"] = analytics.profile.totalMilestones
        page["bestStreaks"] = analytics.profile.bestStreaks.map { ["name": $0.name, "best": $0.best] }
        page["hasBestStreaks"] = !analytics.profile.bestStreaks.isEmpty
        // Seed 004 R9.3: habits ranked on one scale, weighted by difficulty.
        page["comparison"] = analytics.comparison.map {
            [
                "rank": $0.rank, "name": $0.name, "difficulty": $0.difficulty.rawValue,
                "raw": Int($0.raw.rounded()), "adjusted": Int($0.adjusted.rounded()),
                "normalized": Int($0.normalized.rounded()),
            ] as [String: Any]
        }
        page["hasComparison"] = analytics.comparison.count > 1
        page.merge(try await milestoneSection(caller)) { current, _ in current }
        return page
    }

    func profile(_ caller: Caller) async throws -> [String: Any] {
        let profile = try await server.accounts.profile(of: caller.user)
        var page = try await chrome(caller, "profile", title: "Profile")
        let stats = try await server.dashboard.stats(caller.user)
        page["email"] = try await server.accounts.account(of: caller.user).email
        page["profile"] =
            [
                "displayName": profile.displayName, "dayStartHour": profile.dayStartHour,
                "reduceMotion": profile.preferences.accessibility.reduceMotion,
                "doNotDisturb": profile.preferences.doNotDisturb,
                "reminders": profile.notifications.reminders, "celebrations": profile.notifications.celebrations,
                "weeklySummary": profile.notifications.weeklySummary, "pack": profile.pack,
                "streakAtRisk": profile.notifications.streakAtRisk,
                "streakBroken": profile.notifications.streakBroken, "freezes": profile.notifications.freezes,
                "packs": profile.packs.joined(separator: "+"),
                "quiet": profile.notifications.quietHours != nil,
                "quietFrom": NotificationPreferences.clock(profile.notifications.quietHours?.from ?? 22 * 60),
                "quietTo": NotificationPreferences.clock(profile.notifications.quietHours?.to ?? 7 * 60),
                "dailyCap": profile.notifications.dailyCap.map(String.init) ?? "",
            ] as [String: Any]
        page["pushTargets"] = try await server.store.pushTargets(of: caller.user).map { target -> [String: Any] in
            let view = PushTargetView(target)
            return [
                "id": view.id, "label": view.label,
                "channel": target.channel == .apns ? "iPhone or iPad" : "Browser",
                "created": Self.longDay(
                    DayClock(dayStartHour: 0).localDay(
                        of: target.createdAt,
                        in: ZoneOffsetTable.named(profile.timeZone) ?? ZoneOffsetTable.named("UTC")!)),
            ]
        }
        page["hasPushTargets"] = !((page["pushTargets"] as? [[String: Any]])?.isEmpty ?? true)
        let notifications = profile.notifications
        page["reminderHours"] =
            [["value": "", "label": "When I usually check in", "selected": notifications.reminderHour == nil]]
            + (0..<24).map {
                [
                    "value": "\($0)", "label": NotificationPreferences.clock($0 * 60),
                    "selected": $0 == notifications.reminderHour,
                ]
            }
        page["weeklyDays"] = Weekday.allCases.map {
            ["value": $0.name, "label": $0.name.capitalized, "selected": $0 == notifications.weeklyDay]
        }
        page["weeklyHours"] = (0..<24).map {
            ["value": $0, "label": NotificationPreferences.clock($0 * 60), "selected": $0 == notifications.weeklyHour]
        }
        page["styles"] = CelebrationStyle.allCases.map {
            ["value": $0.rawValue, "label": $0.rawValue.capitalized, "selected": $0 == profile.preferences.style]
        }
        let zone = ZoneOffsetTable.named(profile.timeZone) ?? ZoneOffsetTable.named("UTC")!
        let day = { (instant: Date) in Self.longDay(DayClock(dayStartHour: 0).localDay(of: instant, in: zone)) }
        page["devices"] = try await server.accounts.devices(of: caller.user)
            .map { session -> [String: Any] in
                [
                    "id": Tokens.deviceID(session.tokenHash), "name": session.deviceName,
                    "current": session.tokenHash == caller.tokenHash, "created": day(session.createdAt),
                    "lastSeen": day(session.lastSeenAt),
                ]
            }
        page["zones"] = Self.zones(selected: profile.timeZone)
        page["packChoices"] = Self.packChoices(checked: profile.packs)
        page["hours"] = (0..<24).map { ["value": $0, "selected": $0 == profile.dayStartHour] }
        page["stats"] =
            [
                "habitsActive": stats.statistics.habitsActive, "totalDays": stats.statistics.totalDaysCompleted,
                "milestones": stats.statistics.totalMilestones, "consistency": stats.consistency.score ?? 0,
                "strength": stats.statistics.averageStrength ?? 0, "events": stats.events,
            ] as [String: Any]
        return page
    }

    /// The bundled packs as the sign-up and profile forms offer them.
    static func packChoices(checked: [String]) -> [[String: Any]] {
        let hints = [
            "habits": "streaks, freezes and insights", "ollie": "a puppy’s journal and firsts",
            "savings": "goals and contributions", "growth": "stages of a practice",
        ]
        return RulePack.bundledOrder.compactMap { name in
            guard let pack = RulePack.bundled[name] else { return nil }
            return [
                "value": name, "label": pack.title, "icon": pack.icon ?? "", "hint": hints[name] ?? "",
                "checked": checked.contains(name),
            ]
        }
    }

    /// Every IANA zone the server knows, with one selected.
    static func zones(selected: String) -> [[String: Any]] {
        var names = TimeZone.knownTimeZoneIdentifiers.sorted()
        if !names.contains(selected) { names.insert(selected, at: 0) }
        return names.map { ["name": $0, "selected": $0 == selected] }
    }

    // MARK: Formatting

    static func label(_ state: DayState, due: Bool) -> String {
        switch state {
        case .completed: "done"
        case .grace: "grace day"
        case .frozen: "freeze used"
        case .missed: "missed"
        case .skipped: "skipped"
        case .paused: "paused"
        case .archived: "archived"
        case .pending: due ? "to do" : "not due"
        case .beforeStart: "before start"
        case .notStarted: "not started yet"
        case .notDue: "not due"
        case .future: "ahead"
        }
    }

    /// What the analytics say about a habit, in sentences (seed 004 R6, R7, R9.3): the best
    /// weekday, the scores weighted by difficulty, and encouragement or coaching after a break.
    static func insights(_ analytics: HabitAnalytics) -> [String: Any] {
        var insights: [String: Any] = [:]
        if let weekday = analytics.mostConsistentWeekday,
            let rate = analytics.weekdays.first(where: { $0.weekday == weekday })?.rate.percent
        {
            insights["bestWeekday"] = "\(weekday.name.capitalized)s are your strongest day: \(rate)% done."
        }
        insights["weekdays"] = analytics.weekdays.map { day -> [String: Any] in
            let percent = day.rate.percent ?? 0
            return [
                "day": String(day.weekday.name.capitalized.prefix(3)), "percent": percent,
                "best": day.weekday == analytics.mostConsistentWeekday,
                "counted": day.rate.percent != nil,
            ]
        }
        let score = analytics.score
        insights["score"] =
            [
                "raw": Int(score.raw.rounded()), "adjusted": Int(score.adjusted.rounded()),
                "normalized": Int(score.normalized.rounded()),
                "weight": fmt(score.weight).replacingOccurrences(of: ".0", with: ""),
                "difficulty": analytics.difficulty.rawValue,
            ] as [String: Any]
        if let encouragement = analytics.coaching.encouragement { insights["encouragement"] = encouragement }
        if let recovery = analytics.coaching.recovery {
            insights["recovery"] =
                [
                    "restart": recovery.restart, "stillCounts": recovery.stillCounts,
                    "guidance": recovery.guidance.map(\.message), "reminder": recovery.reminder.message,
                ] as [String: Any]
        }
        return insights
    }

    /// `1 week`'s word or `3 weeks`' (the number is the caller's to write).
    static func plural(_ count: Int, _ unit: String) -> String {
        count == 1 ? unit : unit + "s"
    }

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    static func longDay(_ day: LocalDay) -> String { day.readable }

    static func shortDay(_ day: LocalDay) -> String {
        let (_, month, date) = day.civil
        return "\(date) \(months[month - 1].prefix(3))"
    }

    static func monthName(_ day: LocalDay) -> String {
        let (year, month, _) = day.civil
        return "\(months[month - 1]) \(year)"
    }

    /// The local day of an instant in the user's zone, written out.
    static func longDate(_ date: Date, zone: ZoneOffsetTable) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down) + Double(zone.offset(at: date))
        return longDay(LocalDay(number: Int((seconds / 86_400).rounded(.down))))
    }

    /// The local time of an instant in the user's zone, `HH:mm`.
    static func time(_ date: Date, zone: ZoneOffsetTable) -> String {
        let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + zone.offset(at: date)
        let minutes = ((seconds / 60) % 1_440 + 1_440) % 1_440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    // MARK: Notifications

    /// The in-app inbox: the newest notifications, unread ones marked.
    func notifications(_ caller: Caller, before: String?) async throws -> [String: Any] {
        let (state, profile) = try await server.dashboard.state(caller.user, calendarDays: 1)
        var page = chrome("notifications", title: "Notifications", wallet: state.wallet, profile: profile)
        let inbox = try await server.notifications.inbox(of: caller.user, before: before, limit: 50)
        let zone = ZoneOffsetTable.named(state.timeZone) ?? ZoneOffsetTable.named("UTC")!
        page["notifications"] = inbox.notifications.map { entry -> [String: Any] in
            let notification = entry.notification
            let local = entry.createdAt.addingTimeInterval(TimeInterval(zone.offset(at: entry.createdAt)))
            let minute = Int(local.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 60)
            let day = DayClock(dayStartHour: 0).localDay(of: entry.createdAt, in: zone)
            return [
                "key": notification.key, "title": notification.title, "body": notification.body,
                "url": notification.url, "kind": notification.kind.rawValue, "unread": entry.readAt == nil,
                "icon": Self.notificationIcon(notification.kind),
                "when": "\(Self.longDay(day)), \(NotificationPreferences.clock(max(0, min(1439, minute))))",
            ]
        }
        page["noNotifications"] = inbox.notifications.isEmpty
        page["hasUnread"] = inbox.unread > 0
        page["next"] = inbox.next ?? ""
        return Self.dropEmpty(page)
    }

    /// Each kind's emblem in the inbox.
    static func notificationIcon(_ kind: NotificationKind) -> String {
        switch kind {
        case .streakAtRisk: "⏳"
        case .reminder: "⏰"
        case .milestone: "🏆"
        case .streakBroken: "🌱"
        case .weeklyProgress: "📈"
        case .freezeOffered: "🧊"
        case .freezeUsed: "❄️"
        case .reaction: "🎉"
        case .nudge: "👋"
        case .friend: "🤝"
        }
    }
}
