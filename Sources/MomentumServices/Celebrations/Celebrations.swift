import Foundation
import MomentumCore
import MomentumStore

/// The celebrations waiting for a user: the one to show now, app sessions that pace them,
/// and marking one shown or dismissed.
public struct Celebrations: Sendable {
    let store: any EventStore
    /// The now.
    public let now: @Sendable () -> Date
    let changes: ChangePublisher

    /// The celebration to show now, if any, when the next becomes due, and how many wait.
    public func next(for user: String) async throws -> NextCelebrationResponse {
        let now = now()
        // A read: the stored planner is current after every append and celebration write.
        guard let planner = try await store.projection(of: user).celebrations else {
            return NextCelebrationResponse(celebration: nil, nextDelivery: nil, waiting: 0)
        }
        return Self.next(in: planner, at: now)
    }

    /// Starts an app session (which paces celebrations) and answers as ``next(for:)``.
    ///
    /// - Throws: `.invalid` when the session id is not 1 to 128 characters.
    public func startSession(_ session: String, for user: String) async throws -> NextCelebrationResponse {
        guard (1...128).contains(session.count) else {
            throw ServiceError.invalid("must have 1 to 128 characters", field: "session")
        }
        let now = now()
        return try await store.updateCelebrations(of: user, now: now) { planner in
            planner.startSession(id: session, at: now)
            return Self.next(in: planner, at: now)
        }
    }

    /// What became of a celebration the device showed.
    public enum Outcome: String, Sendable { case shown, dismissed }

    /// Marks a celebration shown or dismissed, and tells the user's other devices.
    ///
    /// - Throws: `.notFound` when the user has no such celebration waiting.
    public func mark(_ id: String, _ outcome: Outcome, caller: Caller) async throws {
        let now = now()
        let found = try await store.updateCelebrations(of: caller.user, now: now) { planner in
            outcome == .shown ? planner.markShown(id: id, at: now) : planner.dismiss(id: id, at: now)
        }
        guard found else { throw ServiceError.notFound("celebration '\(id)'") }
        changes.publish(
            Change(kind: "celebrations", device: Tokens.deviceID(caller.tokenHash), at: now), to: caller.user)
    }

    private static func next(in planner: CelebrationPlanner, at now: Date) -> NextCelebrationResponse {
        NextCelebrationResponse(
            celebration: planner.next(at: now), nextDelivery: planner.nextDeliveryDate(at: now),
            waiting: planner.pending.count)
    }
}
