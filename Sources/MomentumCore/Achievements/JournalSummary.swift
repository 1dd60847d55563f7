import Foundation

/// What a pack's journal shows: the entries logged, what has been checked off, the streaks
/// of logged activities, and the savings goals with their progress.
///
/// Built by ``AchievementEngine/journal(recent:)`` from the events the engine counts
/// (withdrawn ones are gone), at the engine's clock.
public struct JournalSummary: Hashable, Sendable {
    /// One logged activity or contribution, newest first.
    public struct Entry: Hashable, Sendable {
        /// The event's id.
        public var event: String
        /// The local day it happened on.
        public var day: LocalDay
        /// The instant it was logged.
        public var at: Date
        /// `log` or `contribution`.
        public var type: String
        /// The activity (for a contribution: kind `contribution`, the goal as item, the
        /// amount as value).
        public var activity: Activity
    }

    /// A streak of days with a logged activity, such as outdoor potty breaks.
    public struct Streak: Hashable, Sendable {
        /// The activity that extends it.
        public var kind: String
        /// Its item, if the streak is about one (`outdoor`).
        public var item: String?
        /// Days in a row up to today or yesterday; 0 when it was broken or lapsed.
        public var current: Int
        /// The longest run so far.
        public var best: Int
    }

    /// A savings goal and how far it has come (seed 002).
    public struct Goal: Hashable, Sendable {
        /// The goal.
        public var goal: SavingsGoal
        /// The sum contributed.
        public var saved: Double
        /// `saved / target`, from 0 (capped at 1).
        public var fraction: Double
        /// Whether the target is reached.
        public var completed: Bool
    }

    /// The newest entries, newest first.
    public var recent: [Entry]
    /// How many activities of each kind are logged (`potty`: 42).
    public var counts: [String: Int]
    /// The distinct items logged per kind, as `group/item` (`social`: `vehicles/bus`) or
    /// `item` without a group.
    public var items: [String: Set<String>]
    /// A number logged, with its day.
    public struct Value: Hashable, Sendable {
        /// The number (a weight, minutes walked).
        public var value: Double
        /// The local day it was logged for.
        public var day: LocalDay
    }

    /// The latest number logged per kind (`weight`: 8.4 on 2026-11-20).
    public var latestValues: [String: Value]
    /// Streaks of logged activities, one per distinct streak the pack's rules watch.
    public var streaks: [Streak]
    /// The savings goals in the order they were created.
    public var goals: [Goal]
    /// Everything saved, across goals.
    public var totalSaved: Double
}

extension AchievementEngine {
    /// The journal at the engine's clock: the `recent` newest entries, counts, items checked
    /// off, log streaks and savings goals.
    public func journal(recent limit: Int = 30) -> JournalSummary {
        var counts: [String: Int] = [:]
        var items: [String: Set<String>] = [:]
        var latest: [String: JournalSummary.Value] = [:]
        var goalOrder: [String] = []
        var saved: [String: Double] = [:]
        for keyed in events {
            switch keyed.event.payload {
            case .activity(let activity):
                counts[activity.kind, default: 0] += 1
                if let item = activity.item {
                    items[activity.kind, default: []].insert(activity.group.map { "\($0)/\(item)" } ?? item)
                }
                if let value = activity.value {
                    latest[activity.kind] = .init(value: value, day: LocalDay(number: keyed.day))
                }
            case .goal(let goal):
                if !goalOrder.contains(goal.id) { goalOrder.append(goal.id) }
            case .contribution(let goal, let amount, _, _):
                saved[goal, default: 0] += amount
            default: break
            }
        }
        var recent: [JournalSummary.Entry] = []
        for keyed in events.reversed() where recent.count < max(0, limit) {
            switch keyed.event.payload {
            case .activity(let activity):
                recent.append(
                    .init(
                        event: keyed.event.id, day: LocalDay(number: keyed.day), at: keyed.event.at, type: "log",
                        activity: activity))
            case .contribution(let goal, let amount, _, let note):
                recent.append(
                    .init(
                        event: keyed.event.id, day: LocalDay(number: keyed.day), at: keyed.event.at,
                        type: "contribution",
                        activity: Activity(kind: "contribution", item: goal, value: amount, note: note)))
            default: break
            }
        }
        var streaks: [JournalSummary.Streak] = []
        var seen: Set<String> = []
        for (index, rule) in rules.enumerated() where rule.kind == .streak || rule.kind == .personalBest {
            guard let kind = rule.match?.kind, rule.match?.type == nil || rule.match?.type == "log" else { continue }
            let key = "\(kind)/\(rule.match?.item ?? "")"
            guard seen.insert(key).inserted else { continue }
            let state = states[index]
            let lapsed = state.lastGood == Int.min || clockDay == Int.min || clockDay - state.lastGood > 1
            let current = lapsed ? 0 : state.current
            streaks.append(
                .init(
                    kind: kind, item: rule.match?.item, current: current,
                    best: max(state.best, state.runPeak, current)))
        }
        let goals = goalOrder.compactMap { id -> JournalSummary.Goal? in
            guard let goal = self.goals[id] else { return nil }
            let sum = saved[id, default: 0]
            let fraction = goal.target > 0 ? min(1, max(0, sum / goal.target)) : 0
            return .init(goal: goal, saved: sum, fraction: fraction, completed: goal.target > 0 && sum >= goal.target)
        }
        return JournalSummary(
            recent: recent, counts: counts, items: items, latestValues: latest, streaks: streaks, goals: goals,
            totalSaved: saved.values.reduce(0, +))
    }
}
