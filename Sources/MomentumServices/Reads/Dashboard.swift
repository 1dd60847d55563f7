import CoreMetrics
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
///
/// Analytics (`GET /v1/analytics`, statistics, a habit's detail, the Journey) are computed
/// once per projection version and day (``AnalyticsCache``), and what one computation reads
/// is bounded by `EventLimits/analyticsBudget`. A read of more than ``smallReadDays``
/// habit-days (analytics, or calendars of years) waits for one of a few places
/// (``largeReads``), so that accounts with long histories cannot take every core from
/// everyone else's reads.
public struct Dashboard: Sendable {
    let store: any EventStore & AccountStore
    /// The now.
    public let now: @Sendable () -> Date
    /// Analytics computed, by user.
    public let analyticsCache: AnalyticsCache
    /// The places for reads of more than ``smallReadDays`` habit-days.
    public let largeReads: WorkSlots
    /// How long such a read waits for a place before it is refused.
    public let largeReadWait: Duration
    /// Reads refused for want of a place.
    private let largeReadsRefused: CoreMetrics.Counter
    /// The versions of the rules the answers announce.
    public let rules: RulesInForce

    /// The most habit-days a read computes at once, without a place: analytics of 10 habits
    /// over seven years (about a millisecond), or 90 days of calendar for 200 habits.
    public static let smallReadDays = 25_000

    /// A dashboard with the bounds `configuration` sets.
    public init(store: any EventStore & AccountStore, configuration: ServerConfiguration, factory: any MetricsFactory) {
        self.store = store
        now = configuration.clock
        analyticsCache = AnalyticsCache(capacity: configuration.analyticsCacheBytes, factory: factory)
        largeReads = WorkSlots(count: configuration.largeReadConcurrency)
        largeReadWait = configuration.largeReadQueueWait
        largeReadsRefused = Counter(label: "momentum_large_reads_refused_total", factory: factory)
        rules = RulesInForce(store: store, announced: configuration.ruleVersions)
    }

    /// Today's dashboard, as `GET /v1/today` answers it, with the versions of the rules
    /// that computed it.
    public func today(_ user: String) async throws -> TodayReport {
        let now = now()
        let rules = rules
        return try await store.evaluate(user) { engine, profile in
            var report = TodayReport.evaluate(&engine, now: now, profileZone: profile.timeZone)
            report.versions = rules.versions(of: profile)
            return report
        }
    }

    /// The engine's whole state with the profile, for a page that shows more than the
    /// dashboard's fields.
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - calendarDays: Days of calendar per habit.
    ///   - version: A projection version the state must include (a write's own).
    public func state(_ user: String, calendarDays: Int, after version: Int64 = -1) async throws -> (UserState, Profile)
    {
        let now = now()
        return try await evaluate(user, calendarDays: calendarDays, after: version) { engine, profile in
            (engine.state(now: now, profile: profile, days: calendarDays), profile)
        }
    }

    /// The user's subjects (pets, children, plants), by id.
    public func subjects(of user: String) async throws -> [Subject] {
        try await store.evaluate(user) { engine, _ in engine.achievements.subjects.values.sorted { $0.id < $1.id } }
    }

    /// Every habit with `calendarDays` of calendar.
    public func habits(_ user: String, calendarDays: Int) async throws -> [HabitState] {
        try await state(user, calendarDays: calendarDays).0.habits
    }

    /// One habit's state, or `nil` when the user has no such habit.
    public func habit(
        _ id: String, of user: String, calendarDays: Int, after version: Int64 = -1
    ) async throws
        -> HabitState?
    {
        try await state(user, calendarDays: calendarDays, after: version).0.habits.first { $0.definition.id == id }
    }

    /// One habit in detail: its state, analytics, unlocks and the zone they are in; `nil`
    /// when the user has no such habit.
    public func habitDetail(_ id: String, of user: String, calendarDays: Int) async throws -> HabitDetail? {
        let analytics = try await analytics(user).habits.first { $0.habit == id }
        let now = now()
        return try await evaluate(user, calendarDays: calendarDays) { engine, profile -> HabitDetail? in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            let full = engine.state(at: now, zone: zone, calendarDays: calendarDays)
            guard let state = full.habits.first(where: { $0.definition.id == id }) else { return nil }
            return HabitDetail(
                habit: state, analytics: analytics, unlocks: engine.unlocks.filter { $0.habit == id }, zone: zone,
                today: full.today, groups: Array(Set(full.habits.compactMap(\.definition.group))).sorted(),
                pauses: full.pauses.filter { ($0.habit == nil || $0.habit == id) && $0.until >= full.today },
                amnesties: full.amnesties)
        }
    }

    /// Analytics across the user's habits.
    public func analytics(_ user: String) async throws -> UserAnalytics {
        try await analyticsEntry(user, json: false).analytics
    }

