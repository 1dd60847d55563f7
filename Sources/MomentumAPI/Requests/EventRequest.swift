import Foundation
import MomentumCore

/// The body of a route that records one event of a fixed type: a check-in, a skip, a new
/// habit, a purchase.
///
/// It holds the event's own fields (`Event.fieldsByType`), less those the
/// route's path gives, with three of the event's envelope:
/// - `eventId`: the client's id for the event, so that a retried request is recognised
///   (the server makes one when it is absent);
/// - `at`: when it happened (now when absent);
/// - `tz`: the zone the user was in (the zone of their latest event, or their profile's,
///   when absent).
///
/// The body is decoded once, with a ``Route`` in the decoder's `userInfo` under
/// ``routeKey``; the payload is checked by `Event.Payload.init(type:from:fallback:)`,
/// so a field out of bounds is refused with the words a pushed event gets. A field the
/// route does not take is refused, naming the ones it does take.
public struct EventRequest: Sendable, Hashable {
    /// The client's id for the event (`eventId`).
    public var eventId: String?
    /// When it happened (`at`), at the precision events are stored with.
    public var at: Date?
    /// The IANA zone the user was in (`tz`).
    public var timeZone: String?
    /// The event's own fields, with those the path gives filled in.
    public var payload: Event.Payload

    /// Creates a request.
    public init(eventId: String? = nil, at: Date? = nil, timeZone: String? = nil, payload: Event.Payload) {
        self.eventId = eventId
        self.at = at
        self.timeZone = timeZone
        self.payload = payload
    }

    /// The key of the ``Route`` in a decoder's `userInfo`.
    public static let routeKey = CodingUserInfoKey(rawValue: "MomentumAPI.EventRequest.Route")!

    /// The event the request records: `id` unless it named one, at `now` unless it said
    /// when, in `zone` unless it named one.
    public func event(id: String, now: Date, zone: String) -> Event {
        Event(
            id: eventId ?? id, at: at ?? RFC3339.stored(now), timeZone: timeZone ?? zone, payload: payload)
    }

    /// What a route makes of its body: the event type, and the fields its path gives.
    public struct Route: Sendable, Hashable {
        /// The event type (`completion`, `habit.created`).
        public var type: String
        /// The fields the path gives (`habit` of `/v1/habits/{habit}/check-ins`): a body
        /// may repeat them with the same value, not say otherwise.
        public var path: [String: String]
        /// Values of identifying fields a body may give, used when it does not: the id the
        /// server chose for a new habit.
        public var defaults: [String: String]
        /// The envelope fields a body may hold besides the payload's.
        public var envelope: Set<String>

        /// Creates a route.
        public init(
            type: String, path: [String: String] = [:], defaults: [String: String] = [:],
            envelope: Set<String> = ["eventId", "at", "tz"]
        ) {
            self.type = type
            self.path = path
            self.defaults = defaults
            self.envelope = envelope
        }

        /// The fields a body may hold, in byte order.
        public var fields: [String] {
            (Event.fieldsByType[type] ?? []).subtracting(path.keys).union(envelope).sorted()
        }
    }
}

extension EventRequest: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a request body for the ``Route`` under ``routeKey`` in `userInfo`.
    public init(from decoder: any Decoder) throws {
        guard let route = decoder.userInfo[Self.routeKey] as? Route else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "no route to decode an event request for"))
        }
        let c = try decoder.container(keyedBy: Key.self)
        let keys = c.allKeys.map(\.stringValue).sorted()
        for reserved in ["type", "id"] where keys.contains(reserved) {
            throw DecodingError.dataCorruptedError(
                forKey: Key(reserved), in: c,
                debugDescription: "is set by the endpoint (send a client event id as 'eventId')")
        }
        let payloadFields = Event.fieldsByType[route.type] ?? []
        for key in keys {
            if let fixed = route.path[key] {
                guard (try? c.decode(String.self, forKey: Key(key))) == fixed else {
                    throw DecodingError.dataCorruptedError(
                        forKey: Key(key), in: c, debugDescription: "is given by the path ('\(fixed)'); leave it out")
                }
            } else if !payloadFields.contains(key), !route.envelope.contains(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: Key(key), in: c,
                    debugDescription: "is not a field here (\(route.fields.joined(separator: ", ")))")
            }
        }
        eventId = try c.decodeIfPresent(String.self, forKey: Key("eventId"))
        if let eventId, let problem = Event.idProblem(eventId) {
            throw DecodingError.dataCorruptedError(forKey: Key("eventId"), in: c, debugDescription: problem)
        }
        if let text = try c.decodeIfPresent(String.self, forKey: Key("at")) {
            switch Event.instant(text) {
            case .success(let instant): at = instant
            case .failure(let problem):
                throw DecodingError.dataCorruptedError(forKey: Key("at"), in: c, debugDescription: problem.message)
            }
        }
        timeZone = try c.decodeIfPresent(String.self, forKey: Key("tz"))
        if route.type == "purchase", !c.contains(Key("item")), !c.contains(Key("days")) {
            throw DecodingError.dataCorruptedError(
                forKey: Key("item"), in: c, debugDescription: "is required: name a store item, or a number of days")
        }
        payload = try Event.Payload(
            type: route.type, from: decoder, fallback: route.defaults.merging(route.path) { _, path in path })
    }
}
