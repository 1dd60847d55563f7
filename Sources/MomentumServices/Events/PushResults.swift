import Foundation
import MomentumCore
import MomentumStore

/// What happened to one pushed event.
public struct EventResult: Codable, Sendable {
    /// `applied`, `duplicate` (already stored: a retry), `rejected` (valid but refused by
    /// the rules, such as a purchase without enough diamonds) or `invalid`.
    public var status: String
    /// The event's id, as sent.
    public var id: String
    /// Where an applied event sits in the user's log.
    public var seq: Int64?
    /// Why the event was refused, for a `rejected` or `invalid` one.
    public var error: ErrorBody?
    /// What a stored event (`applied` or `duplicate`) carried that the server kept without
    /// understanding it: its type, or fields its type does not have (a misspelt one shows
    /// here). Absent when there is nothing to say.
    public var warnings: [Warning]?

    /// The engine's reason for refusing an event.
    public struct ErrorBody: Codable, Sendable {
        /// The code.
        public var code: String
        /// The message.
        public var message: String
        /// The field.
        public var field: String?
    }

    /// Something an event carried that the server kept without understanding it.
    public struct Warning: Codable, Sendable, Hashable {
        /// `unknown_type` or `unknown_field`.
        public var code: String
        /// The field at issue: `type` for `unknown_type`, the field itself for
        /// `unknown_field`.
        public var field: String?
        /// A sentence for the developer.
        public var message: String
    }

    /// The warnings for what `event` carries that this engine does not know: its type
    /// (`Event.Payload.unknown(type:)`), or each field its known type does not have.
    public static func warnings(for event: Event) -> [Warning] {
        if case .unknown(let type) = event.payload {
            return [
                Warning(
                    code: "unknown_type", field: "type",
                    message:
                        "'\(type)' is not an event type this server knows: the event is kept as sent and changes "
                        + "nothing here; a server that knows it applies it")
            ]
        }
        let own = (Event.fieldsByType[event.payload.type] ?? []).sorted().joined(separator: ", ")
        return event.unknownFields.keys.sorted().map { name in
            Warning(
                code: "unknown_field", field: name,
                message:
                    "'\(name)' is not a field of \(event.payload.type) events (\(own)): it is kept as sent and "
                    + "changes nothing here")
        }
    }

    init(_ outcome: EventOutcome, warnings: [Warning] = []) {
        id = outcome.id
        switch outcome.status {
        case .applied(let seq):
            status = "applied"
            self.seq = seq
            self.warnings = warnings.isEmpty ? nil : warnings
        case .duplicate:
            status = "duplicate"
            self.warnings = warnings.isEmpty ? nil : warnings
        case .rejected(let error):
            status = "rejected"
            self.error = ErrorBody(code: error.code.description, message: error.message, field: error.field)
        case .invalid(let error):
            status = "invalid"
            self.error = ErrorBody(code: error.code.description, message: error.message, field: error.field)
        }
    }
}

/// What a push did: each event's outcome (the engine's verdict, a `MomentumError`, for
/// one it refused), the head of the log, the wallet and the achievements unlocked.
///
/// Encoded as the push's answer: `results` (one ``EventResult`` per outcome), `headSeq`,
/// `wallet`, `unlocks`.
public struct PushResponse: Encodable, Sendable {
    /// One outcome per event, in the order sent.
    public var outcomes: [EventOutcome]
    /// The user's newest sequence number: pull after it for changes from other devices.
    public var headSeq: Int64
    /// The wallet after the push.
    public var wallet: Wallet
    /// Achievements this push unlocked.
    public var unlocks: [Unlock]
    /// The versions of the rules that judged the push (sent when set).
    public var versions: RuleVersions?
    /// The projection version the push produced (not sent: routes read their answer with it).
    public var version: Int64 = -1
    /// The JSON of the habit states the push wrote, by habit id (not sent: routes may
    /// answer with it; see `AppendResult.habitJSON`).
    public var habitJSON: [String: String] = [:]
    /// Each event's warnings (``EventResult/warnings(for:)``), in the order sent; empty
    /// when none has any.
    public var warnings: [[EventResult.Warning]] = []

    /// Each outcome as the answer shows it.
    public var results: [EventResult] {
        outcomes.indices.map { index in
            EventResult(outcomes[index], warnings: index < warnings.count ? warnings[index] : [])
        }
    }

    enum CodingKeys: String, CodingKey, Sendable {
        case results, headSeq, wallet, unlocks, versions
    }

    /// Writes the answer's fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results, forKey: .results)
        try container.encode(headSeq, forKey: .headSeq)
        try container.encode(wallet, forKey: .wallet)
        try container.encode(unlocks, forKey: .unlocks)
        try container.encodeIfPresent(versions, forKey: .versions)
    }
}

/// A stored event, as pulled by a device.
public struct PulledEvent: Codable, Sendable {
    /// The seq.
    public var seq: Int64
    /// The event.
    public var event: Event
    /// The received at.
    public var receivedAt: Date
    /// The device.
    public var device: String?
    /// The family member who logged it into this log, when not its owner.
    public var loggedBy: String?
}

/// The answer to a pull.
public struct PullResponse: Codable, Sendable {
    /// The events.
    public var events: [PulledEvent]
    /// Pass this as `after` to get what comes next.
    public var cursor: Int64
    /// Whether more events are waiting after `cursor`.
    public var more: Bool
    /// The versions of the rules the server applies to these events (absent in the answers
    /// of a server older than versions).
    public var versions: RuleVersions?
}
