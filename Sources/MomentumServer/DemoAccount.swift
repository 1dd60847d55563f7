import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The demo account `momentum serve --demo` creates: every seed at once. Four months of
/// Ollie's puppy journal (seed 000), three habits with streaks and diamonds (seeds 003 and
/// 004), a savings goal with its contributions (seed 002) and two practices' stages (seed
/// 001), moved in time so that the last day is today; and three milestones of the family's
/// own (a first beach day, a week without an accident, 150 walks still to come).
public enum DemoAccount {
    /// The demo account's email.
    public static let email = "demo@momentum.local"
    /// The demo account's password.
    public static let password = "momentum-demo"
    /// The demo account's time zone.
    public static let timeZone = "Europe/Berlin"
    /// The achievements whose celebrations the demo account still has waiting: seed 000's
    /// own example, and today's first savings milestone.
    static let waitingRules: Set<String> = ["potty-streak-7", "savings-small"]
    /// The packs the demo account tracks: all of them.
    static let pack = "habits+ollie+savings+growth"
    /// The demo console owner's email (`/console`), created when no owner exists yet.
    public static let ownerEmail = "owner@momentum.local"
    /// The demo console owner's password.
    public static let ownerPassword = "momentum-owner"

    /// Creates the demo console owner unless the server already has an owner (a real one is
    /// never replaced or joined by a demo one).
    ///
    /// - Returns: Whether the demo owner was created.
    @discardableResult
    public static func installOwner(_ operators: Operators) async throws -> Bool {
        do {
            _ = try await operators.bootstrapOwner(email: ownerEmail, name: "Demo owner", password: ownerPassword)
            return true
        } catch let error as ServiceError where error.kind == .conflict {
            return false
        }
    }

    /// Creates the demo account, replacing one made on an earlier day (its log would end
    /// in the past).
    ///
    /// - Returns: The demo user's id.
    @discardableResult
    public static func install(in store: any MomentumStore, now: Date, bcryptCost: UInt8 = 10) async throws -> String {
        let zone = TimeZone(identifier: timeZone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        if let existing = try await store.account(email: email) {
            if calendar.isDate(existing.createdAt, inSameDayAs: now) { return existing.id }
            try await store.deleteAccount(id: existing.id)
        }
        let events =
            try journal(endingOn: now, calendar: calendar) + habits(endingOn: now, calendar: calendar)
            + savings(endingOn: now, calendar: calendar) + growth(endingOn: now, calendar: calendar)
            + ownMilestones(endingOn: now, calendar: calendar)
        let hash = try await PasswordHasher.hashOnce(password, cost: bcryptCost)
        let user = Tokens.id("u_")
        try await store.createAccount(
            Account(id: user, email: email, passwordHash: hash, createdAt: now),
            profile: Profile(displayName: "Ollie's family", timeZone: timeZone, pack: pack, updatedAt: now))
        let sorted = events.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        for start in stride(from: 0, to: sorted.count, by: 200) {
            let batch = Array(sorted[start..<min(sorted.count, start + 200)])
            _ = try await store.append(batch, for: user, receivedAt: now, device: "demo")
        }
        // The family has used the app for four months and saw its celebrations as they came;
        // those still waiting are seed 000's own example, Ollie's 7-day outdoor potty streak,
        // and today's first $1,000 saved, so that the first session of a newcomer opens with
        // their cards (and later actions bring their own celebrations, not the rest of four
        // months' backlog).
        try await store.updateCelebrations(of: user, now: now) { planner in
            for waiting in planner.pending where !Self.waitingRules.contains(waiting.unlock.rule) {
                _ = planner.dismiss(id: waiting.id, at: now)
            }
        }
        // The bell has today's milestones, and the scheduler plans the family's reminders.
        let milestones = try await store.evaluate(user) { engine, profile -> [PlannedNotification] in
            let planner = NotificationPlanner(
                preferences: profile.notifications, zone: ZoneOffsetTable.named(timeZone)!,
                dayStartHour: profile.dayStartHour)
            return engine.unlocks.filter { Self.waitingRules.contains($0.rule) }.map { unlock in
                let message = MessageCatalog.standard.message(
                    for: unlock, subject: unlock.subject.flatMap { engine.achievements.subjects[$0] },
                    today: DayClock(dayStartHour: profile.dayStartHour).localDay(
                        of: now, in: ZoneOffsetTable.named(timeZone)!))
                return planner.milestone(unlock, title: unlock.title, message: message.text, now: now)
            }
        }
        _ = try await store.deliverNotifications(milestones, to: user, at: now)
        try await store.touchNotifications(of: [user], at: now)
        return user
    }

    /// Ollie's journal, every date moved by whole days so that its last day is today.
    static func journal(endingOn now: Date, calendar: Calendar) throws -> [Event] {
        guard let url = Bundle.module.url(forResource: "Resources/ollie", withExtension: "jsonl") else {
            throw StoreError(.notFound, "the demo journal is missing from the server's resources")
        }
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let objects = try lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line -> [String: JSONValue] in
            guard case .object(let object) = try MomentumJSON.decoder().decode(JSONValue.self, from: Data(line.utf8))
            else { throw StoreError(.corrupt, "the demo journal has a line that is not an object") }
            return object
        }
        let last = objects.compactMap { $0["at"]?.string.flatMap(RFC3339.parse) }.max() ?? now
        let shift =
            calendar.dateComponents(
                [.day], from: calendar.startOfDay(for: last), to: calendar.startOfDay(for: now)
            ).day ?? 0
        var text = ""
        for var object in objects {
            if let at = object["at"]?.string.flatMap(RFC3339.parse),
                let moved = calendar.date(byAdding: .day, value: shift, to: at)
            {
                object["at"] = .string(RFC3339.format(moved))
            }
            if let day = object["day"]?.string.flatMap({ LocalDay(iso8601: $0) }) {
                object["day"] = .string(day.advanced(by: shift).description)
            }
            if case .object(let dates)? = object["dates"] {
                object["dates"] = .object(
                    dates.mapValues { value in
                        value.string.flatMap { LocalDay(iso8601: $0) }.map {
                            .string($0.advanced(by: shift).description)
                        }
                            ?? value
                    })
            }
            text += String(decoding: try MomentumJSON.encodeBytes(JSONValue.object(object)), as: UTF8.self) + "\n"
        }
        return try EventLog.parse(Data(text.utf8)).map(\.event)
    }

