import Foundation

extension NotificationPlanner {
    // MARK: Candidates

    /// A time-based notification of a day: when it is meant to go, whether its condition
    /// holds, and how to write it. Most candidates of a run are neither due nor dropped
    /// (they only tell the next wake), so their texts are written only when needed.
    struct Candidate {
        let at: Date
        let holds: Bool
        let make: () -> PlannedNotification
    }

    /// Every time-based notification of a local day, each with whether its condition holds.
    func candidates(on day: LocalDay, _ situation: Situation) -> [Candidate] {
        let clock = DayClock(dayStartHour: dayStartHour)
        let endSecond = clock.start(of: day.advanced(by: 1), in: zone)
        let startSecond = clock.start(of: day, in: zone)
        let end = seconds(endSecond)
        let start = seconds(startSecond)
        // A date the zone skipped by crossing the date line has no instant for a time of day.
        let lasts = startSecond < endSecond
        let isToday = day == situation.today
        let isPast = day < situation.today
        var found: [Candidate] = []
        let habits = situation.habits

        if preferences.streakAtRisk {
            // Today: an open habit with a streak. An earlier day: one that was due and
            // stayed undone (it was at risk when the warning was meant to go).
            let atRisk =
                isToday
                ? habits.filter(\.atRisk)
                : habits.filter { [.missed, .frozen, .grace].contains($0.days[day]) && isPast }
            let at = end.addingTimeInterval(-Self.atRiskLead)
            found.append(
                Candidate(at: at, holds: !atRisk.isEmpty && (isToday || isPast)) {
                    let longest = atRisk.max { ($0.current, $1.name) < ($1.current, $0.name) }
                    let title =
                        longest.map { habit in
                            habit.current > 0
                                ? translation.text(
                                    NotificationText.atRiskTitle,
                                    [
                                        "streak": translation.streakLength(habit.current, habit.unit),
                                        "habit": habit.name,
                                    ])
                                : translation.text(NotificationText.atRiskOpenTitle, ["habit": habit.name])
                        } ?? translation.text(NotificationText.atRiskDayTitle)
                    let others = atRisk.count - 1
                    let names = atRisk.filter { $0.id != longest?.id }.map(\.name).sorted().joined(separator: ", ")
                    let body =
                        others > 0
                        ? translation.text(
                            NotificationText.atRiskOthersBody, ["count": String(others), "habits": names])
                        : translation.text(NotificationText.atRiskBody)
                    return PlannedNotification(
                        key: "streak-at-risk:\(day)", kind: .streakAtRisk, title: title, body: body,
                        url: longest.map { "/habits/\(Self.pathComponent($0.id))" } ?? "/today", day: day,
                        habit: longest?.id, at: at, expires: end)
                })
        }
        for habit in habits {
            let minute =
                preferences.reminderTimes[habit.id] ?? preferences.reminderHour.map(Self.minute(ofHour:))
                ?? habit.suggestedMinute
            let at = seconds(wallClock(day, minute: minute, start: startSecond, end: endSecond))
            if preferences.reminders, lasts {
                let open = isToday ? habit.open : isPast && [.missed, .frozen, .grace].contains(habit.days[day])
                found.append(
                    Candidate(at: at, holds: open && (isToday || isPast)) {
                        PlannedNotification(
                            key: "reminder:\(day):\(habit.id)", kind: .reminder,
                            title: translation.text(NotificationText.reminderTitle, ["habit": habit.name]),
                            body: habit.current > 0
                                ? translation.text(
                                    NotificationText.reminderStreakBody,
                                    ["streak": translation.streakLength(habit.current, habit.unit)])
                                : translation.text(NotificationText.reminderStartBody),
                            url: "/habits/\(Self.pathComponent(habit.id))", day: day, habit: habit.id, at: at,
                            expires: end)
                    })
            }
            if preferences.streakBroken, lasts, let recovery = habit.recovery,
                recovery.brokenOn.advanced(by: 1) == day, recovery.brokenStreak >= 2, day <= situation.today
            {
                let done = isToday && !habit.open && habit.days[day] == .completed
                found.append(
                    Candidate(at: at, holds: !done) {
                        PlannedNotification(
                            key: "streak-broken:\(day):\(habit.id)", kind: .streakBroken,
                            title: translation.text(NotificationText.brokenTitle, ["habit": habit.name]),
                            body: translation.text(
                                NotificationText.brokenBody,
                                [
                                    "restart": recovery.restart,
                                    "best": translation.count(recovery.targetToBeat, habit.unit),
                                ]),
                            url: "/habits/\(Self.pathComponent(habit.id))", day: day, habit: habit.id,
                            at: at, expires: end)
                    })
            }
            if preferences.freezes, habit.days[day.advanced(by: -1)] == .frozen, day <= situation.today {
                found.append(
                    Candidate(at: start, holds: true) {
                        PlannedNotification(
                            key: "freeze-used:\(day.advanced(by: -1)):\(habit.id)", kind: .freezeUsed,
                            title: translation.text(NotificationText.freezeUsedTitle, ["habit": habit.name]),
                            body: translation.text(
                                NotificationText.freezeUsedBody,
                                [
                                    "day": translation.readable(day.advanced(by: -1)),
                                    "length": translation.count(habit.current, habit.unit),
                                ]),
                            url: "/habits/\(Self.pathComponent(habit.id))", day: day.advanced(by: -1),
                            habit: habit.id, at: start, expires: end)
                    })
            }
        }
        if preferences.weeklySummary, lasts, day.weekday == preferences.weeklyDay {
            let long = habits.filter { $0.current >= Self.longStreak($0.unit) }.sorted {
                ($0.current, $1.name) > ($1.current, $0.name)
            }
            let at = seconds(
                wallClock(day, minute: Self.minute(ofHour: preferences.weeklyHour), start: startSecond, end: endSecond))
            found.append(
                Candidate(at: at, holds: !long.isEmpty && day <= situation.today) {
                    let lines = long.prefix(3).map {
                        translation.text(
                            NotificationText.weeklyLine,
                            ["habit": $0.name, "length": translation.count($0.current, $0.unit)])
                    }
                    let values = ["lines": lines.joined(separator: " · "), "count": String(long.count - 3)]
                    return PlannedNotification(
                        key: "weekly-progress:\(day)", kind: .weeklyProgress,
                        title: long.count == 1
                            ? translation.text(NotificationText.weeklyOneTitle, ["habit": long[0].name])
                            : translation.text(NotificationText.weeklyTitle),
                        body: translation.text(
                            long.count > 3 ? NotificationText.weeklyMoreBody : .weeklyBody, values),
                        url: "/journey", day: day, at: at, expires: end)
                })
        }
        return found
    }

    func freezeOffered(_ offer: OpenFreezeOffer, _ situation: Situation) -> PlannedNotification {
        let clock = DayClock(dayStartHour: dayStartHour)
        let name = situation.habits.first { $0.id == offer.habit }?.name ?? offer.habit
        let deadline = offer.expires
        return PlannedNotification(
            key: "freeze-offered:\(offer.day):\(offer.habit)", kind: .freezeOffered,
            title: translation.text(NotificationText.freezeOfferedTitle, ["habit": name]),
            body: translation.text(
                NotificationText.freezeOfferedBody,
                ["day": translation.readable(offer.day), "deadline": translation.readable(deadline)]),
            url: "/habits/\(Self.pathComponent(offer.habit))", day: offer.day, habit: offer.habit,
            at: seconds(clock.start(of: offer.day.advanced(by: 1), in: zone)),
            expires: seconds(clock.start(of: deadline.advanced(by: 1), in: zone)))
    }
}
