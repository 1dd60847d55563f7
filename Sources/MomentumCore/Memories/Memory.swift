import Foundation

/// A significant moment kept for the scrapbook: one tier-2 or tier-3 unlock, with its date,
/// an auto caption, and the user's optional note and photo (seed 000's Memory System).
///
/// A memory is dated when the milestone really happened, so a retroactive unlock lands on its
/// real day. ``time`` is kept together with the UTC offset it was recorded with, so the JSONL
/// form writes it back as it was read (`2026-02-27T14:30:00+01:00`).
public struct Memory: Hashable, Sendable, Codable, Identifiable {
    /// The memory's id, derived from the unlock's: ``id(forUnlock:)``.
    public var id: String
    /// The id of the unlock it records.
    public var unlockID: String
    /// The rule that fired.
    public var rule: String
    /// The achievement's title ("7-Day Potty Streak").
    public var title: String
    /// The achievement category (`potty`, `commands`, `potty_outdoor`, `vacation`, …).
    public var category: String
    /// Seed 000's `milestone_type` (`first`, `streak`, `streak_record`, `count`, …).
    public var milestoneType: String
    /// Seed 000's `milestone_value`: the milestone's number, when it has one.
    public var milestoneValue: Double?
    /// When the milestone really happened.
    public var time: Date
    /// The UTC offset, in seconds, of the place and moment it was recorded (3600 for `+01:00`).
    public var offsetSeconds: Int
    /// The local day it happened on (which may differ from the date of ``time`` for users
    /// whose day starts after midnight).
    public var day: LocalDay
    /// The caption Momentum wrote for it ("Ollie's first outdoor potty").
    public var caption: String
    /// The user's note, if any.
    public var note: String?
    /// The photo, if one was attached.
    public var photo: MemoryPhoto?
    /// The subject it is about (`ollie`), if any.
    public var subjectID: String?
    /// Whether the milestone was detected after the fact (a backfill or an import).
    public var retroactive: Bool

    /// Creates a memory from its parts.
    ///
    /// - Parameters:
    ///   - id: The memory's id; defaults to ``id(forUnlock:)`` of `unlockID`.
    ///   - unlockID: The id of the unlock it records.
    ///   - rule: The rule that fired.
    ///   - title: The achievement's title.
    ///   - category: The achievement category.
    ///   - milestoneType: Seed 000's `milestone_type`.
    ///   - milestoneValue: The milestone's number, if any.
    ///   - time: When it happened.
    ///   - offsetSeconds: The UTC offset it was recorded with, rounded to whole minutes and
    ///     kept within ±23:59 as RFC 3339 writes offsets.
    ///   - day: The local day it happened on.
    ///   - caption: The caption.
    ///   - note: The user's note.
    ///   - photo: The photo.
    ///   - subjectID: The subject it is about.
    ///   - retroactive: Whether it was detected after the fact.
    public init(
        id: String? = nil, unlockID: String, rule: String, title: String, category: String, milestoneType: String,
        milestoneValue: Double? = nil, time: Date, offsetSeconds: Int, day: LocalDay, caption: String,
        note: String? = nil, photo: MemoryPhoto? = nil, subjectID: String? = nil, retroactive: Bool = false
    ) {
        self.id = id ?? Self.id(forUnlock: unlockID)
        self.unlockID = unlockID
        self.rule = rule
        self.title = title
        self.category = category
        self.milestoneType = milestoneType
        self.milestoneValue = milestoneValue
        self.time = time
        self.offsetSeconds = Self.representable(offsetSeconds)
        self.day = day
        self.caption = caption
        self.note = note
        self.photo = photo
        self.subjectID = subjectID
        self.retroactive = retroactive
    }

    /// Creates the memory of a tier-2 or tier-3 unlock, or returns `nil` for a tier-1 one
    /// (inline acknowledgments are not memories).
    ///
    /// The memory takes the unlock's real achievement instant and day, so a retroactive unlock
    /// is dated when it happened; the caption stays factual either way ("7 days of outdoor
    /// potty in a row", never "last week"). The subject's name, or else the unlock's `name`
    /// context value, personalizes the caption. The instant is kept to the millisecond, as
    /// the JSONL form writes it.
    ///
    /// - Parameters:
    ///   - unlock: The unlock to remember.
    ///   - subject: The subject it is about, for its name; its id is used when the unlock
    ///     names none.
    ///   - offsetSeconds: The UTC offset of the user's time zone at ``Unlock/achievedAt``.
    ///   - translation: The language of the caption.
    public init?(unlock: Unlock, subject: Subject? = nil, offsetSeconds: Int, translation: Translation = .english) {
        guard unlock.tier >= .notable else { return nil }
        let value = unlock.value.flatMap { $0.isFinite ? $0 : nil }
        let name = Self.nonBlank(subject?.name) ?? Self.nonBlank(unlock.context["name"])
        self.init(
            unlockID: unlock.id, rule: unlock.rule, title: unlock.title, category: unlock.category,
            milestoneType: unlock.milestoneType, milestoneValue: value,
            time: Date(timeIntervalSince1970: (unlock.achievedAt.timeIntervalSince1970 * 1000).rounded() / 1000),
            offsetSeconds: offsetSeconds, day: unlock.achievedDay,
            caption: Self.caption(
                category: unlock.category, milestoneType: unlock.milestoneType, value: value, title: unlock.title,
                name: name, context: unlock.context, translation: translation),
            subjectID: unlock.subject ?? subject?.id, retroactive: unlock.retroactive)
    }

    /// The id of the memory of an unlock: `memory:` followed by the unlock's id.
    ///
    /// - Parameter unlockID: The unlock's id (`potty-streak-7`).
    /// - Returns: The memory's id (`memory:potty-streak-7`).
    public static func id(forUnlock unlockID: String) -> String { "memory:" + unlockID }

    /// ``time`` as RFC 3339 text with the recorded offset (`2026-02-27T14:30:00+01:00`), or
    /// `Z` when the offset is zero; milliseconds are written when there are any.
    public var timestamp: String {
        let utc = RFC3339.format(time.addingTimeInterval(TimeInterval(offsetSeconds)))
        guard offsetSeconds != 0 else { return utc }
        let minutes = abs(offsetSeconds) / 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return String(utc.dropLast()) + (offsetSeconds < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }

    /// The civil date of ``time`` at the recorded offset: the day a memory falls on unless
    /// the user's day starts after midnight.
    public var dateAtOffset: LocalDay { Self.date(of: time, atOffset: offsetSeconds) }

    /// The civil date of an instant at a UTC offset.
    static func date(of time: Date, atOffset offsetSeconds: Int) -> LocalDay {
        let local = Int((time.timeIntervalSince1970 + Double(offsetSeconds)).rounded(.down))
        return LocalDay(number: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// An offset rounded to whole minutes and clamped to ±23:59, the range RFC 3339 can write.
    static func representable(_ offset: Int) -> Int {
        let minutes = Int((Double(offset) / 60).rounded())
        return max(-1439, min(1439, minutes)) * 60
    }

    /// The text, or `nil` when it is `nil` or only whitespace.
    static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}
