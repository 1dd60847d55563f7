import Foundation
import MomentumCore
import Testing

/// The documented bounds of ``EventLimits``: numbers and dates outside them are refused
/// where they are decoded, and the work one event may cause is bounded.
struct EventLimitsTests {
    static let now = Date(timeIntervalSince1970: 1_781_524_800)  // 2026-06-15T12:00:00Z

    static func decode(_ json: String) throws -> Event {
        try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
    }

    static func habit(_ id: String, start: String? = nil, at: String = "2026-06-15T08:00:00Z") -> String {
        let start = start.map { #","start":"\#($0)""# } ?? ""
        return
            #"{"id":"c-\#(id)","type":"habit.created","at":"\#(at)","tz":"UTC","habit":"\#(id)","name":"H \#(id)"\#(start)}"#
    }

    @Test func habitStartingInYearOneIsRefusedAndTheMessageNamesStart() throws {
        let error = #expect(throws: DecodingError.self) { try Self.decode(Self.habit("old", start: "0001-01-01")) }
        #expect(String(describing: error).contains("start 0001-01-01 must be a date from 1970-01-01 to 2199-12-31"))
        _ = try Self.decode(Self.habit("epoch", start: "1970-01-01"))
        #expect(throws: DecodingError.self) { try Self.decode(Self.habit("before", start: "1969-12-31")) }
    }

    @Test func completionValueAboveTheLimitIsRefusedWithTheRange() throws {
        let json = #"{"id":"v","type":"completion","at":"2026-06-15T08:00:00Z","tz":"UTC","habit":"h","value":1e19}"#
        let error = #expect(throws: DecodingError.self) { try Self.decode(json) }
        #expect(String(describing: error).contains("value must be a number from 0 to 1000000"))
        _ = try Self.decode(json.replacingOccurrences(of: "1e19", with: "1000000"))
    }

    @Test func atLeastTargetOf1e19IsRefused() throws {
        let json = Self.habit("big").replacingOccurrences(of: #""name""#, with: #""target":{"atLeast":1e19},"name""#)
        let error = #expect(throws: DecodingError.self) { try Self.decode(json) }
        #expect(String(describing: error).contains("atLeast must be a number greater than 0 and at most 1000000"))
    }

    @Test func instantsOutsideTheRangeAreRefused() throws {
        #expect(throws: DecodingError.self) { try Self.decode(Self.habit("a", at: "1969-12-31T23:59:59Z")) }
        #expect(throws: DecodingError.self) { try Self.decode(Self.habit("b", at: "2200-01-01T00:00:00Z")) }
        _ = try Self.decode(Self.habit("c", at: "2199-12-31T23:59:59Z"))
    }

    @Test func subjectBornBefore1970IsAcceptedButNotBefore1900() throws {
        let json =
            #"{"id":"s","type":"subject","at":"2026-06-15T08:00:00Z","tz":"UTC","subject":"me","name":"Me","dates":{"born":"1950-05-01"}}"#
        _ = try Self.decode(json)
        let error = #expect(throws: DecodingError.self) {
            try Self.decode(json.replacingOccurrences(of: "1950", with: "1899"))
        }
        #expect(String(describing: error).contains("dates.born 1899-05-01 must be a date from 1900-01-01"))
    }

    @Test func habitBeyondTheMaximumIsRefusedWithLimitExceeded() throws {
        var engine = UserEngine()
        for n in 0..<EventLimits.maximumHabits {
            try engine.append(try Self.decode(Self.habit("h\(n)")), now: Self.now)
        }
        let error = #expect(throws: MomentumError.self) {
            try engine.append(try Self.decode(Self.habit("one-more")), now: Self.now)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.field == "habit")
        #expect(engine.event(id: "c-one-more") == nil)
        // A whole log is refused the same way.
        let events = try (0...EventLimits.maximumHabits).map { try Self.decode(Self.habit("h\($0)")) }
        var fresh = UserEngine()
        let logError = #expect(throws: EventLogError.self) { try fresh.load(events, now: Self.now) }
        #expect(logError?.errors.first?.code == .limitExceeded)
    }

