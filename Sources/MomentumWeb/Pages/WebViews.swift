import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// Builds the web pages' typed models (`Views/`) from the engine's state: each page's model
/// holds what its template reads, worded, so the templates stay logic-less.
struct WebViews: Sendable {
    let services: Services
    let configuration: ServerConfiguration

    /// What every signed-in page shows: the top bar's counters, the navigation, the store
    /// and the celebration settings.
    func layout(_ caller: Caller, _ section: String, title: String) async throws -> Chrome {
        let (state, profile) = try await services.dashboard.state(caller.user, calendarDays: 1)
        return layout(section, title: title, wallet: state.wallet, profile: profile)
    }

    /// The same, from a wallet and profile the page has already evaluated.
    func layout(_ section: String, title: String, wallet: Wallet, profile: Profile) -> Chrome {
        let pack = (try? profile.rulePack(in: services.packs.library)) ?? .habits
        let catalog = pack.store
        let sections =
            [("today", L("common.nav.today"))] + Self.packLinks(pack)
            + ["memories", "journey", "feed", "friends", "profile"].map { ($0, L("common.nav.\($0)")) }
        return Chrome(
            title: title,
            displayName: profile.displayName.isEmpty ? L("common.you") : profile.displayName,
            diamonds: wallet.diamonds, freezes: wallet.freezes,
            diamondsLabel: Wording.current.count("common.diamondsLabel", wallet.diamonds),
            freezesLabel: Wording.current.count("common.freezesLabel", wallet.freezes),
            reduceMotion: profile.preferences.accessibility.reduceMotion,
            celebrationStyle: profile.preferences.style.rawValue, timeZone: profile.timeZone,
            nav: sections.map { Chrome.Link(href: "/\($0.0)", label: $0.1, current: $0.0 == section) },
            store: Chrome.Store(
                items: catalog.items.map {
                    Chrome.Store.Item(
                        id: $0.id, freezes: $0.freezes, diamonds: $0.diamonds,
                        label: Wording.current.count("common.store.freezes", $0.freezes))
                },
                price: catalog.customPricePerFreeze, maximum: catalog.customMaximum))
    }

    // MARK: Today

