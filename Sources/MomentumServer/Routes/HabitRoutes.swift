import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

extension Routes {
    func addHabitRoutes(_ group: RouterGroup<MomentumContext>) {
        group.post("habits") { request, context in
            let caller = try context.requireCaller()
            let route = EventRequest.Route(type: "habit.created", defaults: ["habit": Tokens.id("h_")])
            let (event, push) = try await server.services.ingest.record(
                try await body(request, for: route), route: route, caller: caller)
            let habit = event.payload.habitID ?? ""
            let state = try await habitState(habit, caller: caller, days: 7, after: push.version)
            return try JSONIO.response(state, status: .created)
        }
        group.patch("habits/:habit") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let route = EventRequest.Route(type: "habit.updated", path: ["habit": habit])
            let (_, push) = try await server.services.ingest.record(
                try await body(request, for: route), route: route, caller: caller)
            return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
        }
        group.post("habits/:habit/archive") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let route = EventRequest.Route(type: "habit.archived", path: ["habit": habit])
            let body = try await body(request, for: route, emptyIsObject: true)
            let (_, push) = try await server.services.ingest.record(body, route: route, caller: caller)
            return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
        }
        group.post("habits/:habit/check-ins") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let route = EventRequest.Route(type: "completion", path: ["habit": habit])
            let body = try await body(request, for: route, emptyIsObject: true)
            let (_, push) = try await server.services.ingest.record(body, route: route, caller: caller)
            if UserProjection.calendarDays == CheckInResponse.calendarDays, AnswerForm.renames.isEmpty,
                let stored = push.habitJSON[habit]
            {
                // The habit's state as the append stored it, at the check-in's instant: the
                // same bytes encoding it again would give (the store hands them over only
                // while its form of a habit's state is the domain's, which is the answer's).
                return JSONIO.response(
                    json: try CheckInResponse.encoded(habitJSON: stored, wallet: push.wallet, unlocks: push.unlocks))
            }
            let state = try await habitState(
                habit, caller: caller, days: CheckInResponse.calendarDays, after: push.version)
            return try JSONIO.response(CheckInResponse(habit: state, wallet: push.wallet, unlocks: push.unlocks))
        }
        group.post("habits/:habit/skips") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let route = EventRequest.Route(type: "skip", path: ["habit": habit])
            let body = try await body(request, for: route, emptyIsObject: true)
            let (_, push) = try await server.services.ingest.record(body, route: route, caller: caller)
            return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
        }
        group.get("subjects") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(["subjects": try await server.services.dashboard.subjects(of: caller.user)])
        }
        group.post("subjects") { request, context in
            let caller = try context.requireCaller()
            let route = EventRequest.Route(type: "subject", defaults: ["subject": Tokens.id("s_")])
            let (event, _) = try await server.services.ingest.record(
                try await body(request, for: route), route: route, caller: caller)
            let subject = if case .subject(let created) = event.payload { created.id } else { "" }
            let stored = try await server.services.dashboard.subjects(of: caller.user).first { $0.id == subject }
            return try JSONIO.response(stored, status: .created)
        }
    }

    /// A convenience route's body (``Request/eventRequest(for:limit:emptyIsObject:)``).
    func body(
        _ request: Request, for route: EventRequest.Route, emptyIsObject: Bool = false
    ) async throws -> EventRequest {
        try await request.eventRequest(
            for: route, limit: server.configuration.maxBodyBytes, emptyIsObject: emptyIsObject)
    }

    /// A habit's state now, with `days` of calendar; 404 when the user has no such habit.
    /// After a write, `after` is the version it produced (read from the engine cache when
    /// it still holds that version).
    func habitState(_ habit: String, caller: Caller, days: Int, after version: Int64? = nil) async throws -> HabitState
    {
        guard
            let state = try await server.services.dashboard.habit(
                habit, of: caller.user, calendarDays: days, after: version ?? -1)
        else { throw APIError.notFound("habit '\(habit)'") }
        return state
    }
}

/// The answer to a check-in.
struct CheckInResponse: Codable {
    /// How many days of calendar the habit's state holds.
    static let calendarDays = 7

    var habit: HabitState
    var wallet: Wallet
    var unlocks: [Unlock]

    /// The answer's JSON, with the habit's state already encoded (`MomentumJSON`): the
    /// bytes ``MomentumJSON/encodeBytes(_:)`` writes for the decoded value.
    static func encoded(habitJSON: String, wallet: Wallet, unlocks: [Unlock]) throws -> [UInt8] {
        // Canonical JSON puts the keys in byte order: habit, unlocks, wallet.
        var out = Array(#"{"habit":"#.utf8)
        out.reserveCapacity(habitJSON.utf8.count + 256)
        out += habitJSON.utf8
        out += #","unlocks":"#.utf8
        out += try MomentumJSON.encodeBytes(unlocks)
        out += #","wallet":"#.utf8
        out += try MomentumJSON.encodeBytes(wallet)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
