import Foundation

/// An identity at an app's identity provider (Sign in with Apple, Firebase Auth, Google…)
/// that signs in to a Momentum account: the provider's name as the server configures it and
/// the token's subject (`sub`), which the provider never reuses for another person.
public struct LinkedIdentity: Hashable, Sendable, Codable {
    /// The provider's configured name, such as `apple` or `firebase`.
    public var provider: String
    /// The subject the provider gives the person (`sub`); unique within the provider.
    public var subject: String
    /// The account it signs in to.
    public var userID: String
    /// The email the provider vouched for when the identity was linked, if any.
    public var email: String?
    /// When it was linked.
    public var linkedAt: Date

    /// Creates a linked identity.
    public init(provider: String, subject: String, userID: String, email: String?, linkedAt: Date) {
        self.provider = provider
        self.subject = subject
        self.userID = userID
        self.email = email
        self.linkedAt = linkedAt
    }
}
