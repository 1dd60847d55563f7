import Foundation

/// An operator of the server as the store keeps it: who they are, their role, and the
/// bcrypt hash of their password.
///
/// The role is its name (`owner`, `support`, `viewer`): the store keeps it, the services
/// give it meaning.
public struct OperatorRecord: Hashable, Sendable {
    /// The operator's id (`op_…`).
    public var id: String
    /// The email they sign in with, lower-cased; unique among operators.
    public var email: String
    /// Their name, as shown in the console and the audit log.
    public var name: String
    /// Their role's name.
    public var role: String
    /// The bcrypt hash of their password.
    public var passwordHash: String
    /// When they were added.
    public var createdAt: Date
    /// Who added them: an operator's id, `admin-token` or `cli`.
    public var createdBy: String
    /// When they were disabled; a disabled operator cannot sign in, and their sessions end.
    public var disabledAt: Date?

    /// Creates an operator's record.
    public init(
        id: String, email: String, name: String, role: String, passwordHash: String, createdAt: Date,
        createdBy: String, disabledAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.disabledAt = disabledAt
    }
}

/// A signed-in operator's session, by the SHA-256 of its token.
public struct OperatorSessionRecord: Hashable, Sendable {
    /// The SHA-256 of the session's token, in lower-case hex.
    public var tokenHash: String
    /// The operator it signs in.
    public var operatorID: String
    /// `api` (a bearer token) or `console` (the console's cookie).
    public var kind: String
    /// The console's form token (random; unused by API sessions, which have one all the same).
    public var csrf: String
    /// When it started.
    public var createdAt: Date
    /// When it ends unless used again.
    public var expiresAt: Date
    /// When it was last used (written at most about once a minute).
    public var lastSeenAt: Date

    /// Creates a session's record.
    public init(
        tokenHash: String, operatorID: String, kind: String, csrf: String, createdAt: Date, expiresAt: Date,
        lastSeenAt: Date
    ) {
        self.tokenHash = tokenHash
        self.operatorID = operatorID
        self.kind = kind
        self.csrf = csrf
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastSeenAt = lastSeenAt
    }
}

/// One entry of the operators' audit log: who did (or tried) what, when, about which user.
public struct AuditRecord: Hashable, Sendable {
    /// The entry's id: sorts by time (a zero-padded time, then random characters).
    public var id: String
    /// When it happened.
    public var at: Date
    /// The operator's id (`admin-token` for the static admin token).
    public var operatorID: String
    /// The operator's email then.
    public var operatorEmail: String
    /// What was done, as `<area>.<verb>` (`user.granted`, `pack.activated`…).
    public var action: String
    /// The user the action was about, if any.
    public var targetUser: String?
    /// More about it, in words or JSON.
    public var detail: String
    /// `done`, or `denied` when the operator's role did not allow it.
    public var outcome: String

    /// Creates an entry.
    public init(
        id: String, at: Date, operatorID: String, operatorEmail: String, action: String, targetUser: String?,
        detail: String, outcome: String
    ) {
        self.id = id
        self.at = at
        self.operatorID = operatorID
        self.operatorEmail = operatorEmail
        self.action = action
        self.targetUser = targetUser
        self.detail = detail
        self.outcome = outcome
    }
}

/// Which audit entries to read: all filters optional, newest first.
public struct AuditRecordQuery: Hashable, Sendable {
    /// Only this operator's entries.
    public var operatorID: String?
    /// Only entries about this user.
    public var targetUser: String?
    /// Only actions starting with this (`user.` or `user.granted`).
    public var actionPrefix: String?
    /// Only entries older than this entry id (the cursor of the previous page).
    public var before: String?
    /// The most entries to read.
    public var limit: Int

    /// Creates a query.
    public init(
        operatorID: String? = nil, targetUser: String? = nil, actionPrefix: String? = nil, before: String? = nil,
        limit: Int = 100
    ) {
        self.operatorID = operatorID
        self.targetUser = targetUser
        self.actionPrefix = actionPrefix
        self.before = before
        self.limit = limit
    }
}

/// What changing an operator did.
public enum OperatorChange: Hashable, Sendable {
    /// Changed (or already so): the operator as they now are.
    case changed(OperatorRecord)
    /// There is no such operator.
    case notFound
    /// Refused: it would leave no enabled owner.
    case lastOwner
}
