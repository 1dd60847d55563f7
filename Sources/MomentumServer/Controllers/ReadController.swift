import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices

/// One habit in detail.
struct HabitDetailResponse: Codable {
    var habit: HabitState
    var analytics: HabitAnalytics?
}

/// The reads (`/v1/today`, `/v1/habits`, analytics, wallet, store, achievements, …): each
/// maps its request to a ``Dashboard`` question and the answer to JSON; the two store
/// writes (a purchase, a freeze decision) go through ``EventIngest``.
struct ReadController: Sendable {
    let dashboard: Dashboard
    let ingest: EventIngest

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("today", use: today)
        group.get("habits", use: habits)
        group.get("habits/:habit", use: habit)
        group.get("analytics", use: analytics)
        group.get("stats", use: stats)
        group.get("wallet", use: wallet)
        group.get("store", use: store)
        group.post("store/purchases", use: purchase)
        group.get("freeze-offers", use: freezeOffers)
        group.post("freeze-offers/decisions", use: decideFreezeOffer)
        group.get("achievements", use: achievements)
        group.get("progression", use: progression)
        group.get("pack", use: pack)
    }

    /// `GET /v1/today`: today's dashboard.
    @Sendable func today(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await dashboard.today(try context.requireCaller().user))
    }

    /// `GET /v1/habits?days=`: every habit with `days` of calendar (at least one).
    @Sendable func habits(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let days = try request.integer("days", default: 7, in: 0...3_650)
        let habits = try await dashboard.habits(caller.user, calendarDays: max(1, days))
        return try JSONIO.response(["habits": habits])
    }

    /// `GET /v1/habits/{habit}?days=`: one habit in detail, with its analytics; 404 when
    /// the user has no such habit.
    @Sendable func habit(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let habit = try context.parameter("habit")
        let days = try request.integer("days", default: 90, in: 1...3_650)
        guard let detail = try await dashboard.habitDetail(habit, of: caller.user, calendarDays: days) else {
            throw APIError.notFound("habit '\(habit)'")
        }
        return try JSONIO.response(HabitDetailResponse(habit: detail.habit, analytics: detail.analytics))
    }

    /// `GET /v1/analytics`: analytics across the user's habits, encoded once per version and day.
    @Sendable func analytics(_ request: Request, context: MomentumContext) async throws -> Response {
        JSONIO.response(json: try await dashboard.analyticsJSON(try context.requireCaller().user))
    }

    /// `GET /v1/stats`: profile statistics.
    @Sendable func stats(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await dashboard.stats(try context.requireCaller().user))
    }

    /// `GET /v1/wallet`: the wallet and its ledger.
    @Sendable func wallet(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await dashboard.wallet(try context.requireCaller().user))
    }

    /// `GET /v1/store`: the freeze store's catalog and the wallet.
    @Sendable func store(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await dashboard.freezeStore(try context.requireCaller().user))
    }

    /// `POST /v1/store/purchases`: a purchase, recorded as a `purchase` event; 201 with
    /// the wallet after it.
    @Sendable func purchase(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let route = EventRequest.Route(type: "purchase", envelope: ["eventId"])
        let body = try await JSONIO.decode(
            EventRequest.self, from: request, limit: 4_096, userInfo: [EventRequest.routeKey: route])
        _ = try await ingest.record(body, route: route, caller: caller)
        return try JSONIO.response(try await dashboard.wallet(caller.user), status: .created)
    }

    /// `GET /v1/freeze-offers`: freezes offered for missed days, waiting for an answer.
    @Sendable func freezeOffers(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(["freezeOffers": try await dashboard.freezeOffers(try context.requireCaller().user)])
    }

    /// `POST /v1/freeze-offers/decisions`: the user takes or declines an offer, recorded
    /// as an event of the decision's type; the wallet after it.
    @Sendable func decideFreezeOffer(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let decision = try await JSONIO.decode(FreezeDecisionRequest.self, from: request, limit: 4_096)
        let body = EventRequest(eventId: decision.eventId, payload: decision.payload)
        _ = try await ingest.record(body, route: EventRequest.Route(type: decision.payload.type), caller: caller)
        return try JSONIO.response(try await dashboard.wallet(caller.user))
    }

    /// `GET /v1/achievements`: achievements unlocked and still locked.
    @Sendable func achievements(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await dashboard.achievements(try context.requireCaller().user))
    }

    /// `GET /v1/progression`: progression through the pack's methods.
    @Sendable func progression(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(try await dashboard.progression(try context.requireCaller().user))
    }

    /// `GET /v1/pack`: the rule pack in force (``PackDocument``).
    @Sendable func pack(_ request: Request, context: MomentumContext) async throws -> Response {
        try JSONIO.response(PackDocument(try await dashboard.pack(try context.requireCaller().user)))
    }
}

/// The rule pack in force and how its events are logged (`GET /v1/pack`): what a client
/// needs to render each member pack's forms.
struct PackDocument: Codable {
    struct Member: Codable {
        var name: String
        var version: String
        var title: String
        var icon: String?
        var eventTypes: [String]
        /// Absent for no limit.
        var backfillDays: Int?
        var forms: [LogForm]
        var methods: [ProgressionMethod]
    }

    var name: String
    var packs: [String]
    var members: [Member]

    init(_ pack: RulePack) {
        name = pack.name
        packs = pack.memberNames
        members = pack.members.map {
            Member(
                name: $0.name, version: $0.version, title: $0.title, icon: $0.icon, eventTypes: $0.eventTypes,
                backfillDays: $0.backfillDays, forms: $0.forms, methods: $0.methods)
        }
    }
}
