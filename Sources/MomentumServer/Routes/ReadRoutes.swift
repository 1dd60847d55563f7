import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumStore

/// One habit in detail.
struct HabitDetailResponse: Codable {
    var habit: HabitState
    var analytics: HabitAnalytics?
}

/// An achievement not unlocked yet.
struct LockedAchievement: Codable {
    var rule: String
    var title: String
    var category: String
    var tier: CelebrationTier
    var badge: String?
}

/// Achievements, unlocked (with dates) and still locked.
struct AchievementsResponse: Codable {
    var unlocked: [Unlock]
    var locked: [LockedAchievement]
}

/// A purchase in the freeze store.
struct PurchaseRequest: Codable {
    var item: String?
    var days: Int?
    var eventId: String?
}

/// The answer to a purchase or a freeze decision.
struct WalletChangeResponse: Codable {
    var wallet: Wallet
    var ledger: [LedgerEntry]
}

/// Accepting or declining a freeze offer.
struct FreezeDecisionRequest: Codable {
    var habit: String
    var day: LocalDay
    var accept: Bool
    var eventId: String?
}

extension Routes {
    func addReadRoutes(_ group: RouterGroup<MomentumContext>) {
        group.get("today") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let today = try await server.store.evaluate(caller.user) { engine, profile in
                TodayReport.evaluate(&engine, now: now, profileZone: profile.timeZone)
            }
            return try JSONIO.response(today)
        }
        group.get("habits") { request, context in
            let caller = try context.requireCaller()
            let days = try request.integer("days", default: 7, in: 0...3_650)
            let now = server.now()
            let habits = try await server.store.evaluate(caller.user) { engine, profile in
                engine.state(now: now, profile: profile, days: max(1, days))
                    .habits
            }
            return try JSONIO.response(["habits": habits])
        }
        group.get("habits/:habit") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let days = try request.integer("days", default: 90, in: 1...3_650)
            let now = server.now()
            let detail = try await server.store.evaluate(caller.user) { engine, profile -> HabitDetailResponse? in
                let zone = engine.streaks.latestZone ?? profile.timeZone
                guard
                    let state = engine.state(at: now, zone: zone, calendarDays: days).habits.first(where: {
                        $0.definition.id == habit
                    })
                else { return nil }
                var streaks = engine.streaks
                let analytics = streaks.analytics(at: now, zone: zone).habits.first { $0.habit == habit }
                return HabitDetailResponse(habit: state, analytics: analytics)
            }
            guard let detail else { throw APIError.notFound("habit '\(habit)'") }
            return try JSONIO.response(detail)
        }
        group.get("analytics") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let analytics = try await server.store.evaluate(caller.user) { engine, profile in
                var streaks = engine.streaks
                return streaks.analytics(at: now, zone: streaks.latestZone ?? profile.timeZone)
            }
            return try JSONIO.response(analytics)
        }
        group.get("stats") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let stats = try await server.store.evaluate(caller.user) { engine, profile in
                var streaks = engine.streaks
                let analytics = streaks.analytics(at: now, zone: streaks.latestZone ?? profile.timeZone)
                return ProfileStatsResponse(
                    statistics: analytics.profile, consistency: analytics.consistency,
                    achievements: engine.unlocks.count, events: engine.streaks.events.count)
            }
            return try JSONIO.response(stats)
        }
        group.get("wallet") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(try await walletState(caller))
        }
        group.get("store") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let response = try await server.store.evaluate(caller.user) { engine, profile in
                let state = engine.state(now: now, profile: profile, days: 1)
                return StoreResponse(
                    catalog: (try? profile.rulePack().store) ?? RulePack.habits.store, wallet: state.wallet)
            }
            return try JSONIO.response(response)
        }
        group.post("store/purchases") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(PurchaseRequest.self, from: request, limit: 4_096)
            var fields: [String: JSONValue] = [:]
            if let item = body.item { fields["item"] = .string(item) }
            if let days = body.days { fields["days"] = .number(Double(days)) }
            if let id = body.eventId { fields["eventId"] = .string(id) }
            if body.item == nil, body.days == nil {
                throw APIError(
                    .unprocessableContent, "invalid_input", "name a store item or a number of days",
                    details: [.init(field: "item", issue: "item or days is required")])
            }
            _ = try await appendEvent("purchase", fields: fields, caller: caller)
            return try JSONIO.response(try await walletState(caller), status: .created)
        }
        group.get("freeze-offers") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let offers = try await server.store.evaluate(caller.user) { engine, profile in
                engine.state(now: now, profile: profile, days: 1).freezeOffers
            }
            return try JSONIO.response(["freezeOffers": offers])
        }
        group.post("freeze-offers/decisions") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(FreezeDecisionRequest.self, from: request, limit: 4_096)
            var fields: [String: JSONValue] = ["habit": .string(body.habit), "day": .string(body.day.description)]
            if let id = body.eventId { fields["eventId"] = .string(id) }
            let type = body.accept ? "freeze.accepted" : "freeze.declined"
            _ = try await appendEvent(type, fields: fields, caller: caller)
            return try JSONIO.response(try await walletState(caller))
        }
        group.get("achievements") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let response = try await server.store.evaluate(caller.user) { engine, profile in
                _ = engine.advance(to: now)
                let unlocked = engine.unlocks.sorted { ($0.achievedAt, $0.id) < ($1.achievedAt, $1.id) }
                let rules = Set(unlocked.map(\.rule))
                let locked = ((try? profile.rulePack().achievements) ?? []).filter { !rules.contains($0.id) }.map {
                    LockedAchievement(
                        rule: $0.id, title: $0.title, category: $0.category, tier: $0.tier, badge: $0.badge)
                }
                return AchievementsResponse(unlocked: unlocked, locked: locked)
            }
            return try JSONIO.response(response)
        }
        group.get("progression") { _, context in
            let caller = try context.requireCaller()
            let now = server.now()
            let progression = try await server.store.evaluate(caller.user) { engine, profile in
                engine.summary(
                    at: now, preferences: profile.preferences, zone: engine.streaks.latestZone ?? profile.timeZone
                ).progression
            }
            return try JSONIO.response(progression)
        }
    }

    func walletState(_ caller: Caller) async throws -> WalletChangeResponse {
        let now = server.now()
        return try await server.store.evaluate(caller.user) { engine, profile in
            let state = engine.state(now: now, profile: profile, days: 1)
            return WalletChangeResponse(wallet: state.wallet, ledger: state.ledger)
        }
    }
}

/// The freeze store: what can be bought, and the user's balance.
struct StoreResponse: Codable {
    var catalog: StoreCatalog
    var wallet: Wallet
}

/// Profile statistics.
struct ProfileStatsResponse: Codable {
    var statistics: ProfileStatistics
    var consistency: ConsistencyScore
    var achievements: Int
    var events: Int
}

extension MomentumUser {
    /// The state at `now` in the zone of the user's latest event (their profile's zone
    /// before the first), with `days` of calendar per habit.
    mutating func state(now: Date, profile: Profile, days: Int) -> UserState {
        state(at: now, zone: streaks.latestZone ?? profile.timeZone, calendarDays: days)
    }
}
