import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The pages of the packs a user tracks (the puppy journal, savings, growth) and their
/// sections on Today, rendered from the packs' logging forms: a new pack with forms needs no
/// new page.
extension WebViews {
    /// The page of one of the user's packs (`/packs/ollie`); `nil` when they do not track it
    /// or it has no forms.
    func packPage(_ caller: Caller, pack name: String) async throws -> [String: Any]? {
        let journal = try await services.dashboard.journal(caller.user, recent: 15)
        guard let member = journal.pack.members.first(where: { $0.name == name }), !member.forms.isEmpty else {
            return nil
        }
        let title = Self.title(of: member, journal)
        var page = try await chrome(caller, "packs/\(name)", title: title)
        page["section"] = section(member, journal, whole: true)
        // The subject's family (the puppy's caregivers) on its profile.
        if let subject = Self.subject(for: member, journal),
            var family = try await familyOfSubject(caller, subject: subject.id)
        {
            family["others"] = (family["others"] as? [[String: Any]])?.map { other in
                other.merging(["roleName": Self.roleName(other["role"] as? String ?? "")]) { _, new in new }
            }
            page["family"] = family
        }
        return page
    }

    /// Today's section of each pack with forms that the user tracks: its one-tap forms and
    /// what matters today.
    func packSections(_ journal: JournalPage) -> [[String: Any]] {
        journal.pack.members.filter { !$0.forms.isEmpty }.map { section($0, journal, whole: false) }
    }

    /// The navigation entries of the user's packs with forms.
    static func packLinks(_ pack: RulePack) -> [(String, String)] {
        pack.members.filter { !$0.forms.isEmpty }.map { ("packs/\($0.name)", $0.title) }
    }

    /// A pack's title, named after the puppy when there is one ("Ollie's journal").
    static func title(of pack: RulePack, _ journal: JournalPage) -> String {
        if pack.forms.contains(where: { $0.type == "subject" }), let subject = subject(for: pack, journal) {
            return L("packs.journal", ["name": subject.name])
        }
        return pack.title
    }

    /// The subject a pack's subject form edits (the puppy); `nil` for a pack without one.
    private static func subject(for pack: RulePack, _ journal: JournalPage) -> Subject? {
        let forms = pack.forms.filter { $0.type == "subject" }
        guard !forms.isEmpty else { return nil }
        let kinds = Set(forms.compactMap { $0.values["kind"] })
        return journal.subjects.first { kinds.isEmpty || kinds.contains($0.kind) }
    }

