import Foundation
import MomentumCore
import MomentumStore

/// One user looked up by an operator: by exact id, by email (case-insensitively, as
/// signing in compares it), or by an app's own user id, never by a list or a prefix.
/// Read-only: what the user has, and why each recent day is in its state.
public struct UserLookup: Sendable {
    let store: any AccountStore & EventStore & ServerKeys & IdentityLinks & ReviewFlags & UserInspection
    let now: @Sendable () -> Date

    /// How many days, ending today, each habit's calendar explains: the last 5 weeks.
    public static let calendarDays = 35
    /// How many of the ledger's latest entries, deliveries and flags a read shows.
    public static let recentLimit = 20

    /// Creates the use case.
    public init(
        store: any AccountStore & EventStore & ServerKeys & IdentityLinks & ReviewFlags & UserInspection,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.now = now
    }

    /// What a user is looked up by.
    public enum Key: Sendable, Hashable {
        /// The exact user id.
        case id(String)
        /// The account's email, compared case-insensitively.
        case email(String)
        /// An app's own id for its user (server keys' app users), within an app.
        case appUser(app: String, id: String)
    }

    /// Finds one user.
    ///
    /// - Returns: Who the user is.
    /// - Throws: ``ServiceError`` `invalid` for an empty key, `not_found` for no such user.
    public func find(_ key: Key) async throws -> ConsoleUserSummary {
        let account: Account?
        switch key {
        case .id(let id):
            guard !id.isEmpty else { throw ServiceError.invalid("give a user id", field: "id") }
            account = try await store.account(id: id)
        case .email(let email):
            let normalized = Account.normalize(email: email)
            guard !normalized.isEmpty else { throw ServiceError.invalid("give an email", field: "email") }
            account = try await store.account(email: normalized)
        case .appUser(let app, let id):
            guard !id.isEmpty, !app.isEmpty else {
                throw ServiceError.invalid("give an app's user id", field: "appUser")
            }
            if let appUser = try await store.appUser(app: app, appUserID: id) {
                account = try await store.account(id: appUser.userID)
            } else {
                account = nil
            }
        }
        guard let account, let summary = try await summary(of: account) else { throw ServiceError.notFound("user") }
        return summary
    }

    /// Everything the console shows of one user.
    ///
    /// - Throws: ``ServiceError`` `not_found` for no such user.
    public func read(_ user: String) async throws -> ConsoleUserRecord {
        guard let account = try await store.account(id: user), let summary = try await summary(of: account) else {
            throw ServiceError.notFound("user")
        }
        let at = now()
        let (state, unlocks, days) = try await store.evaluate(user) { engine, profile in
            let state = engine.state(at: at, zone: profile.timeZone, calendarDays: Self.calendarDays)
            let days = DayExplanation.explain(
                state, events: engine.streaks.events, dayStartHour: profile.dayStartHour)
            return (state, engine.unlocks, days)
        }
        let habits = state.habits.map { habit in
            ConsoleUserRecord.Habit(
                id: habit.definition.id, name: habit.definition.name, current: habit.current, best: habit.best,
                today: habit.today.state, archived: habit.archivedDay != nil,
                days: days[habit.definition.id] ?? [])
        }
        return ConsoleUserRecord(
            summary: summary, today: state.today, habits: habits, wallet: state.wallet,
            ledger: Array(state.ledger.suffix(Self.recentLimit).reversed()),
            unlocks: unlocks.sorted { ($0.achievedAt, $0.id) > ($1.achievedAt, $1.id) }.map {
                ConsoleUserRecord.UnlockLine(
                    id: $0.id, title: $0.title, achievedAt: $0.achievedAt, habit: $0.habit, retroactive: $0.retroactive)
            },
            devices: try await store.sessions(of: user).map {
                ConsoleUserRecord.Device(
                    name: $0.deviceName, createdAt: $0.createdAt, lastSeenAt: $0.lastSeenAt, expiresAt: $0.expiresAt)
            },
            identities: try await store.linkedIdentities(of: user).map {
                ConsoleUserRecord.Identity(provider: $0.provider, email: $0.email, linkedAt: $0.linkedAt)
            },
            deliveries: try await store.recentDeliveries(of: user, limit: Self.recentLimit),
            reviewFlags: try await store.reviewFlags(of: user, limit: Self.recentLimit))
    }

