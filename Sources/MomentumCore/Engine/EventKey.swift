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

/// An event as the sweep needs it: sorted key, habit ordinal resolved, payload pre-digested.
struct Entry: Sendable {
    enum Operation: Sendable {
        case create(HabitDefinition)
        case update(HabitChanges)
        case archive
        case complete(Double, backfilled: Bool)
        case skip
        case skipAll
        case purchase(freezes: Int, diamonds: Int)
        case decision
    }

    var key: EventKey
    /// The habit's ordinal in creation order, or -1.
    var habit: Int32
    var operation: Operation
    var event: Event
}
