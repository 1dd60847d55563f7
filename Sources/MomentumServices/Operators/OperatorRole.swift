/// What an operator of the server may do: each role is a set of ``OperatorPermission``s.
///
/// - `owner`: everything, including other operators, keys, packs and amnesties.
/// - `support`: looks users up and helps them (grants, review flags, a delivery retried).
/// - `viewer`: reads what the console shows, changes nothing.
public enum OperatorRole: String, Codable, CaseIterable, Sendable, Hashable {
    /// Everything, including other operators.
    case owner
    /// Helps users: looks them up, grants, resolves review flags, retries a delivery.
    case support
    /// Reads, changes nothing.
    case viewer

    /// Whether this role may do what `permission` names.
    public func allows(_ permission: OperatorPermission) -> Bool {
        switch self {
        case .owner: permission != .bootstrapOwner
        case .support: permission.isRead || Self.supportWrites.contains(permission)
        case .viewer: permission.isRead && permission != .viewAudit
        }
    }

    /// What support may change.
    private static let supportWrites: Set<OperatorPermission> = [.grantRewards, .resolveReviewFlags, .retryDeliveries]
}

/// One thing an operator may do, checked by the admin API and the console before it acts.
public enum OperatorPermission: String, Codable, CaseIterable, Sendable, Hashable {
    /// Create the first owner with the static admin token (nothing else may).
    case bootstrapOwner
    /// Look one user up by id or email and read what they have.
    case viewUsers
    /// Grant a user freezes or diamonds.
    case grantRewards
    /// Read the review flags and their evidence.
    case viewReviewFlags
    /// Clear or confirm a review flag.
    case resolveReviewFlags
    /// Read the webhooks, their health and the deliveries.
    case viewDeliveries
    /// Send one delivery again.
    case retryDeliveries
    /// Rotate a webhook's secret, disable or enable it.
    case manageWebhooks
    /// Read what notifications were scheduled, sent and dropped.
    case viewNotifications
    /// Read the server keys and identity providers.
    case viewKeys
    /// Create and revoke server keys.
    case manageKeys
    /// Read the packs and their versions, and what-if reports.
    case viewPacks
    /// Upload, activate and roll back packs, and run what-if replays.
    case managePacks
    /// Read the incident amnesties.
    case viewAmnesties
    /// Declare and lift incident amnesties.
    case manageAmnesties
    /// Import archives and history.
    case importData
    /// Read the operators.
    case viewOperators
    /// Add operators, change their role, disable them.
    case manageOperators
    /// Read the audit log.
    case viewAudit

    /// Whether the permission only reads.
    public var isRead: Bool {
        switch self {
        case .viewUsers, .viewReviewFlags, .viewDeliveries, .viewNotifications, .viewKeys, .viewPacks,
            .viewAmnesties, .viewOperators, .viewAudit:
            true
        default: false
        }
    }
}

/// Who is acting through the admin API or the console: an operator, or the static admin
/// token, which may only create the first owner.
public struct OperatorActor: Sendable, Hashable, Codable {
    /// The operator's id (`admin-token` for the static admin token).
    public var id: String
    /// The operator's email (empty for the static admin token).
    public var email: String
    /// The operator's role.
    public var role: OperatorRole

    /// Creates an actor.
    public init(id: String, email: String, role: OperatorRole) {
        self.id = id
        self.email = email
        self.role = role
    }

    /// The static admin token's id in the audit log.
    public static let adminTokenID = "admin-token"
}
