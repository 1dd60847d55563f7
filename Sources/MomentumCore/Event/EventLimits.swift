import Foundation

/// The bounds every number and date an event carries must respect, and the evaluation
/// budget of one user.
///
/// Events come from devices, so each field is checked where it is decoded, and a value
/// outside its bound is refused with an error naming the field ("value must be a number
/// from 0 to 1000000"). Inside these bounds every computation the engine, the analytics,
/// the achievements and the share cards make is exact and cannot overflow, and the work
/// one request causes is bounded (``maximumHabits``, ``evaluationBudget``, ``analyticsBudget``).
public enum EventLimits {
    /// The largest completion `value`, and the largest `atLeast` / `atMost` target amount
    /// (one million: glasses, minutes, steps, pages).
    public static let maximumValue = 1_000_000.0

    /// The largest magnitude of a `log` event's `value` (a weight, a distance); it may be
    /// negative, from −``maximumLogValue`` to ``maximumLogValue``.
    public static let maximumLogValue = 1_000_000_000.0

    /// The largest savings goal `target` and the largest `contribution` `amount` (one
    /// billion, in the goal's currency).
    public static let maximumAmount = 1_000_000_000.0

    /// The largest custom number of freeze `days` one `purchase` may name. (The pack's
    /// store may allow fewer: ``StoreCatalog/customMaximum``.)
    public static let maximumPurchaseDays = 3_650
    /// The longest pause, in days: a year.
    public static let maximumPauseDays = 366

    /// The largest number of grace periods a streak policy may forgive (`grace`).
    public static let maximumGrace = 30

    /// The largest number of periods one miss may take off a streak (`penalty.decrement`).
    public static let maximumDecrement = 3_660

    /// The earliest local day an event may name (`day`, a habit's `start`): 1970-01-01.
    public static let earliestDay = LocalDay(number: 0)

    /// The latest local day any event may name: 2199-12-31.
    public static let latestDay = LocalDay(year: 2199, month: 12, day: 31)!

    /// The earliest date a subject's named dates may hold (`born`, `gotcha`): 1900-01-01,
    /// so that a person's birthday before 1970 can be recorded.
    public static let earliestSubjectDay = LocalDay(year: 1900, month: 1, day: 1)!

    /// The days an event's `day` and a habit's `start` may name.
    public static var days: ClosedRange<LocalDay> { earliestDay...latestDay }

    /// The days a subject's `dates` may name.
    public static var subjectDays: ClosedRange<LocalDay> { earliestSubjectDay...latestDay }

    /// The earliest instant an event's `at` may name: 1970-01-01T00:00:00Z.
    public static let earliestInstant = Date(timeIntervalSince1970: 0)

    /// The instant after the latest one an event's `at` may name: 2200-01-01T00:00:00Z.
    public static let instantLimit = Date(timeIntervalSince1970: Double((latestDay.number + 1) * 86_400))

    /// The most habits one user may create (archived ones included): a `habit.created`
    /// beyond it is refused with ``MomentumError/Code-swift.struct/limitExceeded``.
    public static let maximumHabits = 200

    /// The most milestones of their own one user may define: a `milestone` event for a new
    /// one beyond it is refused with ``MomentumError/Code-swift.struct/limitExceeded``.
    public static let maximumCustomMilestones = 100

    /// The most `milestone` and `milestone.deleted` events (definitions, edits and
    /// deletions) one user's log may hold: each one that changes what makes a milestone
    /// happen makes the achievements read the whole history again, when it arrives and
    /// whenever the log is loaded, so this bounds the work of loading a log.
    public static let maximumMilestoneEvents = 300

    /// The most habit-days one appended event may cause the engine to evaluate again.
    ///
    /// An event for an earlier day (a habit started in the past, a backfill, a removal)
    /// makes the engine re-evaluate every habit from that day on. An event whose
    /// re-evaluation would exceed this budget (for example a habit started 30 years ago in
    /// an account with 100 habits) is refused with
    /// ``MomentumError/Code-swift.struct/limitExceeded`` rather than stored, so that no
    /// single request can hold a core for long. Two million habit-days take about 0.1 s.
    public static let evaluationBudget = 2_000_000

