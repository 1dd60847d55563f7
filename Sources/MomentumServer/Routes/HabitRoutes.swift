import Foundation
import Hummingbird
import MomentumCore
import MomentumStore

extension Routes {
    func addHabitRoutes(_ group: RouterGroup<MomentumContext>) {
        group.post("habits") { request, context in
            let caller = try context.requireCaller()
            let (event, push) = try await appendEvent(
                "habit.created", fields: try await fields(request), generated: ["habit": .string(Tokens.id("h_"))],
                caller: caller)
            let habit = event.payload.habitID ?? ""
            let state = try await habitState(habit, caller: caller, days: 7, after: push.version)
            return try JSONIO.response(state, status: .created)
        }
        group.patch("habits/:habit") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let fields = try await fields(request)
            let (_, push) = try await appendEvent(
                "habit.updated", fields: fields, path: ["habit": .string(habit)], caller: caller)
            return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
        }
        group.post("habits/:habit/archive") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let fields = try await fields(request, optional: true)
            let (_, push) = try await appendEvent(
                "habit.archived", fields: fields, path: ["habit": .string(habit)], caller: caller)
            return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
        }
        group.post("habits/:habit/check-ins") { request, context in
            let caller = try context.requireCaller()
            let habit = try context.parameter("habit")
            let fields = try await fields(request, optional: true)
            let (_, push) = try await appendEvent(
                "completion", fields: fields, path: ["habit": .string(habit)], caller: caller)
            if UserProjection.calendarDays == CheckInResponse.calendarDays, let stored = push.habitJSON[habit] {
                // The habit's state as the append stored it, at the check-in's instant: the
                // same bytes encoding it again would give.
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
            let fields = try await fields(request, optional: true)
            let (_, push) = try await appendEvent(
                "skip", fields: fields, path: ["habit": .string(habit)], caller: caller)
            return try JSONIO.response(try await habitState(habit, caller: caller, days: 7, after: push.version))
        }
        group.get("subjects") { _, context in
            let caller = try context.requireCaller()
            let subjects = try await server.store.evaluate(caller.user) { engine, _ in
                engine.achievements.subjects.values.sorted { $0.id < $1.id }
            }
            return try JSONIO.response(["subjects": subjects])
        }
        group.post("subjects") { request, context in
            let caller = try context.requireCaller()
            let (event, _) = try await appendEvent(
                "subject", fields: try await fields(request), generated: ["subject": .string(Tokens.id("s_"))],
                caller: caller)
            let subject = if case .subject(let created) = event.payload { created.id } else { "" }
            let stored = try await server.store.evaluate(caller.user) { engine, _ in
                engine.achievements.subjects[subject]
            }
            return try JSONIO.response(stored, status: .created)
        }
    }

    /// The request's JSON object (an empty one when the body is empty and `optional`).
    func fields(_ request: Request, optional: Bool = false) async throws -> [String: JSONValue] {
        let buffer = try await request.body.collect(upTo: server.configuration.maxBodyBytes)
        if buffer.readableBytes == 0, optional { return [:] }
        let value = try JSONIO.decode(JSONValue.self, from: Data(buffer: buffer))
        guard case .object(let object) = value else {
            throw APIError(.unprocessableContent, "invalid_input", "the body must be a JSON object")
        }
        for reserved in ["type", "id"] where object[reserved] != nil {
            throw APIError.invalid(
                "is set by the endpoint (send a client event id as 'eventId')", field: reserved)
        }
        return object
    }

    /// An event of `type` from a request's fields: `eventId` (client-generated for safe
    /// retries; generated here if absent), `at` (now if absent) and `tz` (the zone of the
    /// user's latest event, or their profile's, if absent).
    func makeEvent(_ type: String, fields: [String: JSONValue], caller: Caller) async throws -> Event {
        var zone: String?
        if fields["tz"] == nil {
            let latest = try await server.detector.zone(of: caller.user) {
                try await server.store.evaluate(caller.user) { engine, _ in engine.streaks.latestZone }
            }
            if let latest {
                zone = latest
            } else {
                zone = try await server.store.profile(of: caller.user)?.timeZone ?? "UTC"
            }
        }
        return try Self.event(type, fields: fields, now: server.now(), zone: zone)
    }

    /// Stores the event of `type` a convenience route makes of a request's fields (see
    /// ``makeEvent(_:fields:caller:)``), `generated` standing in for fields the request
    /// left out (a new habit's id, say).
    ///
    /// A retried request is answered as the first was: when the event id is already stored
    /// for an event that differs only in what the server filled in (`at`, `tz`, the
    /// generated fields, which differ on every attempt), the stored event is the one
    /// appended, a duplicate. An id stored for an event that differs in a field the client
    /// gave is still a 409.
    ///
    /// - Returns: The event stored under the id (on a retry, the first attempt's) and what
    ///   the push did.
    func appendEvent(
        _ type: String, fields sent: [String: JSONValue], path: [String: JSONValue] = [:],
        generated: [String: JSONValue] = [:], caller: Caller
    ) async throws -> (event: Event, push: PushResponse) {
        try Self.checkFields(sent, of: type, path: path)
        let given = path.isEmpty ? sent : sent.merging(path) { _, fromPath in fromPath }
        let fields = generated.isEmpty ? given : given.merging(generated) { field, _ in field }
        let event = try await makeEvent(type, fields: fields, caller: caller)
        do {
            return (event, try await server.ingest.appendOne(event, caller: caller))
        } catch let error as APIError where error.code == "conflicting_event_id" && given["eventId"] != nil {
            let filled = ["at", "tz"] + generated.keys
            guard filled.contains(where: { given[$0] == nil }),
                let stored = try await server.store.evaluate(
                    caller.user,
                    { engine, _ in
                        engine.streaks.event(id: event.id)
                    }),
                try Self.isRetry(of: stored, type: type, given: given, filled: filled)
            else { throw error }
            return (stored, try await server.ingest.appendOne(stored, caller: caller))
        }
    }

    /// Refuses a field that a convenience route for events of `type` does not take (naming
    /// the ones it does: the event's own, less those the path gives, with `eventId`, `at`
    /// and `tz`), and a field that says otherwise than the path.
    static func checkFields(_ sent: [String: JSONValue], of type: String, path: [String: JSONValue]) throws {
        func refuse(_ field: String, _ issue: String) -> APIError {
            APIError(
                .unprocessableContent, "invalid_input", "\(field): \(issue)",
                details: [.init(field: field, issue: issue)])
        }
        let payload = Event.fieldsByType[type] ?? []
        for (field, value) in sent {
            if let fixed = path[field] {
                guard value == fixed else {
                    let named = if case .string(let text) = fixed { " ('\(text)')" } else { "" }
                    throw refuse(field, "is given by the path\(named); leave it out")
                }
            } else if !payload.contains(field), !["eventId", "at", "tz"].contains(field) {
                let known = payload.subtracting(path.keys).union(["eventId", "at", "tz"]).sorted()
                throw refuse(field, "is not a field here (\(known.joined(separator: ", ")))")
            }
        }
    }

    /// Whether the fields a request gave make `stored` once what the server filled in is
    /// taken from it.
    static func isRetry(of stored: Event, type: String, given: [String: JSONValue], filled: [String]) throws -> Bool {
        guard case .object(let original) = try JSONIO.decode(JSONValue.self, from: MomentumJSON.encode(stored)) else {
            return false
        }
        var fields = given
        for field in filled where given[field] == nil { fields[field] = original[field] }
        let again = try? decodedEvent(type, fields: fields, now: stored.at, zone: stored.timeZone)
        return again == stored
    }

    /// An event of `type` from a request's fields, at `now` unless they hold `at`, in `zone`
    /// unless they hold `tz`: the event its JSON form decodes to.
    static func event(_ type: String, fields: [String: JSONValue], now: Date, zone: String?) throws -> Event {
        if type == "completion", let zone, let event = plainCompletion(fields, now: now, zone: zone) {
            return event
        }
        return try decodedEvent(type, fields: fields, now: now, zone: zone)
    }

    /// The event, decoded from its JSON form (the fields with `type`, `id`, `at` and `tz`).
    static func decodedEvent(_ type: String, fields: [String: JSONValue], now: Date, zone: String?) throws -> Event {
        var object = fields
        object["type"] = .string(type)
        object["id"] = fields["eventId"] ?? .string(Tokens.id("e_"))
        object["eventId"] = nil
        if object["at"] == nil { object["at"] = .string(RFC3339.format(now)) }
        if object["tz"] == nil, let zone { object["tz"] = .string(zone) }
        do {
            return try JSONIO.decode(Event.self, from: .object(object))
        } catch let error as APIError where error.details.map(\.field) == ["id"] {
            // The request calls the event's id `eventId`.
            let issue = error.details[0].issue
            throw APIError(
                .unprocessableContent, "invalid_input", "eventId: \(issue)",
                details: [.init(field: "eventId", issue: issue)])
        }
    }

    /// A completion whose fields are its habit and at most a client event id, made without
    /// decoding (the decoder was a twentieth of a check-in's time in the server): the same
    /// event ``decodedEvent(_:fields:now:zone:)`` gives, or `nil` for any other fields,
    /// which that decodes (and explains what is wrong with them).
    static func plainCompletion(_ fields: [String: JSONValue], now: Date, zone: String) -> Event? {
        guard case .string(let habit)? = fields["habit"] else { return nil }
        let id: String
        switch fields["eventId"] {
        case nil:
            guard fields.count == 1 else { return nil }
            id = Tokens.id("e_")
        case .string(let given)?:
            guard fields.count == 2, !given.isEmpty, given.utf8.count <= 128 else { return nil }
            id = given
        default: return nil
        }
        return Event(
            id: id, at: RFC3339.stored(now), timeZone: zone,
            payload: .completion(habit: habit, day: nil, value: 1, note: nil))
    }

    /// A habit's state now, with `days` of calendar; 404 when the user has no such habit.
    /// After a write, `after` is the version it produced (read from the engine cache when
    /// it still holds that version).
    func habitState(_ habit: String, caller: Caller, days: Int, after version: Int64? = nil) async throws -> HabitState
    {
        guard
            let state = try await server.dashboard.habit(
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
