import Foundation
import MomentumCore

/// An event as the log holds it: its position in the user's log and when it arrived.
public struct StoredEvent: Hashable, Sendable {
    /// The position in the user's log, from 1; the sync cursor.
    public var seq: Int64
    /// The event.
    public var event: Event
    /// When the server received it.
    public var receivedAt: Date
    /// The device that sent it, if known: its id, or `member/device` for an event a member
    /// of a subject's family logged into the owner's log.
    public var device: String?

    /// The family member who logged it, when it was not the log's owner.
    public var loggedBy: String? {
        guard let device, let slash = device.firstIndex(of: "/") else { return nil }
        return String(device[..<slash])
    }

    /// The id of the device that sent it, without the member who logged it.
    public var deviceID: String? {
        guard let device, let slash = device.firstIndex(of: "/") else { return device }
        return String(device[device.index(after: slash)...])
    }

    /// Creates a stored event.
    public init(seq: Int64, event: Event, receivedAt: Date, device: String? = nil) {
        self.seq = seq
        self.event = event
        self.receivedAt = receivedAt
        self.device = device
    }
}

/// What happened to one event of an append.
public struct EventOutcome: Hashable, Sendable {
    /// The kinds of outcome.
    public enum Status: Hashable, Sendable {
        /// Stored at this position of the log.
        case applied(seq: Int64)
        /// Already in the log (a retry); nothing changed.
        case duplicate
        /// Well-formed, but the state refused it (too few diamonds, no freeze offer); not stored.
        case rejected(MomentumError)
        /// Invalid (unknown habit, outside the backfill window, an id reused); not stored.
        case invalid(MomentumError)
    }

    /// The event's id.
    public var id: String
    /// What happened.
    public var status: Status

    /// Creates an outcome.
    public init(id: String, status: Status) {
        self.id = id
        self.status = status
    }

    /// Whether the event is now in the log (stored now or before).
    public var isStored: Bool {
        switch status {
        case .applied, .duplicate: true
        case .rejected, .invalid: false
        }
    }
}

/// The result of ``EventStore/append(_:for:receivedAt:device:)``.
public struct AppendResult: Hashable, Sendable {
    /// One outcome per event, in the order given.
    public var outcomes: [EventOutcome]
    /// The unlocks this append granted (new ones only).
    public var unlocks: [Unlock]
    /// The position of the last event in the user's log.
    public var headSeq: Int64
    /// The wallet after the append.
    public var wallet: Wallet
    /// The version of the user's projections after the append; hand it to
    /// ``EventStore/evaluate(_:after:_:)`` to read the state this append produced.
    /// `-1` when it is not known (reads after the append then go to the database).
    public var version: Int64
    /// The state of each habit whose stored row this append wrote, by habit id, as the
    /// canonical JSON it was stored as (`MomentumJSON`): evaluated at the append's
    /// `receivedAt`, in the zone of the user's latest event, with a calendar of the last
    /// ``UserProjection/calendarDays`` days. A habit the append did not change is absent.
    /// Answering with it spares encoding the same state again.
    public var habitJSON: [String: String]

    /// Creates a result.
    public init(
        outcomes: [EventOutcome], unlocks: [Unlock], headSeq: Int64, wallet: Wallet, version: Int64 = -1,
        habitJSON: [String: String] = [:]
    ) {
        self.outcomes = outcomes
        self.unlocks = unlocks
        self.headSeq = headSeq
        self.wallet = wallet
        self.version = version
        self.habitJSON = habitJSON
    }

    /// How many events were stored by this append.
    public var appliedCount: Int {
        outcomes.count { if case .applied = $0.status { true } else { false } }
    }
}
