import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// One habit in detail.
struct HabitDetailResponse: Codable {
    var habit: HabitState
    var analytics: HabitAnalytics?
}

extension Routes {
    /// The reads: each maps its request to a ``Dashboard`` question and the answer to JSON.
    func addReadRoutes(_ group: RouterGroup<MomentumContext>) {
        let dashboard = server.services.dashboard
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
            JSONIO.response(json: try await dashboard.analyticsJSON(try context.requireCaller().user))
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
            let route = EventRequest.Route(type: "purchase", envelope: ["eventId"])
            let body = try await JSONIO.decode(
                EventRequest.self, from: request, limit: 4_096, userInfo: [EventRequest.routeKey: route])
            _ = try await server.services.ingest.record(body, route: route, caller: caller)
            return try JSONIO.response(try await dashboard.wallet(caller.user), status: .created)
        }
        group.get("freeze-offers") { _, context in
            try JSONIO.response(["freezeOffers": try await dashboard.freezeOffers(try context.requireCaller().user)])
        }
        group.post("freeze-offers/decisions") { request, context in
            let caller = try context.requireCaller()
            let decision = try await JSONIO.decode(FreezeDecisionRequest.self, from: request, limit: 4_096)
            let body = EventRequest(eventId: decision.eventId, payload: decision.payload)
            _ = try await server.services.ingest.record(
                body, route: EventRequest.Route(type: decision.payload.type), caller: caller)
            return try JSONIO.response(try await dashboard.wallet(caller.user))
        }
        group.get("achievements") { _, context in
            try JSONIO.response(try await dashboard.achievements(try context.requireCaller().user))
        }
        group.get("progression") { _, context in
            try JSONIO.response(try await dashboard.progression(try context.requireCaller().user))
        }
        group.get("pack") { _, context in
            try JSONIO.response(PackDocument(try await dashboard.pack(try context.requireCaller().user)))
        }
    }
}

/// The rule pack in force and how its events are logged (`GET /v1/pack`): what a client
/// needs to render each member pack's forms.
struct PackDocument: Codable {
    struct Member: Codable {
        var name: String
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
                name: $0.name, title: $0.title, icon: $0.icon, eventTypes: $0.eventTypes, backfillDays: $0.backfillDays,
                forms: $0.forms, methods: $0.methods)
        }
    }
}
