import Foundation
import MomentumStore

/// How an operator is signed in: a bearer token for the admin API, or the console's cookie.
public enum OperatorSessionKind: String, Codable, CaseIterable, Sendable, Hashable {
    /// A bearer token (`Authorization: Bearer mop_…`): ends 12 hours after sign-in.
    case api
    /// The console's cookie: ends after 8 hours without use.
    case console
}

/// Whether an audited action was done, or refused because the operator's role does not
/// allow it.
public enum AuditOutcome: String, Codable, CaseIterable, Sendable, Hashable {
    /// Done.
    case done
    /// Refused: the role does not allow it.
    case denied
}

/// An operator as the admin API and the console show them (never their password's hash).
public struct OperatorView: Sendable, Hashable, Codable {
    /// The operator's id (`op_…`).
    public var id: String
    /// Their email, lower-cased.
    public var email: String
    /// Their name.
    public var name: String
    /// Their role.
    public var role: OperatorRole
    /// When they were added.
    public var createdAt: Date
    /// Who added them: an operator's id, `admin-token` or `cli`.
    public var createdBy: String
    /// Whether they are disabled (cannot sign in; their sessions ended).
    public var disabled: Bool
    /// When they were disabled.
    public var disabledAt: Date?

    /// The view of a stored operator; `nil` when its role is none this build knows.
    init?(_ record: OperatorRecord) {
        guard let role = OperatorRole(rawValue: record.role) else { return nil }
        id = record.id
        email = record.email
        name = record.name
        self.role = role
        createdAt = record.createdAt
        createdBy = record.createdBy
        disabled = record.disabledAt != nil
        disabledAt = record.disabledAt
    }

    /// Who this operator is when they act.
    public var actor: OperatorActor { OperatorActor(id: id, email: email, role: role) }
}

/// A new session: its token, shown this once.
public struct OperatorSignIn: Sendable, Hashable {
    /// The session's token (`mop_…`): the bearer token of the admin API, or the console's cookie.
    public var token: String
    /// When the session ends unless used (console) or in any case (API).
    public var expiresAt: Date
    /// Who signed in.
    public var `operator`: OperatorView
    /// The console's form token for this session.
    public var csrf: String
}

/// A live session, as a request that shows its token is told.
public struct OperatorSession: Sendable, Hashable {
    /// Who the session signs in.
    public var actor: OperatorActor
    /// The operator's name.
    public var name: String
    /// How they signed in.
    public var kind: OperatorSessionKind
    /// The console's form token for this session.
    public var csrf: String
    /// When the session ends unless used again.
    public var expiresAt: Date
}

/// One entry of the audit log.
public struct AuditEntry: Sendable, Hashable, Codable {
    /// The entry's id; entries sort by it, newest last.
    public var id: String
    /// When it happened.
    public var at: Date
    /// The operator's id (`admin-token` for the static admin token).
    public var operatorID: String
    /// The operator's email then (empty for the admin token).
    public var operatorEmail: String
    /// What was done, as `<area>.<verb>`.
    public var action: String
    /// The user it was about.
    public var user: String?
    /// More about it.
    public var detail: String
    /// Done, or denied.
    public var outcome: AuditOutcome

    enum CodingKeys: String, CodingKey {
        case id, at, operatorID = "operatorId", operatorEmail, action, user, detail, outcome
    }

    init(_ record: AuditRecord) {
        id = record.id
        at = record.at
        operatorID = record.operatorID
        operatorEmail = record.operatorEmail
        action = record.action
        user = record.targetUser
        detail = record.detail
        outcome = AuditOutcome(rawValue: record.outcome) ?? .done
    }
}

/// Which audit entries to read, newest first.
public struct AuditQuery: Sendable, Hashable {
    /// Only this operator's (their id).
    public var operatorID: String?
    /// Only those about this user.
    public var user: String?
    /// Only actions that start with this (`user.`, `pack.activated`).
    public var actionPrefix: String?
    /// Only entries older than this cursor (a page's ``AuditPage/nextCursor``).
    public var before: String?
    /// The most entries, 1 to 500.
    public var limit: Int

    /// Creates a query.
    public init(
        operatorID: String? = nil, user: String? = nil, actionPrefix: String? = nil, before: String? = nil,
        limit: Int = 100
    ) {
        self.operatorID = operatorID
        self.user = user
        self.actionPrefix = actionPrefix
        self.before = before
        self.limit = limit
    }
}

/// A page of the audit log.
public struct AuditPage: Sendable, Hashable {
    /// The entries, newest first.
    public var entries: [AuditEntry]
    /// The cursor of the next (older) page; `nil` when this is the last.
    public var nextCursor: String?
}
