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
    /// The reads: each maps its request to a ``Dashboard`` question and the answer to JSON.
    func addReadRoutes(_ group: RouterGroup<MomentumContext>) {
        let dashboard = server.dashboard
        group.get("today") { _, context in
            try JSONIO.response(try await dashboard.today(try context.requireCaller().user))
        }
        group.get("habits") { request, context in
            let caller = try context.requireCaller()
            let days = try request.integer("days", default: 7, in: 0...3_650)
            let habits = try await dashboard.habits(caller.user, calendarDays: max(1, days))
            return try JSONIO.response(["habits": habits])
        }
        group.get("habits/:habit") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let days = try request.integer("days", default: 90, in: 1...3_650)
            guard let detail = try await dashboard.habitDetail(habit, of: caller.user, calendarDays: days) else {
                throw APIError.notFound("habit '\(habit)'")
            }
            return try JSONIO.response(HabitDetailResponse(habit: detail.habit, analytics: detail.analytics))
        }
        group.get("analytics") { _, context in
            try JSONIO.response(try await dashboard.analytics(try context.requireCaller().user))
        }
        group.get("stats") { _, context in
            try JSONIO.response(try await dashboard.stats(try context.requireCaller().user))
        }
        group.get("wallet") { _, context in
            try JSONIO.response(try await dashboard.wallet(try context.requireCaller().user))
        }
        group.get("store") { _, context in
            try JSONIO.response(try await dashboard.freezeStore(try context.requireCaller().user))
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
            return try JSONIO.response(try await dashboard.wallet(caller.user), status: .created)
        }
        group.get("freeze-offers") { _, context in
            try JSONIO.response(["freezeOffers": try await dashboard.freezeOffers(try context.requireCaller().user)])
        }
        group.post("freeze-offers/decisions") { request, context in
            let caller = try context.requireCaller()
            let body = try await JSONIO.decode(FreezeDecisionRequest.self, from: request, limit: 4_096)
            var fields: [String: JSONValue] = ["habit": .string(body.habit), "day": .string(body.day.description)]
            if let id = body.eventId { fields["eventId"] = .string(id) }
            let type = body.accept ? "freeze.accepted" : "freeze.declined"
            _ = try await appendEvent(type, fields: fields, caller: caller)
            return try JSONIO.response(try await dashboard.wallet(caller.user))
        }
        group.get("achievements") { _, context in
            try JSONIO.response(try await dashboard.achievements(try context.requireCaller().user))
        }
        group.get("progression") { _, context in
            try JSONIO.response(try await dashboard.progression(try context.requireCaller().user))
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
