import Foundation
import MomentumCore

/// The events only the server writes (an operator's grant, the rewards kept at a pack's
/// activation, an amnesty): refused from devices and server keys, written by the server's
/// own path.
extension EventIngest {
    /// Refuses a device's or a server key's batch holding an event only the server writes
    /// (`Event.Payload.isServerAuthored`: a grant, kept rewards, an amnesty),
    /// as a whole and before anything is stored: 403 `server_only_event`, naming each one.
    static func refuseServerAuthored(_ events: [Event]) throws {
        let fields = events.enumerated().compactMap { index, event in
            event.payload.isServerAuthored
                ? ServiceError.Field(
                    field: "events[\(index)].type",
                    issue: "'\(event.payload.type)' events are written by the server only")
                : nil
        }
        guard !fields.isEmpty else { return }
        throw ServiceError(
            .forbidden, "server_only_event", "grant, rewards.kept and amnesty events are written by the server only",
            fields: fields)
    }

    /// Stores events the server itself writes for a user (an operator's grant, the rewards
    /// kept at a pack's activation, an amnesty): every rule of the engine applies, as to an
    /// import, and the user's devices hear of them at their next pull.
    ///
    /// - Parameters:
    ///   - events: The events, each `Event.Payload.isServerAuthored`.
    ///   - user: Whose log they go to.
    /// - Returns: One result per event, in the order given (a retry of a stored id is a
    ///   duplicate).
    public func appendServerAuthored(_ events: [Event], for user: String) async throws -> PushResponse {
        guard events.allSatisfy(\.payload.isServerAuthored) else {
            throw ServiceError.invalid("only grant, rewards.kept and amnesty events are written here", field: "events")
        }
        return try await importHistory(events, for: user)
    }
}