    private func section(_ pack: RulePack, _ journal: JournalPage, whole: Bool) -> [String: Any] {
        let kinds = Set(pack.forms.compactMap(\.kind))
        var section: [String: Any] = [
            "name": pack.name, "title": Self.title(of: pack, journal), "icon": pack.icon ?? "",
            "href": "/packs/\(pack.name)", "whole": whole,
            "forms": Self.ordered(pack.forms.filter { whole || $0.today }, journal).map {
                form($0, pack, journal, whole: whole)
            },
        ]
        // The subject's card: who the journal is about, and how old.
        if let subject = Self.subject(for: pack, journal) {
            var card: [String: Any] = [
                "id": subject.id, "name": subject.name, "emblem": pack.icon ?? "📷",
                "hasPhoto": subject.photo != nil, "photo": subject.photo.map { "/v1/photos/\($0)" } ?? "",
            ]
            if let born = subject.dates["born"] {
                card["age"] = L("packs.subject.age", ["age": Self.age(from: born, to: journal.today)])
                card["born"] = Self.longDay(born)
            }
            if let gotcha = subject.dates["gotcha"] {
                card["gotcha"] = L("packs.subject.homeSince", ["day": Self.longDay(gotcha)])
            }
            card["addPhoto"] = L("packs.subject.addPhoto", ["name": subject.name])
            card["removePhotoLabel"] = L("packs.subject.removePhotoLabel", ["name": subject.name])
            card["shareWithFamily"] = L("packs.subject.shareWithFamily", ["name": subject.name])
            section["subject"] = card
        } else if pack.forms.contains(where: { $0.type == "subject" }) {
            section["noSubject"] = true
        }
        // Streaks of logged activities, named by the form that logs them.
        section["streaks"] = journal.journal.streaks.filter { kinds.contains($0.kind) }.map { streak -> [String: Any] in
            let form = pack.forms.first { $0.kind == streak.kind && $0.values.isEmpty }
            let option = form?.fields.flatMap(\.options).first { $0.value == streak.item }
            let label = [form?.title, option?.label].compactMap { $0 }.joined(separator: ": ")
            return [
                "label": label.isEmpty ? streak.kind : label, "icon": option?.icon ?? form?.icon ?? "🔥",
                "current": Self.integer(streak.current),
                "best": L("packs.streak.best", ["best": Self.integer(streak.best)]),
                "days": Wording.current.count("packs.streak.inARow", streak.current),
            ]
        }
        if whole { section["stats"] = stats(pack, journal) }
        section["hasStreaks"] = !(section["streaks"] as? [Any] ?? []).isEmpty
        if pack.forms.contains(where: { $0.type == "goal" }) {
            section["goals"] = goals(pack, journal)
            section["hasGoals"] = !journal.journal.goals.isEmpty
            section["noGoals"] = journal.journal.goals.isEmpty
            section["ladder"] = ladder(pack, journal.journal.totalSaved)
            section["totalSaved"] = Self.money(journal.journal.totalSaved)
        }
        if !pack.methods.isEmpty { section["methods"] = methods(pack, journal, whole: whole) }
        if whole {
            section["recent"] = recent(pack, journal)
            let rules = Set(pack.achievements.map(\.id))
            section["badges"] = journal.unlocks.filter { rules.contains($0.rule) && $0.tier >= .notable }
                .sorted { $0.achievedAt > $1.achievedAt }.prefix(8).map {
                    [
                        "badge": $0.badge ?? "🏅", "title": $0.title, "day": Self.longDay($0.achievedDay),
                        "unlock": $0.id,
                        "postLabel": L("packs.postLabel", ["title": $0.title]),
                    ]
                }
            section["hasRecent"] = !(section["recent"] as? [Any] ?? []).isEmpty
            section["hasBadges"] = !(section["badges"] as? [Any] ?? []).isEmpty
        }
        section["hasStats"] = !(section["stats"] as? [Any] ?? []).isEmpty
        return Self.dropEmpty(section)
    }

    /// A template context without its empty strings: a template's `{{#hint}}` is true of
    /// any string, the empty one too. (`value` stays: an empty field is a value.)
    static func dropEmpty(_ context: [String: Any]) -> [String: Any] {
        context.filter { $0.key == "value" || ($0.value as? String)?.isEmpty != true }
    }

    // MARK: Forms

    /// A form's template context; Today's copy (`whole` false) logs for today only, the
    /// pack's page offers an earlier day too.
    private func form(_ form: LogForm, _ pack: RulePack, _ journal: JournalPage, whole: Bool) -> [String: Any] {
        var values = form.values
        var prefill: [String: String] = [:]
        var submit = L("packs.form.log")
        switch form.type {
        case "subject":
            // The puppy's profile edits the puppy there is, or adds the first.
            submit = L("packs.form.save")
            if let subject = Self.subject(for: pack, journal) {
                values["subject"] = subject.id
                prefill["name"] = subject.name
                for (key, day) in subject.dates { prefill["dates.\(key)"] = day.description }
            }
        case "goal": submit = L("packs.form.createGoal")
        case "stage": submit = L("packs.form.record")
        case "contribution": submit = L("packs.form.add")
        default: break
        }
        var context: [String: Any] = [
            "key": "\(pack.name)-\(form.id)", "title": form.title, "icon": form.icon ?? "", "hint": form.hint ?? "",
            "type": form.type, "kind": form.kind ?? "", "newID": values["subject"] == nil ? form.newID ?? "" : "",
            "values": Self.json(values), "submit": submit,
        ]
        if form.backdate, whole {
            let earliest = pack.backfillDays.map { journal.today.advanced(by: -$0) }
            context["backdate"] = Self.dropEmpty([
                "max": journal.today.description, "min": earliest?.description ?? "",
                "window": pack.backfillDays.map { Wording.current.count("packs.form.daysBack", $0) }
                    ?? L("packs.form.anyEarlierDay"),
            ])
        }
        let taps = form.fields.first { $0.input == .buttons || $0.input == .checklist }
        if let taps {
            let done = journal.journal.items[form.kind ?? ""] ?? []
            let options = taps.options.map { option -> [String: Any] in
                let key = option.group.map { "\($0)/\(option.value)" } ?? option.value
                return [
                    "value": option.value, "label": option.label, "icon": option.icon ?? "",
                    "group": option.group ?? "", "done": taps.input == .checklist && done.contains(key),
                ]
            }
            if taps.input == .checklist {
                var groups: [(String, [[String: Any]])] = []
                for option in options {
                    let group = option["group"] as? String ?? ""
                    if groups.last?.0 == group {
                        groups[groups.count - 1].1.append(option)
                    } else {
                        groups.append((group, [option]))
                    }
                }
                let checked = options.filter { $0["done"] as? Bool == true }.count
                context["checklist"] = [
                    "field": taps.name,
                    "groups": groups.map { group, options in
                        [
                            "label": Self.groupName(group), "options": options,
                            "progress": "\(options.filter { $0["done"] as? Bool == true }.count)/\(options.count)",
                        ] as [String: Any]
                    },
                    "progress": L(
                        "packs.form.checkedOff", ["done": Self.integer(checked), "total": Self.integer(options.count)]),
                ]
            } else {
                context["buttons"] = ["field": taps.name, "options": options]
            }
        }
        let others = form.fields.filter { $0.input != .buttons && $0.input != .checklist }
        context["fields"] = others.map { field(form, $0, pack, journal, value: prefill[$0.name]) }
        context["hasFields"] = !others.isEmpty || (form.backdate && whole)
        // A form of taps alone records on a tap; one with fields too has a submit button.
        context["hasSubmit"] = taps == nil
        if form.fields.contains(where: { $0.from == .goals }), journal.journal.goals.isEmpty {
            context["needsGoal"] = true
        }
        return Self.dropEmpty(context)
    }

