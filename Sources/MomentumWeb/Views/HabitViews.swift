/// `/habits/:id`: a habit's streak, actions, pauses, edit form, calendar, insights, chart,
/// badges and history.
struct HabitPage: TemplateModel {
    static let template = "habit"

    /// A week of the calendar, Monday first.
    struct Week: Codable {
        var days: [CalendarCell]
    }

    /// A category the edit form offers.
    struct CategoryOption: Codable {
        var value: String
        var name: String
        var selected: Bool
    }

    /// A difficulty the edit form offers.
    struct DifficultyOption: Codable {
        var name: String
        var label: String
        var selected: Bool
    }

    /// A streak milestone the analytics found and no pack rule unlocked.
    struct Milestone: Codable {
        var streak: Int
        var day: String
        var label: String
    }

    /// A week's or a month's completions.
    struct Period: Codable {
        var label: String
        var done: Int
        var due: Int
        var percent: Int
    }

    /// An unlock of the habit's.
    struct Badge: Codable {
        var badge: String
        var title: String
        var day: String
        var unlock: String
        var shareable: Bool
        var postLabel: String
    }

    /// One entry of the calendar's legend.
    struct LegendEntry: Codable {
        var state: String
        var label: String
    }

    var habit: HabitRow
    var pauses: PauseForm
    var policy: String
    var breaks: Int
    var startDay: String
    var since: String
    var weeks: [Week]
    /// When the current streak runs: its first day, and that in a sentence.
    var streakStart: String?
    var streakBegan: String?
    /// When archived: the day, and that in a sentence.
    var archivedOn: String?
    var archivedNote: String?
    var categoryOptions: [CategoryOption]
    var difficulties: [DifficultyOption]
    var scheduleOptions: [ScheduleOption]
    var group: String
    var groupNames: [String]
    /// The analytics, when the habit has some.
    var rate30: Int?
    var rateAll: Int?
    var strength: Int?
    var totalDays: Int?
    var trend: String?
    var milestones: [Milestone]?
    var historyWeeks: [Period]?
    var historyMonths: [Period]?
    /// The last 30 days as inline SVG, written unescaped.
    var chart: String?
    var insights: Insights?
    var hasBadges: Bool
    var badges: [Badge]
    var legend: [LegendEntry]
}

/// A day of the habit page's calendar, or a blank before its first day.
struct CalendarCell: Codable {
    var blank: Bool?
    var day: String?
    var number: Int?
    var state: String?
    var border: String?
    var inStreak: Bool?
    var detail: String?
    var hasNote: Bool?
    /// The month's short name, on its first day and on the calendar's first.
    var monthStart: String?
    /// The calendar's one Tab stop, its last day.
    var tabStop: Bool?
}

/// A schedule the edit form offers.
struct ScheduleOption: Codable {
    var value: String
    var label: String
    var selected: Bool
}

/// What the analytics say about a habit, in sentences (seed 004 R6, R7, R9.3).
struct Insights: Codable {
    /// A weekday's completion rate.
    struct Weekday: Codable {
        var day: String
        var percent: Int
        var best: Bool
        var counted: Bool
    }

    /// The scores weighted by difficulty.
    struct Score: Codable {
        var raw: Int
        var adjusted: Int
        var normalized: Int
        var weight: String
        var difficulty: String
        var weighted: String
    }

    /// Coaching after a break.
    struct Recovery: Codable {
        var restart: String
        var stillCounts: String
        var guidance: [String]
        var reminder: String
    }

    var bestWeekday: String?
    var weekdays: [Weekday]
    var score: Score
    var encouragement: String?
    var recovery: Recovery?
}

/// A habit's row on Today (the `habitrow` partial), also the habit page's `habit`.
struct HabitRow: Codable {
    /// A day of the last seven.
    struct Day: Codable {
        var day: String
        var state: String
        var label: String
    }

    var id: String
    var name: String
    var category: String
    var categoryName: String
    var categoryLabel: String
    var current: Int
    var best: Int
    /// A weekly or monthly habit's streak is told in weeks or months.
    var unit: String
    var units: String
    var unitLabel: String
    var bestUnits: String
    var streakLabel: String
    var doneLabel: String
    var checkInLabel: String
    var moveUpLabel: String
    var moveDownLabel: String
    var shield: Bool
    var done: Bool
    var skipped: Bool
    var due: Bool
    /// Due today and not already covered (a weekly quota met): the check-in stands out.
    var needed: Bool
    var paused: Bool
    var status: String
    var border: String
    var target: HabitTarget
    var week: [Day]
}

/// A habit's target and today's progress toward it (the `amountprogress` and `amountform`
/// partials); the progress fields are `nil` for a check-off habit.
struct HabitTarget: Codable {
    var kind: String
    var amount: String
    var measure: String
    var logLabel: String
    var amountLabel: String
    var isCheck: Bool
    var isAtLeast: Bool
    var isAtMost: Bool
    var numeric: Bool?
    var atMost: Bool?
    var over: Bool?
    var logged: String?
    var meterMax: String?
    var meterValue: String?
    var goal: String?
    var progress: String?
}

/// The pause form of Today (every habit) or of a habit's page (the `pauseform` partial).
struct PauseForm: Codable {
    /// A pause under way or to come.
    struct Item: Codable {
        var id: String
        var what: String
        var from: String
        var until: String
        var note: String
        var underway: Bool
        var upcoming: Bool
    }

    var today: String
    var weekLater: String
    var backfill: String
    var list: [Item]
    /// The earliest day the backfill window allows, when it has one.
    var earliest: String?
    /// The habit paused, on its page.
    var habit: String?
    var hasList: Bool
}
