import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// What a pack's page reads out: counts, goals, the ladder, methods and recent entries.
extension WebViews {
    // MARK: Read-outs

    /// Counts per form: walks logged, dogs met, the checklist's coverage, the latest weight.
    func stats(_ pack: RulePack, _ journal: JournalPage) -> [PackSection.Stat] {
        var stats: [PackSection.Stat] = []
        for form in pack.forms where form.type == "log" {
            guard let kind = form.kind else { continue }
            let items = journal.journal.items[kind] ?? []
            if let number = form.fields.first(where: { $0.input == .number && $0.required }) {
                guard let latest = journal.journal.latestValues[kind] else { continue }
                stats.append(
                    PackSection.Stat(
                        icon: form.icon ?? "", label: form.title,
                        value: "\(Self.number(latest.value)) \(number.unit ?? "")".trimmingCharacters(in: .whitespaces),
                        note: Self.shortDay(latest.day)))
            } else if let checklist = form.fields.first(where: { $0.input == .checklist }) {
                let done = checklist.options.filter { items.contains("\($0.group ?? "")/\($0.value)") }.count
                stats.append(
                    PackSection.Stat(
                        icon: form.icon ?? "", label: form.title, value: "\(done)/\(checklist.options.count)",
                        note: L("packs.stats.experiences")))
            } else if let group = form.values["group"] {
                let count = items.filter { $0.hasPrefix("\(group)/") }.count
                stats.append(
                    PackSection.Stat(
                        icon: form.icon ?? "", label: form.title, value: Self.integer(count),
                        note: L("packs.stats.soFar")))
            } else if form.fields.contains(where: { $0.name == "item" && $0.input == .text }) {
                stats.append(
                    PackSection.Stat(
                        icon: form.icon ?? "", label: form.title, value: Self.integer(items.count),
                        note: L("packs.stats.different")))
            } else if let count = journal.journal.counts[kind], form.fields.allSatisfy({ $0.input != .buttons }) {
                stats.append(
                    PackSection.Stat(
                        icon: form.icon ?? "", label: form.title, value: Self.integer(count),
                        note: L("packs.stats.logged")))
            }
        }
        return stats
    }

    func goals(_ pack: RulePack, _ journal: JournalPage) -> [PackSection.Goal] {
        let categories = pack.forms.flatMap(\.fields).first { $0.name == "category" }?.options ?? []
        return journal.journal.goals.map { goal in
            let category = categories.first { $0.value == goal.goal.category }
            let percent = Int((goal.fraction * 100).rounded(.down))
            return PackSection.Goal(
                id: goal.goal.id, name: goal.goal.name, icon: category?.icon ?? "💰",
                category: category?.label ?? goal.goal.category, percent: percent, completed: goal.completed,
                progress: L(
                    "packs.goals.progress",
                    ["saved": Self.money(goal.saved), "target": Self.money(goal.goal.target)]),
                left: L("packs.goals.left", ["left": Self.money(max(0, goal.goal.target - goal.saved))]))
        }
    }

    /// Seed 002's milestone tiers on the way: each amount milestone of the pack, reached or
    /// not, with its tier (small, medium, large, epic).
    func ladder(_ pack: RulePack, _ total: Double) -> [PackSection.Rung] {
        let amounts = pack.achievements.filter { $0.kind == .amount }.flatMap { $0.at ?? [] }.sorted()
        var next = true
        return amounts.map { amount in
            let reached = total >= amount
            defer { if !reached { next = false } }
            let tier = MilestoneTier.tier(for: amount)
            return PackSection.Rung(
                amount: Self.money(amount), tier: tier.rawValue, tierName: Self.tierName(tier),
                reached: reached, next: !reached && next)
        }
    }

    func methods(_ pack: RulePack, _ journal: JournalPage, whole: Bool) -> [PackSection.Method] {
        let zone = ZoneOffsetTable.named(journal.zone) ?? ZoneOffsetTable.named("UTC")!
        let now = journal.now
        return pack.methods.map { method in
            let items = journal.progression.timelines[method.id] ?? []
            guard let last = items.last else {
                return PackSection.Method(
                    name: method.name, id: method.id, count: method.stages.count, notStarted: true)
            }
            var context = PackSection.Method(
                name: method.name.nonEmpty, id: method.id.nonEmpty, count: method.stages.count,
                stage: last.toStage.name.nonEmpty, stageOf: Self.stageOf(last.stageNumber, last.stageCount).nonEmpty,
                percent: Int((Double(last.stageNumber) / Double(max(1, last.stageCount)) * 100).rounded()),
                final: last.isFinalStage,
                since: L(
                    "packs.method.since",
                    [
                        "duration": Self.duration(StageDuration(from: last.advance.at, to: max(now, last.advance.at))),
                        "day": Self.longDate(last.advance.at, zone: zone),
                    ]
                ).nonEmpty)
            if let celebration = journal.progression.celebrations[last.advance.eventID] {
                context.affirmation = celebration.affirmation.text.nonEmpty
            }
            if whole {
                context.hasTimeline = true
                context.timeline = items.reversed().map { item in
                    PackSection.Method.Step(
                        stage: item.toStage.name.nonEmpty,
                        stageOf: Self.stageOf(item.stageNumber, item.stageCount).nonEmpty,
                        kind: Self.kindName(item.kind).nonEmpty,
                        day: Self.longDate(item.advance.at, zone: zone).nonEmpty,
                        note: item.advance.note?.nonEmpty,
                        time: item.timeAtPreviousStage.map {
                            L(
                                "packs.method.after",
                                [
                                    "duration": Self.duration($0),
                                    "stage": item.fromStage?.name ?? L("packs.method.stageBefore"),
                                ])
                        }?.nonEmpty)
                }
            }
            return context
        }
    }

    func recent(_ pack: RulePack, _ journal: JournalPage) -> [PackSection.Entry] {
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
            return PackSection.Entry(
                event: entry.event.nonEmpty, icon: icon.nonEmpty, what: what.nonEmpty, note: activity.note?.nonEmpty,
                day: day.nonEmpty, removeLabel: L("packs.recent.removeLabel", ["what": what, "day": day]).nonEmpty)
        }
    }
}
