import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// Nudges: cheering on a friend whose shared streak is at risk today.
extension Social {
    // MARK: Nudges

    /// Cheers on a friend whose shared streak is at risk today: at most once a day from
    /// each friend, never more than the friend takes in a day, and only when they take nudges.
    public func nudge(_ friendID: String, caller: Caller) async throws -> NudgeView {
        try actions.check("nudge:" + caller.user, scope: "nudging")
        guard try await store.friend(friendID, of: caller.user) != nil else { throw Self.noFriend(friendID) }
        let sharing = Set(try await store.sharing(of: friendID).habits)
        let now = now()
        let (atRisk, day, zoneName, preferences, name, dayStartHour) = try await store.evaluate(friendID) {
            engine, profile in
            let state = engine.state(now: now, profile: profile, days: 1)
            let risky = state.habits.filter { sharing.contains($0.definition.id) && SharedHabit($0).atRisk }
            return (
                risky, state.today, engine.streaks.latestZone ?? profile.timeZone, profile.notifications,
                profile.displayName, profile.dayStartHour
            )
        }
        guard preferences.nudges else {
            throw ServiceError(.conflict, "not_taking_nudges", "\(name) is not taking nudges")
        }
        guard let habit = atRisk.max(by: { $0.current < $1.current }) else {
            throw ServiceError(.conflict, "nothing_at_risk", "none of \(name)'s shared streaks is at risk today")
        }
        let prefix = "nudge:\(day):"
        let today = try await store.notifications(of: friendID, before: nil, limit: 200)
            .filter { $0.notification.key.hasPrefix(prefix) }
        if today.contains(where: { $0.notification.key == prefix + caller.user }) {
            throw ServiceError(.conflict, "already_nudged", "you cheered \(name) on today already")
        }
        guard today.count < preferences.nudgesPerDay else {
            throw ServiceError(.conflict, "not_taking_nudges", "\(name) has had all the cheering they take today")
        }
        let sender = try await store.profile(of: caller.user)?.displayName ?? "A friend"
        let zone = ZoneOffsetTable.named(zoneName) ?? ZoneOffsetTable.named("UTC")!
        let dayEnd = Date(
            timeIntervalSince1970: Double(DayClock(dayStartHour: dayStartHour).start(of: day.advanced(by: 1), in: zone))
        )
        let unit = habit.streakUnit
        try await notifications.social(
            kind: .nudge, key: prefix + caller.user, to: friendID, url: "/today", habit: habit.definition.id, day: day,
            expires: dayEnd
        ) { strings in
            let values = [
                "sender": sender, "count": strings.number(Double(habit.current)), "habit": habit.definition.name,
            ]
            let body =
                switch unit {
                case "week": strings.count("push.nudge.body.week", habit.current, values)
                case "month": strings.count("push.nudge.body.month", habit.current, values)
                default: strings.count("push.nudge.body.day", habit.current, values)
                }
            return (strings("push.nudge.title", values), body)
        }
        return NudgeView(to: friendID, day: day.description)
    }
}