    func today(_ caller: Caller) async throws -> (TodayPage, Chrome) {
        let (state, profile) = try await services.dashboard.state(caller.user, calendarDays: 7)
        let chrome = layout("today", title: L("today.title"), wallet: state.wallet, profile: profile)
        let names = Dictionary(
            state.habits.map { ($0.definition.id, $0.definition.name) }, uniquingKeysWith: { a, _ in a })
        let position = Dictionary(state.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let active = state.habits.filter { $0.archivedDay == nil }
            .sorted { (position[$0.definition.id] ?? .max) < (position[$1.definition.id] ?? .max) }
        let pauses = state.pauses.filter { $0.until >= state.today }
        // The packs with forms each have a section: the puppy's one-tap logs, the savings
        // goals, the growth stages. Habits show when the account tracks them or has some.
        let pack = (try? profile.rulePack(in: services.packs.library)) ?? .habits
        let tracksHabits = pack.memberNames.contains("habits") || !state.habits.isEmpty
        var page = TodayPage(
            dayLabel: Self.longDay(state.today),
            groups: Self.habitGroups(active).map { group in
                TodayPage.Group(
                    name: group.name, grouped: !group.name.isEmpty, count: group.habits.count,
                    habits: group.habits.map(habitRow))
            },
            movable: active.count > 1, groupNames: Self.groupNames(state.habits),
            noHabits: active.isEmpty && tracksHabits,
            archived: state.habits.filter { $0.archivedDay != nil }.map { habit in
                TodayPage.Archived(
                    id: habit.definition.id, name: habit.definition.name,
                    archivedOn: habit.archivedDay.map(Self.longDay) ?? "",
                    archivedLabel: L("today.archived.on", ["day": habit.archivedDay.map(Self.longDay) ?? ""]))
            },
            hasArchived: state.habits.contains { $0.archivedDay != nil },
            offers: state.freezeOffers.map {
                TodayPage.Offer(
                    habit: $0.habit, name: names[$0.habit] ?? $0.habit, day: $0.day.description,
                    dayLabel: Self.longDay($0.day), after: L("today.offer.after", ["day": Self.longDay($0.day)]))
            },
            categories: Self.habitCategories.map { TodayPage.Category(value: $0, label: Self.habitCategoryLabel($0)) },
            pauses: Self.pauseForm(
                pauses.filter { $0.habit == nil }, today: state.today, names: names, profile: profile, habit: nil,
                packs: services.packs.library),
            showHabits: tracksHabits)
        if let vacation = pauses.first(where: { $0.habit == nil && $0.from <= state.today }) {
            let until = Self.longDay(vacation.until)
            let note = vacation.note ?? ""
            page.vacation = TodayPage.Vacation(
                until: until, note: note,
                text: note.isEmpty
                    ? L("today.vacation.text", ["until": until])
                    : L("today.vacation.withNote", ["until": until, "note": note]))
        }
        if pack.members.contains(where: { !$0.forms.isEmpty }) {
            page.packs = packSections(try await services.dashboard.journal(caller.user, recent: 0))
        }
        return (page, chrome)
    }

    /// The categories the web app offers for a habit (the values stored; see ``habitCategoryLabel(_:)``).
    static let habitCategories = ["health", "fitness", "mind", "learning", "home", "social", "finance", "other"]

    /// A category as the page's language names it; one of the user's own as it is.
    static func habitCategoryLabel(_ category: String) -> String {
        switch category {
        case "health": L("habit.category.health")
        case "fitness": L("habit.category.fitness")
        case "mind": L("habit.category.mind")
        case "learning": L("habit.category.learning")
        case "home": L("habit.category.home")
        case "social": L("habit.category.social")
        case "finance": L("habit.category.finance")
        case "other": L("habit.category.other")
        default: category
        }
    }

    /// A difficulty as the page's language names it.
    static func difficultyLabel(_ difficulty: Difficulty) -> String {
        switch difficulty {
        case .easy: L("habit.difficulty.easy")
        case .medium: L("habit.difficulty.medium")
        case .hard: L("habit.difficulty.hard")
        }
    }

    func habitRow(_ habit: HabitState) -> HabitRow {
        let name = habit.definition.name
        let units = Self.plural(habit.current, habit.streakUnit)
        return HabitRow(
            id: habit.definition.id, name: name, category: habit.definition.category ?? "",
            categoryName: habit.definition.category.map(Self.habitCategoryLabel) ?? "",
            categoryLabel: habit.definition.category.map { "\(Self.habitCategoryLabel($0)) · " } ?? "",
            current: habit.current, best: habit.best,
            unit: habit.streakUnit, units: units, unitLabel: habit.streakUnit == "day" ? "" : units,
            bestUnits: Self.plural(habit.best, habit.streakUnit),
            streakLabel: L(
                "today.row.streakLabel", ["current": String(habit.current), "units": units, "best": String(habit.best)]),
            doneLabel: L("today.row.doneLabel", ["name": name]),
            checkInLabel: L("today.row.checkInLabel", ["name": name]),
            moveUpLabel: L("today.row.moveUp", ["name": name]),
            moveDownLabel: L("today.row.moveDown", ["name": name]),
            shield: habit.shieldActive, done: habit.today.state == .completed,
            skipped: habit.today.state == .skipped, due: habit.today.due,
            needed: habit.today.due && habit.today.state != .notDue && habit.today.state != .paused,
            paused: habit.today.state == .paused,
            status: Self.label(habit.today.state, due: habit.today.due),
            border: habit.border.rawValue, target: Self.targetFields(habit),
            week: habit.calendar.suffix(7).map { day in
                HabitRow.Day(
                    day: day.day.description, state: day.state.rawValue,
                    label: "\(Self.shortDay(day.day)): \(Self.label(day.state, due: true))")
            })
    }

    /// A numeric habit's target and today's progress toward it, for the page: the amount,
    /// the unit, what was logged, a sentence ("5 of 8 glasses") and the meter's numbers.
    /// Empty for a check-off habit, so that templates show its Check in button instead.
    static func targetFields(_ habit: HabitState) -> HabitTarget {
        let target = habit.definition.target
        let name = habit.definition.name
        var fields = HabitTarget(
            kind: target.comparison.rawValue, amount: attribute(target.amount), measure: target.unit ?? "",
            logLabel: L("today.amount.logLabel", ["name": name]),
            amountLabel: (target.unit ?? "").isEmpty
                ? L("today.amount.of", ["name": name])
                : L("today.amount.ofIn", ["name": name, "measure": target.unit ?? ""]),
            isCheck: target.comparison == .check, isAtLeast: target.comparison == .atLeast,
            isAtMost: target.comparison == .atMost)
        guard target.comparison != .check else { return fields }
        let logged = habit.today.logged.isFinite ? max(0, habit.today.logged) : 0
        let unit = target.unit.map { " \($0)" } ?? ""
        let atMost = target.comparison == .atMost
        let over = atMost && logged > target.amount
        fields.numeric = true
        fields.atMost = atMost
        fields.over = over
        fields.logged = attribute(logged)
        fields.meterMax = attribute(max(target.amount, atMost ? logged : 0, 1))
        fields.meterValue = attribute(min(logged, max(target.amount, atMost ? logged : 0)))
        let words = ["amount": written(target.amount), "logged": written(logged), "unit": unit]
        fields.goal = atMost ? L("today.amount.goalAtMost", words) : L("today.amount.goal", words)
        fields.progress =
            if over {
                L("today.amount.over", words)
            } else if atMost {
                L("today.amount.progressAtMost", words)
            } else {
                L("today.amount.progress", words)
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
    static func scheduleOptions(_ current: Schedule) -> [ScheduleOption] {
        let offered: [(value: String, label: String, schedule: Schedule)] = [
            ("daily", L("habit.schedule.daily"), .daily),
            ("weekdays", L("habit.schedule.weekdays"), .weekdays([.monday, .tuesday, .wednesday, .thursday, .friday])),
            ("3", L("habit.schedule.three"), .timesPerWeek(3)),
        ]
        var options = offered.map {
            ScheduleOption(value: $0.value, label: $0.label, selected: $0.schedule == current)
        }
        if !offered.contains(where: { $0.schedule == current }) {
            options.insert(
                ScheduleOption(
                    value: "current", label: L("habit.schedule.keep", ["schedule": scheduleLabel(current)]),
                    selected: true),
                at: 0)
        }
        return options
    }

    /// A schedule in words: "every day", "Mon, Wed, Fri", "3 times a week", "every 2 days".
    static func scheduleLabel(_ schedule: Schedule) -> String {
        let strings = Wording.current
        return switch schedule {
        case .daily: L("habit.schedule.everyDay")
        case .weekdays(let days): days.sorted().map(weekdayShort).joined(separator: ", ")
        case .timesPerWeek(let n): strings.count("habit.schedule.perWeek", n)
        case .timesPerMonth(let n): strings.count("habit.schedule.perMonth", n)
        case .everyNDays(let n): n == 1 ? L("habit.schedule.everyDay") : strings.count("habit.schedule.everyNDays", n)
        case .monthly(let day): L("habit.schedule.monthly", ["day": String(day)])
        case .yearly(let month, let day): L("habit.schedule.yearly", ["day": String(day), "month": fullMonth(month)])
        }
    }

    /// The pause form of Today (every habit) or of a habit's page: the pauses under way or
    /// to come (each with End now or Cancel), and the dates a new one may take — from the
    /// earliest day the backfill window allows, a week by default.
    static func pauseForm(
        _ pauses: [PausePeriod], today: LocalDay, names: [String: String], profile: Profile, habit: String?,
        packs: PackLibrary
    ) -> PauseForm {
        let window = ((try? profile.rulePack(in: packs)) ?? .habits).backfillDays(forEventType: "completion")
        return PauseForm(
            today: today.description, weekLater: today.advanced(by: 6).description,
            backfill: window.map { Wording.current.count("today.pause.backfill", $0) } ?? "",
            list: pauses.map { pause in
                PauseForm.Item(
                    id: pause.id, what: pause.habit.map { names[$0] ?? $0 } ?? L("today.pause.everyHabit"),
                    from: longDay(pause.from), until: longDay(pause.until), note: pause.note ?? "",
                    underway: pause.from <= today, upcoming: pause.from > today)
            },
            earliest: window.map { today.advanced(by: -$0).description }, habit: habit, hasList: !pauses.isEmpty)
    }
}
