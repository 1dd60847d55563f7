import Foundation
import MomentumCore
import MomentumStore

/// The demo account `momentum serve --demo` creates: four months of Ollie's puppy journal
/// (seed 000) and three habits, moved in time so that the last day is today.
public enum DemoAccount {
    /// The demo account's email.
    public static let email = "demo@momentum.local"
    /// The demo account's password.
    public static let password = "momentum-demo"
    /// The demo account's time zone.
    public static let timeZone = "Europe/Berlin"
    /// The achievement whose celebration the demo account still has waiting.
    static let waitingRule = "potty-streak-7"

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
        let events = try journal(endingOn: now, calendar: calendar) + habits(endingOn: now, calendar: calendar)
        let hash = try await Tokens.hashPassword(password, cost: bcryptCost)
        let user = Tokens.id("u_")
        try await store.createAccount(
            Account(id: user, email: email, passwordHash: hash, createdAt: now),
            profile: Profile(displayName: "Ollie's family", timeZone: timeZone, pack: "ollie", updatedAt: now))
        let sorted = events.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        for start in stride(from: 0, to: sorted.count, by: 200) {
            let batch = Array(sorted[start..<min(sorted.count, start + 200)])
            _ = try await store.append(batch, for: user, receivedAt: now, device: "demo")
        }
        // The family has used the app for four months and saw its celebrations as they came;
        // the one still waiting is seed 000's own example, Ollie's 7-day outdoor potty streak,
        // so that the first session of a newcomer opens with its card (and later actions
        // bring their own celebrations, not the rest of four months' backlog).
        try await store.updateCelebrations(of: user, now: now) { planner in
            for waiting in planner.pending where waiting.unlock.rule != Self.waitingRule {
                _ = planner.dismiss(id: waiting.id, at: now)
            }
        }
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
}