    /// ``analytics(_:)`` as the JSON `GET /v1/analytics` answers, encoded once per version
    /// and day.
    public func analyticsJSON(_ user: String) async throws -> [UInt8] {
        let entry = try await analyticsEntry(user, json: true)
        return try entry.json ?? MomentumJSON.encodeBytes(entry.analytics, renaming: AnswerForm.renames)
    }

    /// Profile statistics.
    public func stats(_ user: String) async throws -> ProfileStatsResponse {
        let analytics = try await analytics(user)
        return try await store.evaluate(user) { engine, _ in
            ProfileStatsResponse(
                statistics: analytics.profile, consistency: analytics.consistency,
                achievements: engine.unlocks.count, events: engine.streaks.eventCount)
        }
    }

    /// The wallet and its ledger.
    public func wallet(_ user: String) async throws -> WalletChangeResponse {
        let (state, _) = try await state(user, calendarDays: 1)
        return WalletChangeResponse(wallet: state.wallet, ledger: state.ledger)
    }

    /// The freeze store's catalog (the profile's pack's) and the wallet.
    public func freezeStore(_ user: String) async throws -> StoreResponse {
        let (state, profile) = try await state(user, calendarDays: 1)
        return StoreResponse(
            catalog: (try? profile.rulePack(in: store.packLibrary).store) ?? RulePack.habits.store, wallet: state.wallet
        )
    }

    /// The rule pack in force (a combination for several).
    public func pack(_ user: String) async throws -> RulePack {
        guard let profile = try await store.profile(of: user) else { throw ServiceError.notFound("account") }
        return try profile.rulePack(in: store.packLibrary)
    }

    /// Freezes offered for missed days, waiting for an answer.
    public func freezeOffers(_ user: String) async throws -> [OpenFreezeOffer] {
        try await state(user, calendarDays: 1).0.freezeOffers
    }

    /// Achievements unlocked (in the order achieved) and still locked, the user's own
    /// milestones among them.
    public func achievements(_ user: String) async throws -> AchievementsResponse {
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
    public func progression(_ user: String) async throws -> ProgressionSummary {
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
    public func journey(_ user: String) async throws -> Journey {
        let analytics = try await analytics(user)
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            return Journey(
                progression: engine.summary(
                    at: now, preferences: profile.preferences, zone: zone, translation: profile.translation
                ).progression,
                unlocks: engine.unlocks, analytics: analytics, zone: zone)
        }
    }
}

/// What a read found it could do at once: its result, or nothing yet, because it reads
/// more than ``Dashboard/smallReadDays`` habit-days.
private enum Attempt<Value: Sendable>: Sendable {
    case done(Value)
    case large
}

extension Dashboard {
    /// Runs `body` on the user's engine (as ``MomentumStore/evaluate(_:after:_:)`` does),
    /// holding one of ``largeReads`` when the calendars of `calendarDays` it reads hold
    /// more than ``smallReadDays`` habit-days.
    ///
    /// - Throws: `.tooMany` `read_busy` when no place came free in time.
    private func evaluate<Result: Sendable>(
        _ user: String, calendarDays: Int, after version: Int64 = -1,
        _ body: @escaping @Sendable (inout MomentumUser, Profile) -> Result
    ) async throws -> Result {
        let now = now()
        let attempt = try await store.evaluate(user, after: version) { engine, profile -> Attempt<Result> in
            let today = engine.streaks.today(at: now, zone: engine.streaks.latestZone ?? profile.timeZone)
            guard engine.streaks.calendarHabitDays(calendarDays, today: today) <= Self.smallReadDays else {
                return .large
            }
            return .done(body(&engine, profile))
        }
        if case .done(let result) = attempt { return result }
        return try await withLargeReadPlace(reading: "calendars") {
            try await store.evaluate(user, after: version) { engine, profile in body(&engine, profile) }
        }
    }

    /// Runs `body` holding one of ``largeReads``.
    ///
    /// - Parameter what: What the read computes, for the refusal's message.
    /// - Throws: `.tooMany` `read_busy` (with a retry delay) when no place came free within
    ///   ``largeReadWait``.
    private func withLargeReadPlace<Result: Sendable>(
        reading what: String, _ body: () async throws -> Result
    ) async throws -> Result {
        guard await largeReads.acquire(waitingAtMost: largeReadWait) else {
            largeReadsRefused.increment()
            analyticsCache.countBusy()
            let retry = max(1, Int(largeReadWait.components.seconds))
            throw ServiceError(
                .tooMany(retryAfterSeconds: retry), "read_busy",
                "the server is computing as many large \(what) as it may at once; try again in \(retry) s")
        }
        defer { largeReads.release() }
        return try await body()
    }

