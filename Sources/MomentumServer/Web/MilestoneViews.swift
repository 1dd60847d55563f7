import Foundation
import MomentumCore

extension WebViews {
    /// The Journey page's "Your milestones" card: each milestone of the user's own with
    /// where it stands, and the form that defines one (choices from the user's habits and
    /// the pack's logs).
    func milestoneSection(_ caller: Caller) async throws -> [String: Any] {
        let milestones = try await server.milestones.list(caller.user)
        let pack = try await server.dashboard.pack(caller.user)
        let habits = try await server.dashboard.habits(caller.user, calendarDays: 1)
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
        let items: [[String: Any]] = milestones.map { state in
            var item: [String: Any] = [
                "id": state.milestone, "title": state.title, "badge": state.badge ?? CustomMilestone.defaultBadge,
                "rule": Self.ruleText(state, habits: names, units: units, kinds: kindTitles),
                "definition": Self.definitionJSON(state),
            ]
            if let message = state.message, !message.isEmpty { item["message"] = message }
            if let reached = state.reached {
                item["reached"] = Self.longDay(reached.achievedDay)
                item["unlock"] = reached.id
            } else if let progress = state.progress {
                item["progress"] = progress.current
                item["target"] = progress.target
                let unit = state.habit.flatMap { units[$0] } ?? "day"
                item["progressText"] =
                    state.rule == .streak
                    ? "\(progress.current) of \(progress.target) \(unit)s in a row"
                    : "\(progress.current) of \(progress.target)"
            } else {
                item["waiting"] = true
            }
            return item
        }
        let active = habits.filter { $0.archivedDay == nil }
        return [
            "milestones": items, "hasMilestones": !items.isEmpty,
            "milestoneHabits": active.map { ["id": $0.definition.id, "name": $0.definition.name] },
            "milestoneKinds": kinds.map { ["kind": $0.kind, "title": $0.title] },
            "hasMilestoneHabits": !active.isEmpty, "hasMilestoneKinds": !kinds.isEmpty,
            "milestoneLimit": EventLimits.maximumCustomMilestones,
        ]
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
        switch state.rule {
        case .moment:
            return "A moment, marked when it happened"
        case .first:
            return "The first \(logs(state.kind, state.item))"
        case .count:
            if let habit = state.habit { return "\(habits[habit] ?? habit): \(target) days done" }
            return "\(target) × \(logs(state.kind, state.item))"
        case .streak:
            if let habit = state.habit {
                return "\(habits[habit] ?? habit): \(target) \(units[habit] ?? "day")s in a row"
            }
            let broken = state.breaks.map { ", broken by \(logs($0, state.breaksItem))" } ?? ""
            return "\(target) days in a row of \(logs(state.kind, state.item))\(broken)"
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