    /// The most habit-days the events of one request may together cause the engine to
    /// evaluate again: each event's re-evaluation is paid in turn, so a batch of far-back
    /// events (a thousand skips for a day in 1970) is bounded as a whole. Events past this
    /// budget are refused with ``MomentumError/Code-swift.struct/limitExceeded`` and can be
    /// sent again in a later request; events for the open day cost nothing. About 0.4 s.
    public static let requestEvaluationBudget = 4 * evaluationBudget

    /// The most habit-days the analytics of one account read (`GET /v1/analytics`, the
    /// profile's statistics, a habit's detail, the Journey), shared among its habits: each
    /// habit's analytics cover at most its last `analyticsBudget / habits` days
    /// (``UserEngine/analyticsWindow``; at least 1,000 days with ``maximumHabits`` habits),
    /// so that what one read costs is bounded for the whole account however far back its
    /// habits began (an import of decades of history). Streaks, bests, rewards and
    /// achievements still count the whole history.
    public static let analyticsBudget = 200_000

    /// The most fields an event may carry that its engine does not know (every field of an
    /// event of an unknown type, besides `id`, `type`, `at` and `tz`): they are kept for a
    /// later engine (``Event/unknownFields``), within these bounds.
    public static let maximumUnknownFields = 32

    /// How deeply arrays and objects may nest in the value of an unknown field: 0 for a
    /// scalar, 1 for an array or object of scalars.
    public static let maximumUnknownFieldDepth = 8

    /// The most values (every scalar, array and object, nested ones included) the unknown
    /// fields of one event may hold together.
    public static let maximumUnknownFieldValues = 512

    /// The most bytes the unknown fields of one event may take together, as compact JSON
    /// (names, values and punctuation): 8 KiB.
    public static let maximumUnknownFieldBytes = 8_192

    /// The largest magnitude of a number in an unknown field: 2^53 − 1, the largest whole
    /// number a double (and JavaScript) holds exactly, so that each one reads back as sent.
    public static let maximumUnknownNumber = 9_007_199_254_740_991.0

    /// The most distinct event types unknown to the engine that one push may carry: more
    /// is refused as a whole (`too_many_unknown_types`), nothing of it stored.
    public static let maximumUnknownTypesPerPush = 8

    /// The most distinct event types unknown to the engine that one account's log may hold:
    /// a push that would pass it is refused as a whole (`too_many_unknown_types`).
    public static let maximumUnknownTypesPerAccount = 32

    /// The form of an event type: a lowercase letter, then up to 63 lowercase letters,
    /// digits, `.`, `_` or `-` (`habit.created`, `mood.logged`). A type the engine does not
    /// know is kept only when it has this form.
    public static func isTypeName(_ type: String) -> Bool {
        let bytes = Array(type.utf8)
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 64
        else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// The message for a number outside `range`, naming the field: "value must be a number
    /// from 0 to 1000000".
    static func numberMessage(_ field: String, _ range: ClosedRange<Double>, exclusiveLower: Bool = false) -> String {
        let low = format(range.lowerBound)
        let high = format(range.upperBound)
        return exclusiveLower
            ? "\(field) must be a number greater than \(low) and at most \(high)"
            : "\(field) must be a number from \(low) to \(high)"
    }

    /// The message for a day outside `range`, naming the field.
    static func dayMessage(_ field: String, _ day: LocalDay, _ range: ClosedRange<LocalDay>) -> String {
        "\(field) \(day) must be a date from \(range.lowerBound) to \(range.upperBound)"
    }

    /// A bound as written in messages: `1000000`, `-1000000000`, `0.5`.
    static func format(_ value: Double) -> String {
        if let whole = Int(exactly: value) { return String(whole) }
        return String(value)
    }
}