    @Test func habitStartedDecadesBackInABusyAccountExceedsTheBudgetAndIsNotStored() throws {
        // Given 100 habits evaluated through today,
        var engine = UserEngine()
        for n in 0..<100 { try engine.append(try Self.decode(Self.habit("h\(n)")), now: Self.now) }
        engine.advance(to: Self.now)
        // when a habit started in 1970 arrives, re-evaluating 101 habits over 56 years would
        // exceed the budget: it is refused, not stored.
        let error = #expect(throws: MomentumError.self) {
            try engine.append(try Self.decode(Self.habit("ancient", start: "1970-01-01")), now: Self.now)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.field == "start")
        #expect(engine.event(id: "c-ancient") == nil)
        #expect(engine.state(at: Self.now).habits.count == 100)
        // A habit started ten years back is within it.
        try engine.append(try Self.decode(Self.habit("decade", start: "2016-06-15")), now: Self.now)
        #expect(engine.state(at: Self.now).habits.count == 101)
    }

    @Test func analyticsOfHabitsStartedDecadesBackReadAtMostTheBudget() throws {
        // Given 12 habits started in 1970 (about 246,000 habit-days by 2026), each done on
        // the last five days,
        var engine = UserEngine()
        for n in 0..<12 { try engine.append(try Self.decode(Self.habit("h\(n)", start: "1970-01-01")), now: Self.now) }
        for back in 1...5 {
            for n in 0..<12 {
                let at = RFC3339.format(Self.now.addingTimeInterval(-Double(back) * 86_400))
                try engine.append(
                    try Self.decode(
                        #"{"id":"c\#(n)-\#(back)","type":"completion","at":"\#(at)","tz":"UTC","habit":"h\#(n)"}"#),
                    now: Self.now)
            }
        }
        let today = engine.today(at: Self.now)
        let window = engine.analyticsWindow
        #expect(window == EventLimits.analyticsBudget / 12)
        // when analytics read them, each habit's series is its last `window` days,
        let series = engine.series(at: Self.now)
        #expect(series.count == 12)
        for habit in series {
            #expect(habit.startDay == LocalDay(year: 1970, month: 1, day: 1))
            #expect(habit.firstDay == today.advanced(by: 1 - window))
            #expect(habit.states.count == window)
        }
        let analysed = series.reduce(0) { $0 + $1.states.count }
        #expect(analysed <= EventLimits.analyticsBudget)
        #expect(engine.analysedDays(today: today) == analysed)
        // the days as the calendar shows them,
        let calendar = engine.state(at: Self.now, calendarDays: window).habits[0].calendar
        #expect(calendar.map(\.state) == series[0].states)
        #expect(series[0].states.suffix(6) == [.completed, .completed, .completed, .completed, .completed, .pending])
        // and the weeks and months of the analytics go back no further.
        let analytics = engine.analytics(at: Self.now)
        for habit in analytics.habits {
            #expect(habit.weeks.count <= window / 7 + 2)
            #expect(habit.months.count <= window / 28 + 2)
            #expect(habit.totalDaysCompleted == 5)
            #expect(habit.score.streak == 5)
        }
        // A young account's habits are analysed whole.
        var young = UserEngine()
        try young.append(try Self.decode(Self.habit("new", start: "2026-01-01")), now: Self.now)
        let whole = young.series(at: Self.now)
        #expect(whole.first?.firstDay == LocalDay(year: 2026, month: 1, day: 1))
        #expect(young.analysedDays(today: young.today(at: Self.now)) == whole.first?.states.count)
    }

    @Test func backdatedHabitsAppendedOneByOneEqualLoadingTheLog() throws {
        // Given a month of two habits, a rest day and a purchase,
        var log = Log()
        log.habit("read", policy: .strict, on: day(1))
        log.habit("run", on: day(1))
        log.complete("read", days: 1...30, except: [12, 20])
        log.complete("run", days: 1...30, except: [5, 6, 7])
        log.skip(nil, on: day(15))
        // then habits started in the past, pushed on day 31 (after the others in creation
        // order, and one before them).
        for (n, start) in [3, 10, 25, 0].enumerated() {
            log.add(
                .habitCreated(
                    HabitDefinition(
                        id: "late\(n)", name: "Late \(n)", schedule: n == 1 ? .timesPerWeek(2) : .daily,
                        startDay: day(start))),
                on: day(31), hour: 10 + Double(n))
        }
        log.add(.completion(habit: "late0", day: nil, value: 1, note: nil), on: day(31), hour: 15)
        let now = log.instant(day(33), hour: 12)
        var engine = UserEngine()
        for event in log.events { try engine.append(event, now: now) }
        let incremental = engine.state(at: now)
        let full = try UserEngine.evaluate(log.events, now: now)
        #expect(incremental == full)
        #expect(incremental[habit: "late1"][day(12)].state == .notDue)
    }
}
