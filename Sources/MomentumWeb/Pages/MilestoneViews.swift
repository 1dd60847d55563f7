import Foundation
import MomentumCore
import MomentumServices

extension WebViews {
    /// The Journey page's "Your milestones" card: each milestone of the user's own with
    /// where it stands, and the form that defines one (choices from the user's habits and
    /// the pack's logs).
    func milestoneSection(_ caller: Caller) async throws -> MilestoneSection {
        let milestones = try await services.milestones.list(caller.user)
        let pack = try await services.dashboard.pack(caller.user)
        let habits = try await services.dashboard.habits(caller.user, calendarDays: 1)
        let names = Dictionary(habits.map { ($0.definition.id, $0.definition.name) }, uniquingKeysWith: { a, _ in a })
        // A habit's streak counts its periods: days, weeks, months.
        let units = Dictionary(
            habits.map { ($0.definition.id, Coaching.unit($0.definition.schedule)) }, uniquingKeysWith: { a, _ in a })
        var kinds: [(kind: String, title: String)] = []
        for form in pack.forms where form.type == "log" {
            guard let kind = form.kind, !kinds.contains(where: { $0.kind == kind }) else { continue }
            kinds.append((kind, "\(form.icon.map { "\($0) " } ?? "")\(form.title)"))
        }
        let kindTitles = Dictionary(kinds.map { ($0.kind, $0.title) }, uniquingKeysWith: { a, _ in a })
        let items = milestones.map { state in
            var item = MilestoneSection.Item(
                id: state.milestone, title: state.title, badge: state.badge ?? CustomMilestone.defaultBadge,
                rule: Self.ruleText(state, habits: names, units: units, kinds: kindTitles),
                definition: Self.definitionJSON(state))
            if let message = state.message, !message.isEmpty { item.message = message }
            if let reached = state.reached {
                item.reached = L("journey.milestones.reached", ["day": Self.longDay(reached.achievedDay)])
                item.unlock = reached.id
                item.postLabel = L("journey.postLabel", ["title": state.title])
            } else if let progress = state.progress {
                item.progress = progress.current
                item.target = progress.target
                let current = Self.integer(progress.current)
                item.progressText =
                    state.rule == .streak
                    ? L(
                        "journey.milestones.progressInARow",
                        [
                            "current": current,
                            "units": Self.units(state.habit.flatMap { units[$0] } ?? "day", progress.target),
                        ])
                    : L("journey.milestones.progress", ["current": current, "target": Self.integer(progress.target)])
            } else {
                item.waiting = true
            }
            return item
        }
        let active = habits.filter { $0.archivedDay == nil }
        return MilestoneSection(
            items: items,
            habits: active.map { MilestoneSection.Habit(id: $0.definition.id, name: $0.definition.name) },
            kinds: kinds.map { MilestoneSection.Kind(kind: $0.kind, title: $0.title) })
    }

    /// What makes a milestone happen, in words: "100 × 🦮 Walk", "Run: 30 days in a row",
    /// "First 🚽 Potty (outdoor)", "7 days in a row of 🚽 Potty (outdoor), broken by …".
    static func ruleText(
        _ state: MilestoneState, habits: [String: String], units: [String: String], kinds: [String: String]
    ) -> String {
        func logs(_ kind: String?, _ item: String?) -> String {
            let name = kind.map { kinds[$0] ?? $0 } ?? "?"
            return item.map { "\(name) (\($0))" } ?? name
        }
        let target = state.target ?? 0
        let strings = Wording.current
        switch state.rule {
        case .moment:
            return L("journey.rule.moment")
        case .first:
            return L("journey.rule.first", ["what": logs(state.kind, state.item)])
        case .count:
            if let habit = state.habit {
                return strings.count("journey.rule.habitDays", target, ["habit": habits[habit] ?? habit])
            }
            return L("journey.rule.count", ["target": integer(target), "what": logs(state.kind, state.item)])
        case .streak:
            if let habit = state.habit {
                return L(
                    "journey.rule.habitStreak",
                    ["habit": habits[habit] ?? habit, "units": Self.units(units[habit] ?? "day", target)])
            }
            let broken = state.breaks.map { L("journey.rule.brokenBy", ["what": logs($0, state.breaksItem)]) } ?? ""
            return strings.count(
                "journey.rule.streak", target, ["what": logs(state.kind, state.item), "broken": broken])
        }
    }

    /// A number of a habit's periods in a streak ("7 days", "3 weeks"); `unit` is one of
    /// ``Coaching/unit(_:)``'s.
    static func units(_ unit: String, _ count: Int) -> String {
        switch unit {
        case "week": Wording.current.count("journey.units.week", count)
        case "month": Wording.current.count("journey.units.month", count)
        case "year": Wording.current.count("journey.units.year", count)
        case "period": Wording.current.count("journey.units.period", count)
        default: Wording.current.count("journey.units.day", count)
        }
    }

    /// The definition as the edit form reads it (JSON in a data attribute).
    static func definitionJSON(_ state: MilestoneState) -> String {
        var object: [String: Any] = ["title": state.title, "rule": state.rule.rawValue, "tier": state.tier.rawValue]
        let optional: [(String, Any?)] = [
            ("message", state.message), ("badge", state.badge), ("kind", state.kind), ("item", state.item),
            ("breaks", state.breaks), ("breaksItem", state.breaksItem), ("habit", state.habit),
            ("target", state.target),
        ]
        for (key, value) in optional { if let value { object[key] = value } }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
