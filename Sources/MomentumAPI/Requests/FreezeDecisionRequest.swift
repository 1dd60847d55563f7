import Foundation
import MomentumCore

/// Accepting or declining a freeze offer: `POST /v1/freeze-offers/decisions`.
///
/// The body names the habit and the missed day of the offer, `accept`, and optionally an
/// `eventId` for safe retries. It decodes to the `freeze.accepted` or `freeze.declined`
/// event's payload, checked as a pushed event's is.
public struct FreezeDecisionRequest: Sendable, Hashable {
    /// The client's id for the event.
    public var eventId: String?
    /// The decision: the habit, the missed day, and whether the freeze is accepted.
    public var payload: Event.Payload

    /// Creates a decision.
    public init(habit: String, day: LocalDay, accept: Bool, eventId: String? = nil) {
        self.eventId = eventId
        payload = .freezeDecision(habit: habit, day: day, accepted: accept)
    }
}

extension FreezeDecisionRequest: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case habit, day, accept, eventId }

    /// Decodes a body, refusing a field it does not take.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.stringValue))
        let accept = try c.decode(Bool.self, forKey: .accept)
        eventId = try c.decodeIfPresent(String.self, forKey: .eventId)
        if let eventId, let problem = Event.idProblem(eventId) {
            throw DecodingError.dataCorruptedError(forKey: .eventId, in: c, debugDescription: problem)
        }
        guard c.contains(.day) else {
            throw DecodingError.keyNotFound(
                CodingKeys.day, .init(codingPath: c.codingPath, debugDescription: "the missed day the offer was for"))
        }
        payload = try Event.Payload(type: accept ? "freeze.accepted" : "freeze.declined", from: decoder)
    }
}