    /// The user's analytics now, from the cache or computed (with their JSON when `json`):
    /// a computation or an encoding of more than ``smallReadDays`` habit-days holds one of
    /// ``largeReads``.
    ///
    /// - Throws: `.tooMany` `read_busy` (with a retry delay) when no place came free in time.
    private func analyticsEntry(_ user: String, json: Bool) async throws -> AnalyticsCache.Entry {
        let now = now()
        if case .done(let entry) = try await lookUp(user, now: now, computingLarge: false) {
            guard json, entry.json == nil else { return entry }
            if entry.analysedDays <= Self.smallReadDays { return try encoded(entry, of: user) }
        }
        return try await withLargeReadPlace(reading: "analytics") {
            // Another read may have computed them while this one waited.
            guard case .done(let entry) = try await lookUp(user, now: now, computingLarge: true) else {
                throw ServiceError(.failed, "internal_error", "analytics could not be computed")
            }
            return json && entry.json == nil ? try encoded(entry, of: user) : entry
        }
    }

    /// The user's entry for their version and day, computed and kept when missing, unless
    /// it would read more than ``smallReadDays`` habit-days and `computingLarge` is false.
    private func lookUp(
        _ user: String, now: Date, computingLarge: Bool
    ) async throws -> Attempt<AnalyticsCache.Entry> {
        let cache = analyticsCache
        return try await store.evaluateWithVersion(user) { engine, profile, version -> Attempt<AnalyticsCache.Entry> in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            let key = AnalyticsCache.Key(version: version, today: engine.streaks.today(at: now, zone: zone))
            if let entry = cache.entry(of: user, at: key) { return .done(entry) }
            let days = engine.streaks.analysedDays(today: key.today)
            guard computingLarge || days <= Self.smallReadDays else { return .large }
            var streaks = engine.streaks
            let analytics = streaks.analytics(at: now, zone: zone, translation: profile.translation)
            return .done(
                cache.keep(
                    computed: AnalyticsCache.Entry(key: key, analytics: analytics, analysedDays: days), for: user))
        }
    }

    /// The entry with its JSON, which the cache keeps beside it.
    private func encoded(_ entry: AnalyticsCache.Entry, of user: String) throws -> AnalyticsCache.Entry {
        var encoded = entry
        let json = try MomentumJSON.encodeBytes(entry.analytics, renaming: AnswerForm.renames)
        encoded.json = json
        analyticsCache.keep(json: json, for: user, at: entry.key)
        return encoded
    }
}

extension Dashboard {
    /// What the pack pages and Today's pack sections show: the pack in force, the journal
    /// (entries, checklist, log streaks, goals), the subjects and the progression, in the
    /// user's zone.
    public func journal(_ user: String, recent: Int = 30) async throws -> JournalPage {
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            let zone = engine.streaks.latestZone ?? profile.timeZone
            _ = engine.advance(to: now, zone: zone)
            let table = ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
            let summary = engine.summary(
                at: now, preferences: profile.preferences, zone: zone, translation: profile.translation)
            let subjects = engine.achievements.subjects
            return JournalPage(
                pack: (try? profile.rulePack(in: store.packLibrary)) ?? .habits,
                journal: engine.achievements.journal(recent: recent),
                subjects: engine.achievements.subjectIDs.compactMap { subjects[$0] },
                progression: summary.progression, unlocks: engine.unlocks,
                today: engine.streaks.clock.localDay(of: now, in: table), now: now, zone: zone)
        }
    }
}

/// What a pack's page shows.
public struct JournalPage: Sendable {
    /// The pack in force (a combination for several).
    public var pack: RulePack
    /// The journal.
    public var journal: JournalSummary
    /// The subjects in the order they were added.
    public var subjects: [Subject]
    /// The progression.
    public var progression: ProgressionSummary
    /// The unlocks.
    public var unlocks: [Unlock]
    /// The user's local day now.
    public var today: LocalDay
    /// The now.
    public var now: Date
    /// The zone.
    public var zone: String
}

/// One habit in detail.
public struct HabitDetail: Sendable {
    /// The habit.
    public var habit: HabitState
    /// The analytics.
    public var analytics: HabitAnalytics?
    /// The unlocks.
    public var unlocks: [Unlock]
    /// The zone.
    public var zone: String
    /// The user's local day.
    public var today: LocalDay
    /// The groups the user's habits are in.
    public var groups: [String]
    /// The pauses of this habit or of every habit, under way or to come.
    public var pauses: [PausePeriod]
    /// The amnesties not lifted: their reasons for the calendar's covered days.
    public var amnesties: [AmnestyPeriod] = []
}

/// What the Journey shows: progression, every unlock, analytics, in the user's zone.
public struct Journey: Sendable {
    /// The progression.
    public var progression: ProgressionSummary
    /// The unlocks.
    public var unlocks: [Unlock]
    /// The analytics.
    public var analytics: UserAnalytics
    /// The zone.
    public var zone: String
}

extension MomentumUser {
    /// The state at `now` in the zone of the user's latest event (their profile's zone
    /// before the first), with `days` of calendar per habit.
    public mutating func state(now: Date, profile: Profile, days: Int) -> UserState {
        state(at: now, zone: streaks.latestZone ?? profile.timeZone, calendarDays: days)
    }
}
