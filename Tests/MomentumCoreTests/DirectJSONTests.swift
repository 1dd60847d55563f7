import Foundation
import Testing

@testable import MomentumCore

/// The habit state writes its JSON without the `Encoder` protocol (`DirectJSON`): every
/// form of every part of it must come out as Foundation's encoder writes it.
struct DirectJSONTests {
    private static let day = LocalDay(year: 2026, month: 11, day: 22)!

    private static func state(
        _ definition: HabitDefinition, policy: StreakPolicy = .forgiving, archived: Bool = false,
        streakStart: Bool = true, today: TodayStatus, calendar: [CalendarDay]
    ) -> HabitState {
        HabitState(
            definition: definition, policy: policy, startDay: day.advanced(by: -40),
            archivedDay: archived ? day : nil, current: 12, best: 30, highestStreakAchieved: 30, breaks: 2,
            border: .green, shieldActive: !archived, currentStreakStart: streakStart ? day.advanced(by: -11) : nil,
            today: today, calendar: calendar)
    }

    private static let calendars: [[CalendarDay]] = [
        [],
        [
            CalendarDay(day: day.advanced(by: -1), state: .completed, streak: 11, border: .yellow, completions: []),
            CalendarDay(
                day: day, state: .pending, streak: 12, border: .green,
                completions: [
                    CompletionDetail(
                        event: "e_1", at: Date(timeIntervalSince1970: 1_795_300_000.25), value: 1, note: nil,
                        backfilled: false),
                    CompletionDetail(
                        event: "e \"2\"/\u{1}", at: Date(timeIntervalSince1970: 1_795_300_100), value: 2.5,
                        note: "ran 5 km — \"easy\"\n", backfilled: true),
                ]),
        ],
    ]

    private static let todays: [TodayStatus] = [
        TodayStatus(state: .completed, due: true, logged: 1, remaining: nil, period: nil),
        TodayStatus(
            state: .pending, due: false, logged: 0.1, remaining: 2.9,
            period: PeriodProgress(
                start: day.advanced(by: -3), end: day.advanced(by: 3), completedDays: 2, requiredDays: 3,
                fulfilled: false)),
        TodayStatus(state: .notDue, due: false, logged: 0, remaining: 0, period: nil),
    ]

    private static let definitions: [HabitDefinition] = {
        let schedules: [Schedule] = [
            .daily, .weekdays([.friday, .monday, .sunday]), .timesPerWeek(3), .timesPerMonth(10), .everyNDays(2),
            .monthly(day: 15), .yearly(month: 2, day: 29),
        ]
        let targets: [Target] = [
            .check, Target(comparison: .check, amount: 1, unit: "walks"),
            Target(comparison: .atLeast, amount: 8000, unit: "steps"), Target(comparison: .atLeast, amount: 0.5),
            Target(comparison: .atMost, amount: 2, unit: "coffees"), Target(comparison: .atMost, amount: 1e-7),
        ]
        let policies: [StreakPolicy?] = [
            nil, .strict, .forgiving, StreakPolicy(grace: 2, penalty: .reset, freezes: .never),
            StreakPolicy(name: "forgiving", grace: 3, penalty: .decrement(2), freezes: .offered),
        ]
        var definitions: [HabitDefinition] = []
        for (index, schedule) in schedules.enumerated() {
            definitions.append(
                HabitDefinition(
                    id: "h\(index)", name: "Habit \"\(index)\"", schedule: schedule,
                    target: targets[index % targets.count], policy: policies[index % policies.count],
                    difficulty: [.easy, .medium, .hard][index % 3], category: index.isMultiple(of: 2) ? "health" : nil,
                    weekStart: index.isMultiple(of: 3) ? .monday : .sunday,
                    startDay: index.isMultiple(of: 2) ? nil : day.advanced(by: -index)))
        }
        for (index, target) in targets.enumerated() {
            definitions.append(HabitDefinition(id: "t\(index)", name: "Target", target: target))
        }
        for (index, policy) in policies.enumerated() {
            definitions.append(HabitDefinition(id: "p\(index)", name: "Policy", policy: policy))
        }
        return definitions
    }()

