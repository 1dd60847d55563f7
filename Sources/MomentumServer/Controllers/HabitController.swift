import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// The habit writes (`/v1/habits…`: create, update, archive, check in, skip) and the
/// user's subjects (`/v1/subjects`): each records one event through ``EventIngest`` and
/// answers with the state ``Dashboard`` reads after it.
struct HabitController: Sendable {
    let ingest: EventIngest
    let dashboard: Dashboard
    /// The most bytes a request body may hold.
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.post("habits", use: create)
        group.patch("habits/:habit", use: update)
        group.post("habits/:habit/archive", use: archive)
        group.post("habits/:habit/check-ins", use: checkIn)
        group.post("habits/:habit/skips", use: skip)
        group.get("subjects", use: subjects)
        group.post("subjects", use: createSubject)
    }

    /// `POST /v1/habits`: creates a habit (`habit.created`, its id made when absent); 201
    /// with its state.
    @Sendable func create(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let route = EventRequest.Route(type: "habit.created", defaults: ["habit": Tokens.id("h_")])
        let (event, push) = try await ingest.record(
            try await request.eventRequest(for: route, limit: maxBodyBytes), route: route, caller: caller)
        let habit = event.payload.habitID ?? ""
        let state = try await habitState(habit, caller: caller, days: 7, after: push.version)
        return try JSONIO.response(state, status: .created)
    }

    /// `PATCH /v1/habits/{habit}`: changes a habit (`habit.updated`); its state.
    @Sendable func update(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let habit = try context.parameter("habit")
        let route = EventRequest.Route(type: "habit.updated", path: ["habit": habit])
        let (_, push) = try await ingest.record(
            try await request.eventRequest(for: route, limit: maxBodyBytes), route: route, caller: caller)
        return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
    }

    /// `POST /v1/habits/{habit}/archive`: archives a habit (`habit.archived`; an empty body
    /// is `{}`); its state.
    @Sendable func archive(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let habit = try context.parameter("habit")
        let route = EventRequest.Route(type: "habit.archived", path: ["habit": habit])
        let body = try await request.eventRequest(for: route, limit: maxBodyBytes, emptyIsObject: true)
        let (_, push) = try await ingest.record(body, route: route, caller: caller)
        return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
    }

    /// `POST /v1/habits/{habit}/check-ins`: a check-in (`completion`; an empty body is
    /// `{}`); the habit's state, the wallet and what it unlocked (``CheckInResponse``).
    ///
    /// The hot path: when the append hands over the habit's state as it stored it, the
    /// answer is spliced around those bytes rather than read and encoded again.
    @Sendable func checkIn(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let habit = try context.parameter("habit")
        let route = EventRequest.Route(type: "completion", path: ["habit": habit])
        let body = try await request.eventRequest(for: route, limit: maxBodyBytes, emptyIsObject: true)
        let (_, push) = try await ingest.record(body, route: route, caller: caller)
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

    /// `POST /v1/habits/{habit}/skips`: a skipped day (`skip`; an empty body is `{}`); the
    /// habit's state.
    @Sendable func skip(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let habit = try context.parameter("habit")
        let route = EventRequest.Route(type: "skip", path: ["habit": habit])
        let body = try await request.eventRequest(for: route, limit: maxBodyBytes, emptyIsObject: true)
        let (_, push) = try await ingest.record(body, route: route, caller: caller)
        return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
    }

    /// `GET /v1/subjects`: the user's subjects (pets, children, plants).
    @Sendable func subjects(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(["subjects": try await dashboard.subjects(of: caller.user)])
    }

    /// `POST /v1/subjects`: creates a subject (`subject`, its id made when absent); 201
    /// with it.
    @Sendable func createSubject(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let route = EventRequest.Route(type: "subject", defaults: ["subject": Tokens.id("s_")])
        let (event, _) = try await ingest.record(
            try await request.eventRequest(for: route, limit: maxBodyBytes), route: route, caller: caller)
        let subject = if case .subject(let created) = event.payload { created.id } else { "" }
        let stored = try await dashboard.subjects(of: caller.user).first { $0.id == subject }
        return try JSONIO.response(stored, status: .created)
    }

    /// A habit's state now, with `days` of calendar; 404 when the user has no such habit.
    /// After a write, `after` is the version it produced (read from the engine cache when
    /// it still holds that version).
    func habitState(_ habit: String, caller: Caller, days: Int, after version: Int64? = nil) async throws -> HabitState
    {
        guard
            let state = try await dashboard.habit(
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