    /// The forms in the pack's order, except that one that needs a goal comes after the
    /// others while the user has none (a new saver sees "New goal" first).
    private static func ordered(_ forms: [LogForm], _ journal: JournalPage) -> [LogForm] {
        guard journal.journal.goals.isEmpty else { return forms }
        let needsGoal = { (form: LogForm) in form.fields.contains { $0.from == .goals } }
        return forms.filter { !needsGoal($0) } + forms.filter(needsGoal)
    }

    private func field(
        _ form: LogForm, _ field: LogField, _ pack: RulePack, _ journal: JournalPage, value: String?
    ) -> [String: Any] {
        var context: [String: Any] = [
            "name": field.name, "label": field.label, "required": field.required, "value": value ?? "",
            "placeholder": field.placeholder ?? "", "unit": field.unit ?? "",
            "id": "f-\(pack.name)-\(form.id)-\(field.name.replacingOccurrences(of: ".", with: "-"))",
        ]
        context[field.input.rawValue] = true
        if let minimum = field.minimum { context["min"] = Self.attribute(minimum) }
        if let maximum = field.maximum { context["max"] = Self.attribute(maximum) }
        if field.input == .date { context["max"] = journal.today.description }
        if !field.suggestions.isEmpty {
            // Suggestions not logged yet come first (a command already learned is still offered).
            let logged = journal.journal.items[form.kind ?? ""] ?? []
            context["suggestions"] =
                field.suggestions.filter { !logged.contains($0) } + field.suggestions.filter(logged.contains)
            context["hasSuggestions"] = true
        }
        switch field.from {
        case .goals:
            // With one goal open, it is the one chosen.
            let open = journal.journal.goals.filter { !$0.completed }
            context["options"] = journal.journal.goals.map {
                [
                    "value": $0.goal.id, "label": $0.goal.name,
                    "selected": open.count == 1 && open[0].goal.id == $0.goal.id,
                ] as [String: Any]
            }
        case .methods:
            // Each method carries the stage it is at (the record's `from`) and the next one,
            // which the stage choice offers first.
            context["options"] = pack.methods.map { method in
                let current = journal.progression.timelines[method.id]?.last?.toStage
                let ordered = method.stages.sorted { $0.order < $1.order }
                let next = current.flatMap { stage in ordered.first { $0.order > stage.order } } ?? ordered.first
                return Self.dropEmpty([
                    "value": method.id, "label": method.name, "selected": false, "from": current?.id ?? "",
                    "next": current?.id == ordered.last?.id ? "" : next?.id ?? "",
                ])
            }
        case .stages:
            context["groups"] = pack.methods.map { method in
                [
                    "label": method.name, "method": method.id,
                    "options": method.stages.sorted { $0.order < $1.order }.map {
                        ["value": $0.id, "label": "\($0.order). \($0.name)", "method": method.id]
                    },
                ] as [String: Any]
            }
        case nil:
            context["options"] = field.options.map {
                [
                    "value": $0.value, "label": [$0.icon, $0.label].compactMap { $0 }.joined(separator: " "),
                    "selected": $0.value == value,
                ] as [String: Any]
            }
        }
        let options = context["options"] as? [[String: Any]] ?? []
        context["hasSelection"] = options.contains { $0["selected"] as? Bool == true }
        return Self.dropEmpty(context)
    }

