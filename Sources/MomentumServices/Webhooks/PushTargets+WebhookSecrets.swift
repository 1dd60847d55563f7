import Foundation
import MomentumStore

extension PushTargets {
    /// The overlap of a rotation when none is asked for: a day.
    public static let defaultSecretOverlap: TimeInterval = 86_400
    /// The longest overlap a rotation may ask for: a week.
    public static let maximumSecretOverlap: TimeInterval = 7 * 86_400

    /// Gives a webhook a new secret without downtime: for `overlap` seconds every message
    /// carries a signature with the new secret and one with the current one, so that the
    /// receiver can switch whenever it likes; after that only the new one signs. A secret
    /// still in an earlier rotation's overlap stops now.
    ///
    /// - Parameters:
    ///   - id: The webhook.
    ///   - overlap: How long the current secret keeps signing, 0 to a week; a day by default.
    /// - Returns: The webhook with its new `secret` (shown this once).
    /// - Throws: ``ServiceError`` `invalid_input` naming `overlapSeconds` out of bounds,
    ///   `not_found` when there is no such webhook.
    public func rotateWebhookSecret(_ id: String, overlap: TimeInterval?) async throws -> Webhook {
        let overlap = overlap ?? Self.defaultSecretOverlap
        guard overlap.isFinite, overlap >= 0, overlap <= Self.maximumSecretOverlap else {
            throw ServiceError.invalid(
                "must be 0 to \(Int(Self.maximumSecretOverlap)) seconds", field: "overlapSeconds")
        }
        let current = try await webhook(id)
        let secret = Webhook.newSecret()
        let until = now().addingTimeInterval(overlap)
        guard
            try await store.rotateWebhookSecret(
                id, to: secret, previous: current.secret, previousIsLegacy: current.legacySecret, previousUntil: until)
        else { throw ServiceError.notFound("webhook") }
        var rotated = try await webhook(id)
        rotated.secret = secret
        return rotated
    }
}
