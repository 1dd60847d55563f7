import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore

/// `/v1/server/users/{appUserId}…`: an app's backend, with a server key
/// (``ServerKeyMiddleware``), records events for the app's users by the app's own ids,
/// reads their state, creates, updates and deletes them, and starts device sessions for
/// them (``BackendUsers``).
struct BackendController: Sendable {
    let backend: BackendUsers
    let ingest: EventIngest
    let dashboard: Dashboard
    let idempotency: IdempotencyMiddleware
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.post("users/:appUserId/events", use: record)
        group.get("users/:appUserId", use: state)
        group.put("users/:appUserId", use: put)
        group.delete("users/:appUserId", use: delete)
        group.post("users/:appUserId/sessions", use: session)
    }

    /// `POST /v1/server/users/{appUserId}/events`: one event (`event`) or a batch
    /// (`events`) for the app's user, created on its first with `timeZone`; the push's
    /// answer with the state of every habit an applied event touched.
    ///
    /// Everything that can refuse the request is checked before the user is created, so a
    /// refused call creates nothing. An `Idempotency-Key` is kept for the user (one user per
    /// app and app id), as a device's are.
    @Sendable func record(_ request: Request, context: MomentumContext) async throws -> Response {
        let key = try Self.key(context)
        try key.require("events:write")
        let appUserID = try context.parameter("appUserId")
        let body = try await JSONIO.collect(request, limit: maxBodyBytes)
        let decoded = try JSONIO.decode(BackendEventsRequest.self, body: body, of: request)
        if decoded.event != nil, decoded.events != nil {
            throw APIError.invalid("send one event (`event`) or a batch (`events`), not both", field: "events")
        }
        let events = decoded.events ?? decoded.event.map { [$0] } ?? []
        try backend.validate(events)
        let (user, created) = try await backend.findOrCreate(appUserID, key: key, timeZone: decoded.timeZone)
        var context = context
        context.caller = BackendUsers.caller(user, key: key)
        context.logged.user = user.userID
        var forwarded = request
        forwarded.body = .init(buffer: body)
        return try await idempotency.handle(forwarded, context: context) { _, context in
            let caller = try context.requireCaller()
            let push = try await ingest.append(events, caller: caller)
            return JSONIO.response(json: try await answer(push, events: events, user: user, created: created))
        }
    }

    /// The answer to recorded events: the push's fields, the user, whether this call
    /// created it, and the state of each habit an applied event touched (spliced from the
    /// states the append stored when it hands them over, as a check-in's answer is).
    func answer(_ push: PushResponse, events: [Event], user: AppUser, created: Bool) async throws -> [UInt8] {
        var touched: [String] = []
        for (index, outcome) in push.outcomes.enumerated() where index < events.count {
            guard case .applied = outcome.status, let habit = events[index].payload.habitID,
                !touched.contains(habit)
            else { continue }
            touched.append(habit)
        }
        var habits: [[UInt8]] = []
        for habit in touched {
            if AnswerForm.renames.isEmpty, UserProjection.calendarDays == CheckInResponse.calendarDays,
                let stored = push.habitJSON[habit]
            {
                habits.append(Array(stored.utf8))
            } else if let state = try await dashboard.habit(
                habit, of: user.userID, calendarDays: CheckInResponse.calendarDays, after: push.version)
            {
                habits.append(try MomentumJSON.encodeBytes(state, renaming: AnswerForm.renames))
            }
        }
        var out = try MomentumJSON.encodeBytes(
            RecordedAnswer(push: push, userID: user.userID, created: created), renaming: AnswerForm.renames)
        guard out.last == UInt8(ascii: "}") else { return out }
        out.removeLast()
        out += #","habits":["#.utf8
        for (index, habit) in habits.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += habit
        }
        out += "]}".utf8
        return out
    }

    /// `GET /v1/server/users/{appUserId}`: today's dashboard (habits and streaks) and the
    /// wallet; 404 `user_not_found` for a user never created.
    @Sendable func state(_ request: Request, context: MomentumContext) async throws -> Response {
        let key = try Self.key(context)
        return try JSONIO.response(try await backend.state(try context.parameter("appUserId"), key: key))
    }

    /// `PUT /v1/server/users/{appUserId}`: creates the user (201) or changes its time zone,
    /// display name or language (200).
    @Sendable func put(_ request: Request, context: MomentumContext) async throws -> Response {
        let key = try Self.key(context)
        try key.require("users:manage")
        let appUserID = try context.parameter("appUserId")
        let body = try await JSONIO.decode(
            BackendUserRequest.self, from: request, limit: maxBodyBytes, emptyIsObject: true)
        let (user, profile, created) = try await backend.put(
            appUserID, timeZone: body.timeZone, displayName: body.displayName, language: body.language, key: key)
        return try JSONIO.response(
            BackendUserView(
                app: user.app, appUserID: user.appUserID, userID: user.userID, profile: ProfileView(profile)),
            status: created ? .created : .ok)
    }

    /// `DELETE /v1/server/users/{appUserId}`: deletes the user with all its data; 204.
    @Sendable func delete(_ request: Request, context: MomentumContext) async throws -> Response {
        let key = try Self.key(context)
        try await backend.delete(try context.parameter("appUserId"), key: key)
        return Response(status: .noContent)
    }

    /// `POST /v1/server/users/{appUserId}/sessions`: a device session for the app's user
    /// (created on its first appearance), which the backend hands to its app; 201.
    @Sendable func session(_ request: Request, context: MomentumContext) async throws -> Response {
        let key = try Self.key(context)
        try key.require("sessions:create")
        let appUserID = try context.parameter("appUserId")
        let body = try await JSONIO.decode(
            BackendSessionRequest.self, from: request, limit: maxBodyBytes, emptyIsObject: true)
        let (session, _) = try await backend.startSession(
            for: appUserID, deviceName: body.deviceName, timeZone: body.timeZone, key: key)
        return try JSONIO.response(session, status: .created)
    }

    static func key(_ context: MomentumContext) throws -> ServerKeyCaller {
        guard let key = context.serverKey else {
            throw APIError(.unauthorized, "invalid_server_key", "this server key is not valid")
        }
        return key
    }
}

/// The fields of recorded events' answer but the habits (spliced in after).
struct RecordedAnswer: Encodable {
    var push: PushResponse
    var userID: String
    var created: Bool

    enum CodingKeys: String, CodingKey {
        case results, headSeq, wallet, unlocks, versions, userID, created
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(push.results, forKey: .results)
        try container.encode(push.headSeq, forKey: .headSeq)
        try container.encode(push.wallet, forKey: .wallet)
        try container.encode(push.unlocks, forKey: .unlocks)
        try container.encodeIfPresent(push.versions, forKey: .versions)
        try container.encode(userID, forKey: .userID)
        try container.encode(created, forKey: .created)
    }
}

/// An app's user as `PUT /v1/server/users/{appUserId}` answers it.
struct BackendUserView: Encodable {
    var app: String
    var appUserID: String
    var userID: String
    var profile: ProfileView
}