    // MARK: Read-outs

    /// Counts per form: walks logged, dogs met, the checklist's coverage, the latest weight.
    private func stats(_ pack: RulePack, _ journal: JournalPage) -> [[String: Any]] {
        var stats: [[String: Any]] = []
        for form in pack.forms where form.type == "log" {
            guard let kind = form.kind else { continue }
            let items = journal.journal.items[kind] ?? []
            if let number = form.fields.first(where: { $0.input == .number && $0.required }) {
                guard let latest = journal.journal.latestValues[kind] else { continue }
                stats.append([
                    "icon": form.icon ?? "", "label": form.title,
                    "value": "\(Self.number(latest.value)) \(number.unit ?? "")".trimmingCharacters(in: .whitespaces),
                    "note": Self.shortDay(latest.day),
                ])
            } else if let checklist = form.fields.first(where: { $0.input == .checklist }) {
                let done = checklist.options.filter { items.contains("\($0.group ?? "")/\($0.value)") }.count
                stats.append([
                    "icon": form.icon ?? "", "label": form.title, "value": "\(done)/\(checklist.options.count)",
                    "note": L("packs.stats.experiences"),
                ])
            } else if let group = form.values["group"] {
                let count = items.filter { $0.hasPrefix("\(group)/") }.count
                stats.append([
                    "icon": form.icon ?? "", "label": form.title, "value": Self.integer(count),
                    "note": L("packs.stats.soFar"),
                ])
            } else if form.fields.contains(where: { $0.name == "item" && $0.input == .text }) {
                stats.append([
                    "icon": form.icon ?? "", "label": form.title, "value": Self.integer(items.count),
                    "note": L("packs.stats.different"),
                ])
            } else if let count = journal.journal.counts[kind], form.fields.allSatisfy({ $0.input != .buttons }) {
                stats.append([
                    "icon": form.icon ?? "", "label": form.title, "value": Self.integer(count),
                    "note": L("packs.stats.logged"),
                ])
            }
        }
        return stats
    }

    private func goals(_ pack: RulePack, _ journal: JournalPage) -> [[String: Any]] {
        let categories = pack.forms.flatMap(\.fields).first { $0.name == "category" }?.options ?? []
        return journal.journal.goals.map { goal in
            let category = categories.first { $0.value == goal.goal.category }
            let percent = Int((goal.fraction * 100).rounded(.down))
            return [
                "id": goal.goal.id, "name": goal.goal.name, "icon": category?.icon ?? "💰",
                "category": category?.label ?? goal.goal.category, "percent": percent, "completed": goal.completed,
                "progress": L(
                    "packs.goals.progress",
                    ["saved": Self.money(goal.saved), "target": Self.money(goal.goal.target)]),
                "left": L("packs.goals.left", ["left": Self.money(max(0, goal.goal.target - goal.saved))]),
            ]
        }
    }

    /// Seed 002's milestone tiers on the way: each amount milestone of the pack, reached or
    /// not, with its tier (small, medium, large, epic).
    private func ladder(_ pack: RulePack, _ total: Double) -> [[String: Any]] {
        let amounts = pack.achievements.filter { $0.kind == .amount }.flatMap { $0.at ?? [] }.sorted()
        var next = true
        return amounts.map { amount in
            let reached = total >= amount
            defer { if !reached { next = false } }
            let tier = MilestoneTier.tier(for: amount)
            return [
                "amount": Self.money(amount), "tier": tier.rawValue, "tierName": Self.tierName(tier),
                "reached": reached, "next": !reached && next,
            ]
        }
    }

