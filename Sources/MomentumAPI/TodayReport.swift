import Foundation
import MomentumCore

/// Today's dashboard: the answer of `GET /v1/today` (the `Today` schema).
///
/// The server answers with it, and `MomentumClient` computes the same value from the
/// device's copy of the log, so after a sync the two are the same bytes when encoded with
/// `MomentumJSON`.
public struct TodayReport: Codable, Hashable, Sendable {
    /// The instant the dashboard describes.
    public var now: Date
    /// The user's local day at `now`.
    public var today: LocalDay
    /// The zone the day was computed in: the latest event's, else the profile's.
    public var timeZone: String
    /// The hour at which the user's day starts.
    public var dayStartHour: Int
    /// The rule pack the account uses.
    public var pack: String
    /// Diamonds and freezes.
    public var wallet: Wallet
    /// Every habit with today's status, streaks, shield and the last days of its calendar,
    /// in the order the user shows them (`order` events; creation order otherwise).
    public var habits: [HabitState]
    /// Freezes offered for missed days, waiting for an answer.
    public var freezeOffers: [OpenFreezeOffer]
    /// Pauses (vacations) under way or to come: those ending today or later.
    public var pauses: [PausePeriod]
    /// The amnesties (outages an operator declared) covering a day of the habits' calendars,
    /// with their reasons for the covered days; absent when there is none.
    public var amnesties: [AmnestyPeriod]?
    /// The versions of the engine and of the packs that computed the dashboard; absent in
    /// the answers of a server older than versions (which a reader must accept).
    public var versions: RuleVersions?

    /// How many days of calendar each habit carries on the dashboard.
    public static let calendarDays = 7

    /// The dashboard of a user's state.
    ///
    /// - Parameter state: The engine's state at the dashboard's instant.
    public init(_ state: UserState) {
        now = state.now
        today = state.today
        timeZone = state.timeZone
        dayStartHour = state.dayStartHour
        pack = state.pack
        wallet = state.wallet
        let position = Dictionary(state.order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        habits = state.habits.enumerated().sorted {
            (position[$0.element.definition.id] ?? $0.offset, $0.offset)
                < (position[$1.element.definition.id] ?? $1.offset, $1.offset)
        }.map(\.element)
        freezeOffers = state.freezeOffers
        pauses = state.pauses.filter { $0.until >= state.today }
        let firstDay = state.today.advanced(by: 1 - Self.calendarDays)
        let covering = state.amnesties.filter { $0.until >= firstDay }
        amnesties = covering.isEmpty ? nil : covering
        versions = RuleVersions(packs: RulePack.canonicalNames(state.pack) ?? [state.pack])
    }

    /// Evaluates a user's dashboard.
    ///
    /// - Parameters:
    ///   - user: The user's engines, fed with their log; the clock is moved to `now`.
    ///   - now: The instant.
    ///   - profileZone: The profile's zone, used until the first event names one.
    /// - Returns: The dashboard, as the server answers it.
    public static func evaluate(_ user: inout MomentumUser, now: Date, profileZone: String) -> TodayReport {
        TodayReport(
            user.state(at: now, zone: user.streaks.latestZone ?? profileZone, calendarDays: calendarDays))
    }
}
