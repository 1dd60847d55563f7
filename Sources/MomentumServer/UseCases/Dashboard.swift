import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// What a user sees, read from their engine: today, habits, analytics, the wallet and the
/// store, achievements, progression.
///
/// The JSON routes and the web pages both read here, so a page and the API never compute
/// the same thing two ways. Every read is at the clock's current instant and in the
/// user's current zone (the latest event's, else the profile's).
struct Dashboard: Sendable {
    let store: any MomentumStore
    let now: @Sendable () -> Date

    /// Today's dashboard, as `GET /v1/today` answers it.
    func today(_ user: String) async throws -> TodayReport {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            TodayReport.evaluate(&engine, now: now, profileZone: profile.timeZone)
        }
    }

    /// The engine's whole state with the profile, for a page that shows more than the
    /// dashboard's fields.
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - calendarDays: Days of calendar per habit.
    ///   - version: A projection version the state must include (a write's own).
    func state(_ user: String, calendarDays: Int, after version: Int64 = -1) async throws -> (UserState, Profile) {
        let now = now()
        return try await store.evaluate(user, after: version) { engine, profile in
            (engine.state(now: now, profile: profile, days: calendarDays), profile)
        }
    }

    /// The user's subjects (pets, children, plants), by id.
    func subjects(of user: String) async throws -> [Subject] {
        try await store.evaluate(user) { engine, _ in engine.achievements.subjects.values.sorted { $0.id < $1.id } }
    }

    /// Every habit with `calendarDays` of calendar.
    func habits(_ user: String, calendarDays: Int) async throws -> [HabitState] {
        try await state(user, calendarDays: calendarDays).0.habits
    }

    /// One habit's state, or `nil` when the user has no such habit.
    func habit(
        _ id: String, of user: String, calendarDays: Int, after version: Int64 = -1
    ) async throws
        -> HabitState?
    {
        try await state(user, calendarDays: calendarDays, after: version).0.habits.first { $0.definition.id == id }
    }

    /// One habit in detail: its state, analytics, unlocks and the zone they are in; `nil`
    /// when the user has no such habit.
    func habitDetail(_ id: String, of user: String, calendarDays: Int) async throws -> HabitDetail? {
        let now = now()
        return try await store.evaluate(user) { engine, profile -> HabitDetail? in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            let full = engine.state(at: now, zone: zone, calendarDays: calendarDays)
            guard let state = full.habits.first(where: { $0.definition.id == id }) else { return nil }
            var streaks = engine.streaks
            let analytics = streaks.analytics(at: now, zone: zone, translation: profile.translation).habits.first {
                $0.habit == id
            }
            return HabitDetail(
                habit: state, analytics: analytics, unlocks: engine.unlocks.filter { $0.habit == id }, zone: zone,
                today: full.today, groups: Array(Set(full.habits.compactMap(\.definition.group))).sorted(),
                pauses: full.pauses.filter { ($0.habit == nil || $0.habit == id) && $0.until >= full.today })
        }
    }

    /// Analytics across the user's habits.
    func analytics(_ user: String) async throws -> UserAnalytics {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            var streaks = engine.streaks
            return streaks.analytics(
                at: now, zone: streaks.latestZone ?? profile.timeZone, translation: profile.translation)
        }
    }

    /// Profile statistics.
    func stats(_ user: String) async throws -> ProfileStatsResponse {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            var streaks = engine.streaks
            let analytics = streaks.analytics(
                at: now, zone: streaks.latestZone ?? profile.timeZone, translation: profile.translation)
            return ProfileStatsResponse(
                statistics: analytics.profile, consistency: analytics.consistency,
                achievements: engine.unlocks.count, events: engine.streaks.events.count)
        }
    }

    /// The wallet and its ledger.
    func wallet(_ user: String) async throws -> WalletChangeResponse {
        let (state, _) = try await state(user, calendarDays: 1)
        return WalletChangeResponse(wallet: state.wallet, ledger: state.ledger)
    }

    /// The freeze store's catalog (the profile's pack's) and the wallet.
    func freezeStore(_ user: String) async throws -> StoreResponse {
        let (state, profile) = try await state(user, calendarDays: 1)
        return StoreResponse(catalog: (try? profile.rulePack().store) ?? RulePack.habits.store, wallet: state.wallet)
    }

    /// The rule pack in force (a combination for several).
    func pack(_ user: String) async throws -> RulePack {
        guard let profile = try await store.profile(of: user) else { throw APIError.notFound("account") }
        return try profile.rulePack()
    }

    /// Freezes offered for missed days, waiting for an answer.
    func freezeOffers(_ user: String) async throws -> [OpenFreezeOffer] {
        try await state(user, calendarDays: 1).0.freezeOffers
    }

    /// Achievements unlocked (in the order achieved) and still locked, the user's own
    /// milestones among them.
    func achievements(_ user: String) async throws -> AchievementsResponse {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            _ = engine.advance(to: now)
            let unlocked = engine.unlocks.sorted { ($0.achievedAt, $0.id) < ($1.achievedAt, $1.id) }
            let rules = Set(unlocked.map(\.rule))
            let subjectName = engine.achievements.firstSubject?.name
            // The pack's rules, then the user's own milestones (their titles as written).
            let locked = engine.achievements.rules.filter { !rules.contains($0.id) }.map {
                LockedAchievement(
                    rule: $0.id,
                    title: CustomMilestone.isCustom($0.id)
                        ? $0.title : $0.lockedTitle(subjectName: subjectName, translation: profile.translation),
                    category: $0.category, tier: $0.tier, badge: $0.badge)
            }
            return AchievementsResponse(unlocked: unlocked, locked: locked)
        }
    }

    /// Progression through the pack's methods: timelines, statistics, highlights.
    func progression(_ user: String) async throws -> ProgressionSummary {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            engine.summary(
                at: now, preferences: profile.preferences, zone: engine.streaks.latestZone ?? profile.timeZone,
                translation: profile.translation
            ).progression
        }
    }

    /// Progression through the pack's methods, with the unlocks and analytics the Journey
    /// page shows beside it.
    func journey(_ user: String) async throws -> Journey {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            var streaks = engine.streaks
            return Journey(
                progression: engine.summary(
                    at: now, preferences: profile.preferences, zone: zone, translation: profile.translation
                ).progression,
                unlocks: engine.unlocks,
                analytics: streaks.analytics(at: now, zone: zone, translation: profile.translation), zone: zone)
        }
    }
}