    /// Three habits over the same four months: a daily walk (with a streak running into
    /// today), training most days, and brushing three times a week.
    static func habits(endingOn now: Date, calendar: Calendar) throws -> [Event] {
        let today = calendar.startOfDay(for: now)
        guard let first = calendar.date(byAdding: .day, value: -120, to: today) else { return [] }
        let tz = calendar.timeZone.identifier
        func at(_ day: Date, _ hour: Int, _ minute: Int) -> Date {
            calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day) ?? day
        }
        var events: [Event] = [
            Event(
                id: "demo-habit-walk", at: at(first, 7, 0), timeZone: tz,
                payload: .habitCreated(HabitDefinition(id: "walk", name: "Morning walk with Ollie", category: "health"))
            ),
            Event(
                id: "demo-habit-train", at: at(first, 7, 1), timeZone: tz,
                payload: .habitCreated(
                    HabitDefinition(id: "train", name: "Training session", difficulty: .hard, category: "learning"))),
            Event(
                id: "demo-habit-brush", at: at(first, 7, 2), timeZone: tz,
                payload: .habitCreated(
                    HabitDefinition(
                        id: "brush", name: "Brush Ollie's teeth", schedule: .timesPerWeek(3), difficulty: .easy,
                        category: "care"))),
        ]
        var seed: UInt64 = 0x4d6f_6d65_6e74_756d
        func roll() -> Double {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        for offset in 0...120 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: first) else { continue }
            let recent = offset > 120 - 12
            let isToday = offset == 120
            if recent || roll() < 0.9, !isToday || calendar.component(.hour, from: now) >= 8 {
                events.append(
                    Event(
                        id: "demo-walk-\(offset)", at: at(day, 7, 30 + offset % 20), timeZone: tz,
                        payload: .completion(
                            habit: "walk", day: nil, value: 1, note: offset % 17 == 0 ? "Rainy, but we went" : nil)))
            }
            if roll() < 0.75, !isToday {
                events.append(
                    Event(
                        id: "demo-train-\(offset)", at: at(day, 18, 10), timeZone: tz,
                        payload: .completion(habit: "train", day: nil, value: 1, note: nil)))
            }
            if calendar.component(.weekday, from: day) % 2 == 0, !isToday {
                events.append(
                    Event(
                        id: "demo-brush-\(offset)", at: at(day, 20, 45), timeZone: tz,
                        payload: .completion(habit: "brush", day: nil, value: 1, note: nil)))
            }
        }
        return events.filter { $0.at <= now }
    }

    /// A trip to Bali (seed 002, a vacation goal of $3,000): a contribution every two weeks
    /// for four months, and today's, which crosses the first milestone of $1,000.
    static func savings(endingOn now: Date, calendar: Calendar) throws -> [Event] {
        let today = calendar.startOfDay(for: now)
        let tz = calendar.timeZone.identifier
        guard let first = calendar.date(byAdding: .day, value: -112, to: today) else { return [] }
        var events = [
            Event(
                id: "demo-goal-bali", at: calendar.date(bySettingHour: 19, minute: 0, second: 0, of: first) ?? first,
                timeZone: tz,
                payload: .goal(SavingsGoal(id: "bali", name: "Trip to Bali", category: "vacation", target: 3000)))
        ]
        for fortnight in 0..<8 {
            guard let day = calendar.date(byAdding: .day, value: fortnight * 14, to: first) else { continue }
            events.append(
                Event(
                    id: "demo-save-\(fortnight)",
                    at: calendar.date(bySettingHour: 19, minute: 30, second: 0, of: day) ?? day,
                    timeZone: tz,
                    payload: .contribution(
                        goal: "bali", amount: fortnight == 0 ? 150 : 110, day: nil,
                        note: fortnight == 0 ? "From the birthday money" : nil)))
        }
        // 150 + 7 × 110 = 920 so far; today's 120 makes 1,040.
        let todayAt = max(today.addingTimeInterval(60), now.addingTimeInterval(-600))
        events.append(
            Event(
                id: "demo-save-today", at: todayAt, timeZone: tz,
                payload: .contribution(goal: "bali", amount: 120, day: nil, note: "Skipped the takeaway")))
        return events.filter { $0.at <= now }
    }

    /// Milestones of the family's own (seed 000, open question 5): a moment three weeks ago,
    /// a streak the journal met long before it was defined (retroactive), and a count still
    /// to come (105 of 150 walks).
    static func ownMilestones(endingOn now: Date, calendar: Calendar) -> [Event] {
        let today = calendar.startOfDay(for: now)
        let tz = calendar.timeZone.identifier
        let milestones: [(Int, CustomMilestone)] = [
            (
                -21,
                CustomMilestone(
                    id: "first-beach-day", title: "First beach day", message: "Sand in every paw!", tier: .major,
                    badge: "🏖️", rule: .moment)
            ),
            (
                -20,
                CustomMilestone(
                    id: "dry-week", title: "A week without an accident", message: "Seven dry days in a row!",
                    badge: "🏆", rule: .streak, kind: "potty", item: "outdoor", breaks: "potty", breaksItem: "indoor",
                    target: 7)
            ),
            (
                -20,
                CustomMilestone(
                    id: "150-walks", title: "150 walks", message: "150 walks together!", badge: "🦮", rule: .count,
                    kind: "walk", target: 150)
            ),
        ]
        return milestones.enumerated().compactMap { index, entry in
            guard let day = calendar.date(byAdding: .day, value: entry.0, to: today) else { return nil }
            return Event(
                id: "demo-milestone-\(entry.1.id)",
                at: calendar.date(bySettingHour: 17, minute: index, second: 0, of: day) ?? day, timeZone: tz,
                payload: .milestone(entry.1))
        }
    }

    /// Meditation and journaling (seed 001): stages reached over the four months, with notes.
    static func growth(endingOn now: Date, calendar: Calendar) throws -> [Event] {
        let today = calendar.startOfDay(for: now)
        let tz = calendar.timeZone.identifier
        let steps: [(Int, String, String?, String, String?)] = [
            (-118, "meditation", nil, "beginner", "Five minutes after the morning walk"),
            (-70, "meditation", "beginner", "steady", "Twenty minutes, most days"),
            (-9, "meditation", "steady", "deepening", "Sat through the noise of the street"),
            (-40, "journaling", nil, "first-pages", nil),
            (-12, "journaling", "first-pages", "daily-writer", "A page a day, even on busy ones"),
        ]
        return steps.compactMap { offset, method, from, to, note in
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return nil }
            return Event(
                id: "demo-stage-\(method)-\(to)",
                at: calendar.date(bySettingHour: 21, minute: 0, second: 0, of: day) ?? day,
                timeZone: tz, payload: .stage(method: method, from: from, to: to, note: note))
        }
    }
}
