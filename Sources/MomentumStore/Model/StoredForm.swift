import MomentumCore

/// How the store names the fields of the documents it keeps, apart from the names the API
/// answers with: a field renamed here changes what is on disk and no answer; a field the
/// API renames changes no stored byte.
///
/// Each projection document (a habit's state, a ledger entry, an unlock, a memory, …) is
/// its MomentumCore type encoded with the document's renames. ``current`` is the form this
/// version of Momentum writes; renaming a stored field means adding a rule to it and a
/// migration that rewrites the rows already stored. Events are not projections: the log
/// keeps each event exactly as MomentumCore writes it, which is also its form on the wire
/// and in an account archive.
///
/// A document's renames apply to all it holds: the unlocks queued in the celebration
/// planner follow the planner's renames, not an unlock document's.
///
/// While a document's renames are the same as the API's (none, today), the store's bytes
/// are the answer's bytes, and the server copies them into answers without encoding again
/// (``AppendResult/habitJSON``).
public struct StoredForm: Sendable, Hashable {
    /// A habit's state (`habits.state`).
    public var habitState: JSONKeyRenames
    /// A wallet ledger entry (`ledger.body`).
    public var ledgerEntry: JSONKeyRenames
    /// A subject, such as a puppy (`subjects.body`).
    public var subject: JSONKeyRenames
    /// An unlocked achievement (`unlocks.body`).
    public var unlock: JSONKeyRenames
    /// A memory (`memories.body`).
    public var memory: JSONKeyRenames
    /// A step of a progression timeline (`progression.body`).
    public var progressionItem: JSONKeyRenames
    /// The celebration planner (`celebration_planners.planner`).
    public var celebrationPlanner: JSONKeyRenames
    /// The profile's preferences (`profiles.preferences`).
    public var preferences: JSONKeyRenames
    /// The profile's notification preferences (`profiles.notifications`).
    public var notifications: JSONKeyRenames

    /// The form this version of Momentum stores: every field under its MomentumCore name.
    public static let current = StoredForm()

    /// A form; each document not named keeps its MomentumCore names.
    public init(
        habitState: JSONKeyRenames = .none, ledgerEntry: JSONKeyRenames = .none, subject: JSONKeyRenames = .none,
        unlock: JSONKeyRenames = .none, memory: JSONKeyRenames = .none, progressionItem: JSONKeyRenames = .none,
        celebrationPlanner: JSONKeyRenames = .none, preferences: JSONKeyRenames = .none,
        notifications: JSONKeyRenames = .none
    ) {
        self.habitState = habitState
        self.ledgerEntry = ledgerEntry
        self.subject = subject
        self.unlock = unlock
        self.memory = memory
        self.progressionItem = progressionItem
        self.celebrationPlanner = celebrationPlanner
        self.preferences = preferences
        self.notifications = notifications
    }
}