    private func methods(_ pack: RulePack, _ journal: JournalPage, whole: Bool) -> [[String: Any]] {
        let zone = ZoneOffsetTable.named(journal.zone) ?? ZoneOffsetTable.named("UTC")!
        let now = journal.now
        return pack.methods.map { method in
            let items = journal.progression.timelines[method.id] ?? []
            var context: [String: Any] = ["name": method.name, "id": method.id, "count": method.stages.count]
            guard let last = items.last else {
                context["notStarted"] = true
                return context
            }
            context["stage"] = last.toStage.name
            context["stageOf"] = Self.stageOf(last.stageNumber, last.stageCount)
            context["percent"] = Int((Double(last.stageNumber) / Double(max(1, last.stageCount)) * 100).rounded())
            context["final"] = last.isFinalStage
            context["since"] = L(
                "packs.method.since",
                [
                    "duration": Self.duration(StageDuration(from: last.advance.at, to: max(now, last.advance.at))),
                    "day": Self.longDate(last.advance.at, zone: zone),
                ])
            if let celebration = journal.progression.celebrations[last.advance.eventID] {
                context["affirmation"] = celebration.affirmation.text
            }
            if whole {
                context["hasTimeline"] = true
                context["timeline"] = items.reversed().map { item -> [String: Any] in
                    Self.dropEmpty([
                        "stage": item.toStage.name, "stageOf": Self.stageOf(item.stageNumber, item.stageCount),
                        "kind": Self.kindName(item.kind), "day": Self.longDate(item.advance.at, zone: zone),
                        "note": item.advance.note ?? "",
                        "time": item.timeAtPreviousStage.map {
                            L(
                                "packs.method.after",
                                [
                                    "duration": Self.duration($0),
                                    "stage": item.fromStage?.name ?? L("packs.method.stageBefore"),
                                ])
                        } ?? "",
                    ])
                }
            }
            return Self.dropEmpty(context)
        }
    }

    private func recent(_ pack: RulePack, _ journal: JournalPage) -> [[String: Any]] {
        let kinds = Set(pack.forms.compactMap(\.kind))
        let contributions = pack.forms.contains { $0.type == "contribution" }
        let goalNames = Dictionary(
            journal.journal.goals.map { ($0.goal.id, $0.goal.name) }, uniquingKeysWith: { a, _ in a })
        return journal.journal.recent.filter {
            $0.type == "contribution" ? contributions : kinds.contains($0.activity.kind)
        }.map { entry in
            let activity = entry.activity
            var what: String
            var icon: String
            if entry.type == "contribution" {
                icon = "🪙"
                what = L(
                    "packs.recent.contribution",
                    [
                        "amount": Self.money(activity.value ?? 0),
                        "goal": goalNames[activity.item ?? ""] ?? activity.item ?? L("packs.recent.aGoal"),
                    ])
            } else {
                let form =
                    pack.forms.first {
                        $0.kind == activity.kind && $0.values["group"] == activity.group && $0.values["group"] != nil
                    }
                    ?? pack.forms.first { $0.kind == activity.kind }
                let option = form?.fields.flatMap(\.options).first {
                    $0.value == activity.item && ($0.group == nil || $0.group == activity.group)
                }
                icon = option?.icon ?? form?.icon ?? "•"
                what = form?.title ?? activity.kind
                if let item = option?.label ?? activity.item { what += ": \(item)" }
                if let value = activity.value {
                    let unit = form?.fields.first { $0.name == "value" }?.unit ?? ""
                    what += " · \(Self.number(value)) \(unit)".trimmingCharacters(in: .whitespaces)
                }
            }
            let day = Self.longDay(entry.day)
            return Self.dropEmpty([
                "event": entry.event, "icon": icon, "what": what, "note": activity.note ?? "", "day": day,
                "removeLabel": L("packs.recent.removeLabel", ["what": what, "day": day]),
            ])
        }
    }

    // MARK: Formatting

    /// An age in the words seed 000 uses: "9 weeks", then "4 months", then "1 year, 2 months".
    static func age(from born: LocalDay, to today: LocalDay) -> String {
        let days = today.number - born.number
        guard days >= 0 else { return L("packs.age.notBornYet") }
        if days < 7 { return span(days, .day) }
        if days < 16 * 7 { return span(days / 7, .week) }
        let (by, bm, bd) = born.civil
        let (ty, tm, td) = today.civil
        var months = (ty - by) * 12 + (tm - bm)
        if td < bd { months -= 1 }
        let years = months / 12
        let rest = months % 12
        if years == 0 { return span(months, .month) }
        return rest == 0
            ? span(years, .year) : L("packs.age.pair", ["first": span(years, .year), "second": span(rest, .month)])
    }

