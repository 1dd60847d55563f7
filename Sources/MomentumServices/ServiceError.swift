import MomentumCore
import MomentumStore

/// Why a service refused a request, in terms of no transport: what kind of refusal it is,
/// a stable code, the fields at fault and a sentence.
///
/// The HTTP layer turns ``Kind`` into a status in one table (`MomentumServer`'s
/// `APIError.status(for:)`); a service never names a status.
public struct ServiceError: Error, Sendable, Hashable {
    /// What kind of refusal this is.
    public enum Kind: Sendable, Hashable {
        /// The input breaks a rule (a bad value, an event the engine refuses).
        case invalid
        /// The thing asked for does not exist, or the caller may not know that it does.
        case notFound
        /// The input is valid but conflicts with what is stored (an email taken, a
        /// nudge already sent, diamonds short).
        case conflict
        /// The caller did not prove who they are.
        case unauthenticated
        /// The caller is known but may not do this.
        case forbidden
        /// What the caller names existed but can no longer be used (a single-use link used
        /// before, or expired).
        case gone
        /// The input is of a kind the service does not take (a photo that is not JPEG
        /// or PNG).
        case unsupported
        /// The input is larger than the service takes.
        case tooLarge
        /// The caller is asking too often; try again after the given seconds.
        case tooMany(retryAfterSeconds: Int)
        /// The service cannot answer now (storage unreachable, the schema not migrated,
        /// too busy); trying again later may work.
        case unavailable(retryAfterSeconds: Int?)
        /// Something went wrong that the caller cannot fix.
        case failed

        /// Whether the caller is asking too often.
        public var isTooMany: Bool {
            if case .tooMany = self { true } else { false }
        }
    }

    /// One problem with one field of the input.
    public struct Field: Sendable, Codable, Hashable {
        /// The field's path, such as `events[2].at`.
        public var field: String
        /// What is wrong with it.
        public var issue: String

        /// Creates a field problem.
        public init(field: String, issue: String) {
            self.field = field
            self.issue = issue
        }
    }

    /// What kind of refusal this is.
    public var kind: Kind
    /// A stable, machine-readable code such as `email_taken` or `insufficient_diamonds`.
    public var code: String
    /// A sentence for people, in English.
    public var message: String
    /// The key of ``message`` in a translation: `error.<code>`.
    public var messageKey: String { "error.\(code)" }
    /// The fields at fault, when the input had any.
    public var fields: [Field]

    /// Creates a refusal.
    public init(_ kind: Kind, _ code: String, _ message: String, fields: [Field] = []) {
        self.kind = kind
        self.code = code
        self.message = message
        self.fields = fields
    }

    /// An invalid input: `invalid_input`, naming the field when there is one.
    public static func invalid(_ message: String, field: String? = nil) -> ServiceError {
        ServiceError(.invalid, "invalid_input", message, fields: field.map { [Field(field: $0, issue: message)] } ?? [])
    }

    /// Invalid input with several problems: `invalid_input`, the first problem's words.
    public static func invalid(_ problems: [Field]) -> ServiceError {
        ServiceError(.invalid, "invalid_input", problems.first?.issue ?? "invalid input", fields: problems)
    }

    /// Something that does not exist (or that the caller may not know exists).
    public static func notFound(_ what: String) -> ServiceError {
        ServiceError(.notFound, "not_found", "\(what) not found")
    }

    /// The caller did not prove who they are.
    public static let unauthenticated = ServiceError(
        .unauthenticated, "unauthorized", "sign in first: send 'Authorization: Bearer <token>'")

    /// The service form of a storage error.
    public init(_ error: StoreError) {
        switch error.code {
        case .notFound: self.init(.notFound, "not_found", error.message)
        case .emailTaken:
            self.init(.conflict, "email_taken", error.message, fields: [Field(field: "email", issue: error.message)])
        case .userExists: self.init(.conflict, "user_exists", error.message)
        case .invalidInput, .invalidArchive: self.init(.invalid, "invalid_input", error.message)
        case .unknownPack:
            self.init(.invalid, "unknown_pack", error.message, fields: [Field(field: "pack", issue: error.message)])
        case .idempotencyConflict: self.init(.conflict, "idempotency_conflict", error.message)
        case .unavailable, .migration:
            self.init(.unavailable(retryAfterSeconds: nil), "storage_unavailable", error.message)
        case .corrupt: self.init(.failed, "internal_error", "stored data could not be read")
        default: self.init(.failed, "internal_error", error.message)
        }
    }
}

extension MomentumError {
    /// What kind of refusal the engine's verdict is: a conflict with the user's state
    /// (diamonds short, a habit that already exists or is archived, an event id used for
    /// another event), else an invalid event.
    public var refusalKind: ServiceError.Kind {
        switch code {
        case .insufficientDiamonds, .duplicateHabit, .conflictingEventID, .habitArchived: .conflict
        default: .invalid
        }
    }
}