    private func summary(of account: Account) async throws -> ConsoleUserSummary? {
        guard let profile = try await store.profile(of: account.id) else { return nil }
        let appUser = try await store.appUser(of: account.id)
        return ConsoleUserSummary(
            id: account.id, email: account.email, displayName: profile.displayName, createdAt: account.createdAt,
            timeZone: profile.timeZone, dayStartHour: profile.dayStartHour, packs: profile.packs,
            language: profile.language, app: appUser?.app, appUserID: appUser?.appUserID)
    }
}

/// Who a looked-up user is (``UserLookup/find(_:)``).
public struct ConsoleUserSummary: Codable, Sendable, Hashable {
    /// The user's id.
    public var id: String
    /// The account's email; absent for an app's user or an identity-only account.
    public var email: String?
    /// The name the user shows.
    public var displayName: String
    /// When the account was created.
    public var createdAt: Date
    /// The user's zone.
    public var timeZone: String
    /// The local hour the user's day starts.
    public var dayStartHour: Int
    /// The packs of the user's profile.
    public var packs: [String]
    /// The language the user chose, if any.
    public var language: String?
    /// The app whose user this is (server keys), if any.
    public var app: String?
    /// The app's own id for the user, if any.
    public var appUserID: String?
}

/// Everything the console shows of one user (``UserLookup/read(_:)``): read-only, never a
/// token.
public struct ConsoleUserRecord: Encodable, Sendable, Hashable {
    /// A habit with its streaks and its last 5 weeks explained.
    public struct Habit: Codable, Sendable, Hashable {
        /// The habit's id.
        public var id: String
        /// Its name.
        public var name: String
        /// The current streak.
        public var current: Int
        /// The longest streak.
        public var best: Int
        /// Today's state.
        public var today: DayState
        /// Whether it is archived.
        public var archived: Bool
        /// The last ``UserLookup/calendarDays`` days, oldest first, each explained.
        public var days: [DayExplanation]
    }

    /// An unlock the user has.
    public struct UnlockLine: Codable, Sendable, Hashable {
        /// The unlock's id.
        public var id: String
        /// Its title, in the user's language.
        public var title: String
        /// When it was achieved.
        public var achievedAt: Date
        /// The habit it is for, if any.
        public var habit: String?
        /// Whether it was granted from history (a backfill, an import) rather than as it
        /// happened.
        public var retroactive: Bool
    }

    /// A device signed in to the account (its session; never its token).
    public struct Device: Codable, Sendable, Hashable {
        /// The device's name.
        public var name: String
        /// When it signed in.
        public var createdAt: Date
        /// When it was last seen.
        public var lastSeenAt: Date
        /// When its session expires, if it does.
        public var expiresAt: Date?
    }

    /// An identity provider's account linked to the user.
    public struct Identity: Codable, Sendable, Hashable {
        /// The provider's name.
        public var provider: String
        /// The email the provider gave, if any.
        public var email: String?
        /// When it was linked.
        public var linkedAt: Date
    }

    /// Who the user is.
    public var summary: ConsoleUserSummary
    /// The user's today.
    public var today: LocalDay
    /// The habits, in creation order.
    public var habits: [Habit]
    /// The wallet.
    public var wallet: Wallet
    /// The ledger's latest entries, newest first, with their reasons.
    public var ledger: [LedgerEntry]
    /// The unlocks, newest first.
    public var unlocks: [UnlockLine]
    /// The devices signed in.
    public var devices: [Device]
    /// The identities linked.
    public var identities: [Identity]
    /// The latest deliveries of the user's notifications, newest first.
    public var deliveries: [UserDelivery]
    /// The user's latest review flags, whatever their status, newest first.
    public var reviewFlags: [ReviewFlagEntry]
}