    /// A stay at a stage by ``StageDuration``'s rules, in the page's language: "less than a
    /// day", "3 weeks, 2 days", "1 year, 1 month".
    static func duration(_ duration: StageDuration) -> String {
        guard duration.wholeDays > 0 else { return L("packs.age.lessThanADay") }
        var remaining = duration.wholeDays
        var parts: [String] = []
        for unit in [SpanUnit.year, .month, .week, .day] where parts.count < 2 {
            let count = remaining / unit.days
            remaining %= unit.days
            if count > 0 { parts.append(span(count, unit)) }
        }
        return parts.count == 2 ? L("packs.age.pair", ["first": parts[0], "second": parts[1]]) : parts[0]
    }

    /// The units of an age or a stay, with their lengths in ``StageDuration``'s days.
    enum SpanUnit {
        case day, week, month, year

        var days: Int {
            switch self {
            case .day: 1
            case .week: 7
            case .month: 30
            case .year: 365
            }
        }
    }

    /// A number of days, weeks, months or years: "1 day", "3 weeks".
    static func span(_ count: Int, _ unit: SpanUnit) -> String {
        switch unit {
        case .day: Wording.current.count("packs.age.days", count)
        case .week: Wording.current.count("packs.age.weeks", count)
        case .month: Wording.current.count("packs.age.months", count)
        case .year: Wording.current.count("packs.age.years", count)
        }
    }

    /// "stage 2 of 5".
    static func stageOf(_ number: Int, _ count: Int) -> String {
        L("packs.method.stageOf", ["number": integer(number), "total": integer(count)])
    }

    /// How a record moved along a method: "start", "advance", "regression".
    static func kindName(_ kind: ProgressionTimelineItem.Kind) -> String {
        switch kind {
        case .start: L("packs.kind.start")
        case .advance: L("packs.kind.advance")
        case .regression: L("packs.kind.regression")
        }
    }

    /// A savings milestone's tier as the ladder names it.
    static func tierName(_ tier: MilestoneTier) -> String {
        switch tier {
        case .small: L("packs.tier.small")
        case .medium: L("packs.tier.medium")
        case .large: L("packs.tier.large")
        case .epic: L("packs.tier.epic")
        }
    }

    /// A checklist group's heading: the bundled packs' groups by name, any other group's
    /// identifier capitalized.
    static func groupName(_ group: String) -> String {
        switch group {
        case "animals": L("packs.group.animals")
        case "dogs": L("packs.group.dogs")
        case "handling": L("packs.group.handling")
        case "people": L("packs.group.people")
        case "places": L("packs.group.places")
        case "sounds": L("packs.group.sounds")
        case "surfaces": L("packs.group.surfaces")
        case "vehicles": L("packs.group.vehicles")
        default: group.prefix(1).uppercased() + group.dropFirst()
        }
    }

    /// A family member's role as the family line names it.
    static func roleName(_ role: String) -> String {
        switch role {
        case "owner": L("packs.role.owner")
        case FamilyRole.coOwner.rawValue: L("packs.role.coOwner")
        case FamilyRole.caregiver.rawValue: L("packs.role.caregiver")
        case FamilyRole.viewer.rawValue: L("packs.role.viewer")
        default: role
        }
    }

    /// An amount of money in the page's language (`$1,234.50`, `R$ 1.234,50`); whole amounts
    /// without cents (`$1,000`), as seed 002 writes them; a value that is not finite as zero.
    static func money(_ amount: Double) -> String {
        let strings = Wording.current
        let cents = amount.isFinite ? (amount * 100).rounded() : 0
        guard cents.truncatingRemainder(dividingBy: 100) == 0 else { return strings.money(amount) }
        let whole = cents == 0 ? 0 : cents / 100
        return whole.formatted(.currency(code: strings.currency).precision(.fractionLength(0)).locale(strings.locale))
    }

    /// A number in the page's language without a needless fraction: `8`, `8.5`, `8.25`.
    static func number(_ value: Double) -> String {
        Wording.current.number(value.isFinite ? value : 0, fractionDigits: 2)
    }

    /// A whole number in the page's language.
    static func integer(_ value: Int) -> String {
        Wording.current.number(Double(value))
    }

    /// A number as an HTML attribute (`min`, `max`) reads it, the same in every language:
    /// `8`, `8.5`, `8.25`.
    static func attribute(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.2f", value).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    static func json(_ values: [String: String]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: values, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
