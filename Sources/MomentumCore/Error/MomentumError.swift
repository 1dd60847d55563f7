/// The one error type of `MomentumCore`.
///
/// Callers match on ``code`` (`catch let error as MomentumError where error.code == .insufficientDiamonds`);
/// ``message`` is a sentence for people. Errors found while reading a file also carry the
/// ``line`` and the ``field`` they concern. The server maps codes to HTTP statuses in one place.
public struct MomentumError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code (`snake_case` on the wire).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case malformedEvent = "malformed_event"
            case invalidEvent = "invalid_event"
            case unknownHabit = "unknown_habit"
            case duplicateHabit = "duplicate_habit"
            case habitArchived = "habit_archived"
            case unknownTimeZone = "unknown_time_zone"
            case futureTimestamp = "future_timestamp"
            case pastTimestamp = "past_timestamp"
            case outsideBackfillWindow = "outside_backfill_window"
            case insufficientDiamonds = "insufficient_diamonds"
            case unknownStoreItem = "unknown_store_item"
            case conflictingEventID = "conflicting_event_id"
            case noFreezeOffer = "no_freeze_offer"
            case invalidPack = "invalid_pack"
            case limitExceeded = "limit_exceeded"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The code as sent on the wire, for example `insufficient_diamonds`.
        public var description: String { value.rawValue }

        /// A line of an event log is not valid JSON or lacks a required field.
        public static let malformedEvent = Code(.malformedEvent)
        /// An event is well-formed but breaks a rule (negative value, day after its timestamp, …).
        public static let invalidEvent = Code(.invalidEvent)
        /// An event names a habit that was never created.
        public static let unknownHabit = Code(.unknownHabit)
        /// A habit id is created twice.
        public static let duplicateHabit = Code(.duplicateHabit)
        /// An event targets a habit on or after the day it was archived.
        public static let habitArchived = Code(.habitArchived)
        /// A time zone is not an IANA zone name.
        public static let unknownTimeZone = Code(.unknownTimeZone)
        /// A timestamp lies more than the allowed tolerance in the future.
        public static let futureTimestamp = Code(.futureTimestamp)
        /// A client's timestamp lies before its account existed, or further back than the
        /// pack's offline window (``RulePack/offlineDays``).
        public static let pastTimestamp = Code(.pastTimestamp)
        /// A completion is for a day further back than the pack's backfill window.
        public static let outsideBackfillWindow = Code(.outsideBackfillWindow)
        /// A purchase costs more diamonds than the wallet holds.
        public static let insufficientDiamonds = Code(.insufficientDiamonds)
        /// A purchase names an item the store does not sell.
        public static let unknownStoreItem = Code(.unknownStoreItem)
        /// An event id was already used for a different event.
        public static let conflictingEventID = Code(.conflictingEventID)
        /// A freeze decision names a day that has no open freeze offer.
        public static let noFreezeOffer = Code(.noFreezeOffer)
        /// A rule pack is not valid.
        public static let invalidPack = Code(.invalidPack)
        /// An event would take the user past one of ``EventLimits``' bounds on work: more
        /// habits than ``EventLimits/maximumHabits``, or more re-evaluation than
        /// ``EventLimits/evaluationBudget``. It is refused, not stored.
        public static let limitExceeded = Code(.limitExceeded)
    }

    /// What went wrong, for programs.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// The 1-based line of the input the error concerns, when reading a file.
    public var line: Int?
    /// The field the error concerns, when there is one (`value`, `tz`, `schedule.count`).
    public var field: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, line: Int? = nil, field: String? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.field = field
    }

    /// `line N: message (field)`, or just the message.
    public var description: String {
        var text = message
        if let field { text += " (field '\(field)')" }
        if let line { text = "line \(line): " + text }
        return text
    }

    /// A copy of the error that names a line.
    public func at(line: Int) -> MomentumError {
        var copy = self
        copy.line = line
        return copy
    }
}
