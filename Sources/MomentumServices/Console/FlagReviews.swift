import Foundation
import MomentumCore
import MomentumStore

/// The review flags as an operator reviews them: the queue, one flag with its evidence
/// (the events the ``SuspicionDetector`` saw, the posts it holds back), and confirming one.
/// Clearing one is ``Social/clearFlag(_:of:)``, which releases the held posts.
public struct FlagReviews: Sendable {
    let store: any ReviewFlags & EventStore & SocialGraph
    let now: @Sendable () -> Date

    /// The most events of a flag's evidence shown.
    public static let evidenceLimit = 50

    /// Creates the use case.
    public init(store: any ReviewFlags & EventStore & SocialGraph, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// One flag with its evidence.
    public struct Evidence: Encodable, Sendable, Hashable {
        /// The flag and where it stands.
        public var entry: ReviewFlagEntry
        /// The flag's events as the user's log holds them (an event since removed from
        /// the log is still shown; one never stored is left out), at most
        /// ``FlagReviews/evidenceLimit``.
        public var events: [EvidenceEvent]
        /// The user's posts held back from their friends' feeds while a flag is open.
        public var heldPosts: [HeldPost]
    }

    /// One event of a flag's evidence.
    public struct EvidenceEvent: Codable, Sendable, Hashable {
        /// The event's id.
        public var id: String
        /// Its type (`completion`, `skip`, …).
        public var type: String
        /// When it says it happened.
        public var at: Date
        /// The zone it was sent from.
        public var timeZone: String
        /// The day it was logged for, when it names one (a backfill).
        public var day: LocalDay?
        /// The habit it is about, if any.
        public var habit: String?
    }

    /// A post held back.
    public struct HeldPost: Codable, Sendable, Hashable {
        /// The post's id.
        public var id: String
        /// The unlock it shares.
        public var title: String
        /// When it was shared.
        public var createdAt: Date
    }

    /// The flags awaiting review (neither cleared nor confirmed), newest first.
    public func awaiting(limit: Int) async throws -> [ReviewFlag] {
        try await store.reviewFlags(limit: max(1, min(limit, 1_000)))
    }

    /// One flag with its evidence, whatever its status.
    ///
    /// - Throws: ``ServiceError`` `not_found` when the user has no flag of that id.
    public func evidence(_ id: String, of user: String) async throws -> Evidence {
        guard let entry = try await store.reviewFlag(id, of: user) else { throw Self.notFound(id, user) }
        let wanted = Array(entry.flag.events.prefix(Self.evidenceLimit))
        let events = try await store.evaluate(user) { engine, _ in
            wanted.compactMap { engine.streaks.event(id: $0) }
        }
        let held = try await store.posts(of: user, limit: 100).filter(\.held)
        return Evidence(
            entry: entry,
            events: events.map { event in
                var day: LocalDay?
                switch event.payload {
                case .completion(_, let logged, _, _), .skip(_, let logged, _), .contribution(_, _, let logged, _):
                    day = logged
                case .activity(let activity): day = activity.day
                default: day = nil
                }
                return EvidenceEvent(
                    id: event.id, type: event.payload.type, at: event.at, timeZone: event.timeZone, day: day,
                    habit: event.payload.habitID)
            },
            heldPosts: held.map { HeldPost(id: $0.id, title: $0.unlock.title, createdAt: $0.createdAt) })
    }

    /// Confirms a flag: it stays on record as confirmed, the user's posts stay held, and
    /// its evidence does not flag the user again. Confirming it again changes nothing.
    ///
    /// - Parameters:
    ///   - id: The flag's id.
    ///   - user: The user's id.
    ///   - actor: The operator confirming it.
    /// - Returns: The flag as it stands.
    /// - Throws: ``ServiceError`` `not_found` for no such flag, `flag_cleared` (conflict)
    ///   for a flag already cleared.
    public func confirm(_ id: String, of user: String, by actor: OperatorActor) async throws -> ReviewFlagEntry {
        guard let entry = try await store.confirmReviewFlag(id, of: user, by: actor.id, at: now()) else {
            throw Self.notFound(id, user)
        }
        guard entry.status == .confirmed else {
            throw ServiceError(.conflict, "flag_cleared", "the review flag was cleared; it cannot be confirmed")
        }
        return entry
    }

    private static func notFound(_ id: String, _ user: String) -> ServiceError {
        ServiceError.notFound("review flag '\(id.prefix(64))' of '\(user.prefix(64))'")
    }
}