extension Dashboard {
    /// What the pack pages and Today's pack sections show: the pack in force, the journal
    /// (entries, checklist, log streaks, goals), the subjects and the progression, in the
    /// user's zone.
    func journal(_ user: String, recent: Int = 30) async throws -> JournalPage {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            _ = engine.advance(to: now, zone: zone)
            let table = ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
            let summary = engine.summary(
                at: now, preferences: profile.preferences, zone: zone, translation: profile.translation)
            let subjects = engine.achievements.subjects
            return JournalPage(
                pack: (try? profile.rulePack()) ?? .habits, journal: engine.achievements.journal(recent: recent),
                subjects: engine.achievements.subjectIDs.compactMap { subjects[$0] },
                progression: summary.progression, unlocks: engine.unlocks,
                today: engine.streaks.clock.localDay(of: now, in: table), now: now, zone: zone)
        }
    }
}

/// What a pack's page shows.
struct JournalPage: Sendable {
    /// The pack in force (a combination for several).
    var pack: RulePack
    var journal: JournalSummary
    /// The subjects in the order they were added.
    var subjects: [Subject]
    var progression: ProgressionSummary
    var unlocks: [Unlock]
    /// The user's local day now.
    var today: LocalDay
    var now: Date
    var zone: String
}

/// One habit in detail.
struct HabitDetail: Sendable {
    var habit: HabitState
    var analytics: HabitAnalytics?
    var unlocks: [Unlock]
    var zone: String
    /// The user's local day.
    var today: LocalDay
    /// The groups the user's habits are in.
    var groups: [String]
    /// The pauses of this habit or of every habit, under way or to come.
    var pauses: [PausePeriod]
}

/// What the Journey shows: progression, every unlock, analytics, in the user's zone.
struct Journey: Sendable {
    var progression: ProgressionSummary
    var unlocks: [Unlock]
    var analytics: UserAnalytics
    var zone: String
}

extension MomentumUser {
    /// The state at `now` in the zone of the user's latest event (their profile's zone
    /// before the first), with `days` of calendar per habit.
    mutating func state(now: Date, profile: Profile, days: Int) -> UserState {
        state(at: now, zone: streaks.latestZone ?? profile.timeZone, calendarDays: days)
    }
}
