import MomentumCore

/// The one error type of `MomentumStore` and its backends.
///
/// Callers match on ``code`` (`catch let error as StoreError where error.code == .emailTaken`);
/// ``message`` is a sentence for people. Errors about an imported archive list every bad
/// line in ``problems``.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code (`snake_case` on the wire).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case notFound = "not_found"
            case emailTaken = "email_taken"
            case userExists = "user_exists"
            case invalidInput = "invalid_input"
            case invalidArchive = "invalid_archive"
            case idempotencyConflict = "idempotency_conflict"
            case unknownPack = "unknown_pack"
            case migration = "migration_failed"
            case unavailable = "storage_unavailable"
            case corrupt = "corrupt_data"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The code as sent on the wire, for example `email_taken`.
        public var description: String { value.rawValue }

        /// The account, session, memory or photo does not exist (or belongs to someone else).
        public static let notFound = Code(.notFound)
        /// Another account already uses this email address.
        public static let emailTaken = Code(.emailTaken)
        /// An account with this user id already exists.
        public static let userExists = Code(.userExists)
        /// An argument is not acceptable (an empty id, a day start outside 0–23, …).
        public static let invalidInput = Code(.invalidInput)
        /// An archive to import has bad lines; nothing was imported.
        public static let invalidArchive = Code(.invalidArchive)
        /// An idempotency key was reused for a different request.
        public static let idempotencyConflict = Code(.idempotencyConflict)
        /// A profile names a rule pack Momentum does not bundle.
        public static let unknownPack = Code(.unknownPack)
        /// A schema migration failed; the database is left at the last version that applied.
        public static let migration = Code(.migration)
        /// The database could not be reached or refused the operation.
        public static let unavailable = Code(.unavailable)
        /// Stored data could not be decoded.
        public static let corrupt = Code(.corrupt)
    }

    /// One bad line of an imported archive.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The archive file the line belongs to (`account.jsonl`).
        public var file: String
        /// The 1-based line number, or `nil` for a problem with the file as a whole.
        public var line: Int?
        /// Why the line was refused.
        public var reason: String

        /// Creates a problem report.
        public init(file: String, line: Int?, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }

        /// `account.jsonl:12: reason`.
        public var description: String {
            line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
        }
    }

    /// What went wrong, for programs.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// Every bad line, for ``Code/invalidArchive``.
    public var problems: [Problem]

    /// Creates an error.
    public init(_ code: Code, _ message: String, problems: [Problem] = []) {
        self.code = code
        self.message = message
        self.problems = problems
    }

    /// The message, followed by one line per problem.
    public var description: String {
        ([message] + problems.map(\.description)).joined(separator: "\n")
    }

    static func database(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        return StoreError(.unavailable, "the database refused the operation: \(String(reflecting: error))")
    }

    static func corrupt(_ what: String) -> StoreError {
        StoreError(.corrupt, "stored data could not be read: \(what)")
    }
}