    @Test func everyFormOfAHabitStateIsWrittenAsFoundationWritesIt() throws {
        let policies: [StreakPolicy] = [
            .forgiving, .strict, StreakPolicy(name: "custom", grace: 1, penalty: .reset, freezes: .automatic),
        ]
        var count = 0
        for (index, definition) in Self.definitions.enumerated() {
            for today in Self.todays {
                for calendar in Self.calendars {
                    let state = Self.state(
                        definition, policy: policies[index % policies.count], archived: index.isMultiple(of: 4),
                        streakStart: !index.isMultiple(of: 5), today: today, calendar: calendar)
                    let direct = String(decoding: try MomentumJSON.encode(state), as: UTF8.self)
                    let foundation = String(decoding: try MomentumJSON.encoder().encode(state), as: UTF8.self)
                    #expect(direct == foundation)
                    // Inside other values too: arrays and objects hold states directly.
                    let nested = ["habits": [state]]
                    #expect(try MomentumJSON.encode(nested) == MomentumJSON.encoder().encode(nested))
                    count += 1
                }
            }
        }
        #expect(count == Self.definitions.count * Self.todays.count * Self.calendars.count)
    }

    /// Completions (the event a check-in appends) in every form; other events go through
    /// `encode(to:)` and come out the same.
    @Test func completionsAreWrittenAsFoundationWritesThem() throws {
        let at = Date(timeIntervalSince1970: 1_795_300_000.125)
        var events: [Event] = []
        for day in [nil, Self.day.advanced(by: -1)] {
            for value in [1, 0, 2.5, -3, 1e21] {
                for note in [nil, "", "a \"quoted\" note\twith / and ü"] {
                    events.append(
                        Event(
                            id: "e_\(events.count)", at: at, timeZone: "America/Argentina/Buenos_Aires",
                            payload: .completion(habit: "walk", day: day, value: value, note: note)))
                }
            }
        }
        events.append(Event(id: "s", at: at, timeZone: "UTC", payload: .skip(habit: nil, day: nil, note: "rest")))
        for event in events {
            #expect(try MomentumJSON.encode(event) == MomentumJSON.encoder().encode(event))
            var out: [UInt8] = []
            if case .completion = event.payload {
                #expect(event.writeCompletionJSON(into: &out) == true)
                #expect(out == Array(try MomentumJSON.encode(event)))
            } else {
                #expect(event.writeCompletionJSON(into: &out) == nil)
            }
        }
        #expect(try MomentumJSON.encode(events) == MomentumJSON.encoder().encode(events))
    }

    /// The direct path really is taken (a state writes the same bytes when its type's
    /// `writeJSON` is called by itself).
    @Test func theEncoderWritesAStateThroughItsDirectPath() throws {
        let state = Self.state(Self.definitions[1], today: Self.todays[1], calendar: Self.calendars[1])
        var out: [UInt8] = []
        #expect(state.writeJSON(into: &out))
        #expect(out == Array(try MomentumJSON.encode(state)))
    }

    /// A number that is not finite is refused with the path Foundation reports.
    @Test func aNonFiniteNumberFailsAsInFoundation() {
        func path(_ body: () throws -> Data) -> String {
            do {
                _ = try body()
                return "no error"
            } catch EncodingError.invalidValue(_, let context) {
                return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            } catch {
                return "other error: \(error)"
            }
        }
        var today = Self.todays[0]
        today.logged = .nan
        let broken = Self.state(Self.definitions[0], today: today, calendar: Self.calendars[1])
        #expect(path { try MomentumJSON.encode(broken) } == "today.logged")
        #expect(path { try MomentumJSON.encoder().encode(broken) } == "today.logged")

        var calendar = Self.calendars[1]
        calendar[1].completions[1].value = .infinity
        let deep = Self.state(Self.definitions[0], today: Self.todays[0], calendar: calendar)
        #expect(path { try MomentumJSON.encode(["s": deep]) } == "s.calendar.1.completions.1.value")
        #expect(path { try MomentumJSON.encoder().encode(["s": deep]) } == "s.calendar.1.completions.1.value")

        let completion = Event(
            id: "e", at: Date(timeIntervalSince1970: 0), timeZone: "UTC",
            payload: .completion(habit: "walk", day: nil, value: -.infinity, note: nil))
        #expect(path { try MomentumJSON.encode([completion]) } == "0.value")
        #expect(path { try MomentumJSON.encoder().encode([completion]) } == "0.value")
    }
}
