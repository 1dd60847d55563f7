import Foundation
import MomentumCore
import MomentumStore

/// Diamonds and freezes an operator gives a user, with a reason: a server-authored `grant`
/// event in the user's log (so the user's devices see it at their next sync, and the
/// engine's ledger says why), appended on the server's own path (`EventIngest.appendServerAuthored`).
public struct Grants: Sendable {
    let store: any EventStore & AccountStore
    let ingest: EventIngest
    let now: @Sendable () -> Date

    /// Creates the use case.
    public init(store: any EventStore & AccountStore, ingest: EventIngest, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.ingest = ingest
        self.now = now
    }

    /// What a grant did.
    public struct Granted: Codable, Sendable, Hashable {
        /// The `grant` event's id.
        public var event: String
        /// Whether this call was a retry of a grant already given (nothing was given again).
        public var replayed: Bool
        /// The user's wallet afterwards.
        public var wallet: Wallet
    }

    /// Gives a user diamonds and freezes.
    ///
    /// - Parameters:
    ///   - user: The user's id.
    ///   - diamonds: Diamonds to give, 0…`Grant.maximumDiamonds`.
    ///   - freezes: Freezes to give, 0…`Grant.maximumFreezes` (not both 0).
    ///   - reason: Why, 1…200 characters (the user's ledger shows it).
    ///   - actor: The operator giving them (named in the event).
    ///   - key: An idempotency key: the same key for the same user gives once; `nil` gives
    ///     every time.
    /// - Returns: The event's id and the new wallet.
    /// - Throws: ``ServiceError`` `invalid` (the field at fault) for amounts out of bounds or
    ///   a missing reason, `not_found` for no such user, `idempotency_conflict` for a key
    ///   used for another grant; nothing is given then.
    public func grant(
        user: String, diamonds: Int, freezes: Int, reason: String, by actor: OperatorActor, key: String? = nil
    ) async throws -> Granted {
        let grant = Grant(
            diamonds: diamonds, freezes: freezes, reason: reason.trimmingCharacters(in: .whitespacesAndNewlines),
            operatorID: actor.id)
        if let problem = grant.problem { throw ServiceError.invalid(problem.reason, field: problem.field) }
        if let key, !(1...255).contains(key.count) {
            throw ServiceError.invalid("Idempotency-Key must have 1 to 255 characters", field: "Idempotency-Key")
        }
        guard try await store.account(id: user) != nil, let profile = try await store.profile(of: user) else {
            throw ServiceError.notFound("user")
        }
        let id =
            key.map { "grant-" + Tokens.hash("\(user)\n\($0)").prefix(32) } ?? "grant-\(UUID().uuidString.lowercased())"
        if key != nil {
            let earlier = try await store.evaluate(user) { engine, _ in engine.streaks.event(id: id) }
            if let earlier {
                guard case .grant(let given) = earlier.payload, given.diamonds == grant.diamonds,
                    given.freezes == grant.freezes, given.reason == grant.reason
                else {
                    throw ServiceError(
                        .conflict, "idempotency_conflict", "this Idempotency-Key was used for another grant",
                        fields: [.init(field: "Idempotency-Key", issue: "used for another grant")])
                }
                let at = now()
                let wallet = try await store.evaluate(user) { engine, _ in
                    engine.state(at: at, calendarDays: 0).wallet
                }
                return Granted(event: id, replayed: true, wallet: wallet)
            }
        }
        let event = Event(id: id, at: now(), timeZone: profile.timeZone, payload: .grant(grant))
        let response = try await ingest.appendServerAuthored([event], for: user)
        switch response.outcomes.first?.status {
        case .rejected(let error), .invalid(let error):
            throw ServiceError.invalid(error.message, field: error.field ?? "grant")
        case .duplicate: return Granted(event: id, replayed: true, wallet: response.wallet)
        default: return Granted(event: id, replayed: false, wallet: response.wallet)
        }
    }
}
