import Foundation

/// The order in which the engine applies events: by local day, habit creations first,
/// then by instant, then by id (so ties between devices break the same way everywhere).
struct EventKey: Comparable, Hashable, Sendable {
    var day: Int
    var rank: UInt8
    var at: Double
    var id: String

    static func < (lhs: EventKey, rhs: EventKey) -> Bool {
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        if lhs.at != rhs.at { return lhs.at < rhs.at }
        return lhs.id < rhs.id
    }
}

/// An event as the sweep needs it: plain data, no references, so the sweep copies and
/// checkpoints it for free. The event itself stays in the engine's log at index `event`.
struct Entry: Sendable {
    enum Operation: UInt8, Sendable {
        case create, update, archive, unarchive, complete, skip, skipAll, purchase, decision, record, pause, resume
        case order
        case grant, kept, amnesty, amnestyLifted
    }

    /// The local day the event applies to.
    var day: Int
    /// Habit creations (0) sort before everything else on their day, then schedule changes
    /// (1, in force from the day's start), then everything else (2).
    var rank: UInt8
    var operation: Operation
    var backfilled: Bool
    /// The habit's ordinal in creation order, or -1.
    var habit: Int32
    /// The index of the event in the engine's log.
    var event: Int32
    /// Seconds since 1970.
    var at: Double
    /// A completion's value.
    var value: Double = 0
    /// A purchase's freezes and price.
    var freezes: Int32 = 0
    var diamonds: Int32 = 0
}
