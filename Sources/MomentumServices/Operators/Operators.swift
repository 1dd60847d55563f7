import Foundation
import Logging
import MomentumStore
import Synchronization

/// The operators of the server: the first owner, operators added by owners, their sign-ins
/// and sessions, what each role may do, and the audit log of what they did.
///
/// The static admin token only creates the first owner; everything else is done by an
/// operator, signed in with a password. Sessions are read from the store on every call
/// (admin traffic is small), so an operator disabled through one instance is refused by
/// every instance on their next call.
public final class Operators: Sendable {
    let store: any OperatorStore
    let passwords: any PasswordHashing
    let throttle: SignInThrottle
    let decoyHash: String
    let configuration: ServerConfiguration
    let logger: Logger
    /// Orders this instance's audit entries of one millisecond.
    private let sequence = Atomic<Int>(0)

    /// The prefix of every session token.
    public static let tokenPrefix = "mop_"
    /// How long an API session lasts from its sign-in.
    public static let apiLifetime: TimeInterval = 12 * 3_600
    /// How long a console session lasts without use.
    public static let consoleIdle: TimeInterval = 8 * 3_600
    /// The least time between two writes of a session's last use.
    public static let touchInterval: TimeInterval = 60
    /// The fewest characters of a password.
    public static let minimumPasswordLength = 12

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The operators, their sessions and the audit log.
    ///   - passwords: bcrypt, off the request threads.
    ///   - throttle: The sign-in throttle (shared with the accounts' sign-ins, under keys of its own).
    ///   - decoyHash: A hash checked for an unknown email, so that it takes as long.
    ///   - configuration: The bcrypt cost, the clocks and the throttle's limits.
    ///   - logger: Where audit failures are logged.
    public init(
        store: any OperatorStore, passwords: any PasswordHashing, throttle: SignInThrottle, decoyHash: String,
        configuration: ServerConfiguration, logger: Logger
    ) {
        self.store = store
        self.passwords = passwords
        self.throttle = throttle
        self.decoyHash = decoyHash
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Operators

    /// Creates the first owner; only while no owner exists.
    ///
    /// - Throws: `.invalid` naming every field at fault; `.conflict` `owner_exists` once an
    ///   owner exists (two bootstraps at once: one succeeds), `email_taken` for an email
    ///   another operator has.
    public func bootstrapOwner(email: String, name: String, password: String) async throws -> OperatorView {
        let (email, name) = try Self.validate(email: email, name: name, password: password)
        if try await store.operators().contains(where: { $0.role == OperatorRole.owner.rawValue }) {
            throw Self.ownerExists
        }
        let record = OperatorRecord(
            id: Tokens.id("op_"), email: email, name: name, role: OperatorRole.owner.rawValue,
            passwordHash: try await passwords.hash(password, cost: configuration.bcryptCost),
            createdAt: configuration.clock(), createdBy: OperatorActor.adminTokenID)
        do {
            guard try await store.createFirstOwner(record) else { throw Self.ownerExists }
        } catch let error as StoreError where error.code == .userExists {
            throw Self.emailTaken
        }
        return try Self.view(record)
    }

    /// Adds an operator.
    ///
    /// - Parameters:
    ///   - email: The email they sign in with (lower-cased).
    ///   - name: Their name.
    ///   - role: Their role.
    ///   - password: Their password, 12 to 72 characters.
    ///   - actor: Who adds them (an owner; the command line is `cli`).
    /// - Throws: `.forbidden` `operator_role_forbidden` for an actor who may not manage
    ///   operators; `.invalid` naming every field at fault; `.conflict` `email_taken`.
    public func add(
        email: String, name: String, role: OperatorRole, password: String, by actor: OperatorActor
    ) async throws -> OperatorView {
        guard actor.id != OperatorActor.adminTokenID, actor.role.allows(.manageOperators) else {
            throw Self.forbidden(.manageOperators)
        }
        let (email, name) = try Self.validate(email: email, name: name, password: password)
        if try await store.operatorRecord(email: email) != nil { throw Self.emailTaken }
        let record = OperatorRecord(
            id: Tokens.id("op_"), email: email, name: name, role: role.rawValue,
            passwordHash: try await passwords.hash(password, cost: configuration.bcryptCost),
            createdAt: configuration.clock(), createdBy: actor.id)
        do {
            try await store.createOperator(record)
        } catch  where error.code == .userExists {
            throw Self.emailTaken
        }
        return try Self.view(record)
    }

    /// Every operator, disabled ones too, in the order they were added.
    public func list() async throws -> [OperatorView] {
        try await store.operators().compactMap(OperatorView.init)
    }

    /// The operator with this email, if there is one.
    public func find(email: String) async throws -> OperatorView? {
        try await store.operatorRecord(email: Account.normalize(email: email)).flatMap(OperatorView.init)
    }

    /// Changes an operator's role, or disables or enables them. Disabling ends their
    /// sessions at once, on every instance.
    ///
    /// - Parameters:
    ///   - id: The operator.
    ///   - role: The new role, or `nil` to keep it.
    ///   - disabled: Whether they are disabled, or `nil` to keep it.
    ///   - actor: Who changes them.
    /// - Throws: `.notFound` `operator_not_found`; `.conflict` `last_owner` for a change
    ///   that would leave no enabled owner.
    public func update(
        id: String, role: OperatorRole?, disabled: Bool?, by actor: OperatorActor
    ) async throws -> OperatorView {
        guard actor.id != OperatorActor.adminTokenID, actor.role.allows(.manageOperators) else {
            throw Self.forbidden(.manageOperators)
        }
        guard Self.isPlain(id, bytes: 64) else { throw Self.operatorNotFound }
        let disabledAt: Date?? = disabled.map { $0 ? configuration.clock() : nil }
        switch try await store.updateOperator(id: id, role: role?.rawValue, disabledAt: disabledAt) {
        case .changed(let record): return try Self.view(record)
        case .notFound: throw Self.operatorNotFound
        case .lastOwner:
            throw ServiceError(
                .conflict, "last_owner", "this would leave no enabled owner; make another operator an owner first")
        }
    }

    // MARK: Sessions

    /// Checks an email and password and starts a session.
    ///
    /// An unknown email, a wrong password and a disabled operator get the same answer in
    /// the same time (an unknown email checks a decoy hash). Failed attempts are throttled
    /// per email from this address, per address, and per email across addresses, as the
    /// accounts' sign-ins are (``SignInThrottle``).
    ///
    /// - Throws: `.unauthenticated` `invalid_credentials`; `.tooMany` when throttled.
    public func signIn(
        email: String, password: String, address: String, kind: OperatorSessionKind
    ) async throws -> OperatorSignIn {
        let email = Account.normalize(email: email)
        let keys: [SignInThrottle.Key] = [
            .init(
                "operator:from:\(address) \(email)",
                .init(free: configuration.signInFreeFailuresPerAccount, concurrent: 1)),
            .init(
                "operator:address:\(address)",
                .init(
                    free: configuration.signInFreeFailuresPerAddress,
                    concurrent: max(1, configuration.passwordChecksPerAddress))),
            .init(
                "operator:email:\(email)",
                .init(
                    free: configuration.signInFreeFailuresAcrossAddresses, concurrent: 2,
                    sources: Accounts.guessingAddresses, concurrentFromSources: 1),
                source: address),
        ]
        let attempt = try await throttle.begin(keys, now: configuration.signInClock())
        var succeeded: Bool?
        defer {
            throttle.end(
                attempt, succeeded: succeeded, resetting: keys[0].name, now: configuration.signInClock())
        }
        let plain = Self.isPlain(email, bytes: 320) && password.utf8.count <= 1_024
        let record = plain ? try await store.operatorRecord(email: email) : nil
        let matches = try await passwords.verify(plain ? password : "", hash: record?.passwordHash ?? decoyHash)
        guard let record, matches, record.disabledAt == nil, let view = OperatorView(record) else {
            succeeded = false
            throw ServiceError(.unauthenticated, "invalid_credentials", "wrong email or password")
        }
        succeeded = true
        let now = configuration.clock()
        let token = Self.tokenPrefix + Self.randomText()
        let csrf = Self.randomText()
        let expiresAt = now.addingTimeInterval(kind == .api ? Self.apiLifetime : Self.consoleIdle)
        try await store.createOperatorSession(
            OperatorSessionRecord(
                tokenHash: Tokens.hash(token), operatorID: record.id, kind: kind.rawValue, csrf: csrf, createdAt: now,
                expiresAt: expiresAt, lastSeenAt: now))
        // Sessions that ended are cleared as new ones start: a few rows, on a rare call.
        _ = try? await store.deleteOperatorSessions(expiredBefore: now)
        try await self.record(
            view.actor, action: "operator.signed_in", user: nil, detail: kind.rawValue, outcome: .done)
        return OperatorSignIn(token: token, expiresAt: expiresAt, operator: view, csrf: csrf)
    }

    /// The live session a token starts, and who it signs in; `nil` for a token that is
    /// unknown, ended, or whose operator is disabled. A console session's end moves on with
    /// its use (its last use is written at most once a minute).
    public func session(token: String) async throws -> OperatorSession? {
        guard token.hasPrefix(Self.tokenPrefix), token.utf8.count <= 256 else { return nil }
        let hash = Tokens.hash(token)
        guard let found = try await store.operatorSession(tokenHash: hash) else { return nil }
        let (session, record) = found
        guard let kind = OperatorSessionKind(rawValue: session.kind), let view = OperatorView(record),
            record.disabledAt == nil
        else { return nil }
        let now = configuration.clock()
        guard session.expiresAt > now else { return nil }
        var expiresAt = session.expiresAt
        if now.timeIntervalSince(session.lastSeenAt) >= Self.touchInterval {
            if kind == .console { expiresAt = now.addingTimeInterval(Self.consoleIdle) }
            try await store.touchOperatorSession(tokenHash: hash, lastSeenAt: now, expiresAt: expiresAt)
        }
        return OperatorSession(actor: view.actor, name: view.name, kind: kind, csrf: session.csrf, expiresAt: expiresAt)
    }

    /// Ends the session a token starts; an unknown token ends nothing.
    public func signOut(token: String) async throws {
        guard token.hasPrefix(Self.tokenPrefix), token.utf8.count <= 256 else { return }
        let hash = Tokens.hash(token)
        guard let record = try await store.operatorSession(tokenHash: hash)?.1 else { return }
        try await store.deleteOperatorSession(tokenHash: hash)
        if let view = OperatorView(record) {
            try await self.record(view.actor, action: "operator.signed_out", user: nil, detail: "", outcome: .done)
        }
    }

    // MARK: Permissions and the audit log

    /// Checks that `actor` may do what `permission` names, and writes the audit log: a
    /// refusal always (`denied`), an allowed action when `action` is given (`done`).
    ///
    /// The static admin token (``OperatorActor/adminTokenID``) may only create the first owner.
    ///
    /// - Parameters:
    ///   - actor: Who acts.
    ///   - permission: What they want to do.
    ///   - action: What the audit log calls it (`<area>.<verb>`); `nil` for a read that is
    ///     not recorded.
    ///   - user: The user it is about.
    ///   - detail: More about it.
    /// - Throws: `.forbidden` `operator_role_forbidden` (`admin_token_bootstrap_only` for
    ///   the admin token), after the refusal is recorded.
    public func authorize(
        _ actor: OperatorActor, _ permission: OperatorPermission, action: String?, user: String?,
        detail: String = ""
    ) async throws {
        let isToken = actor.id == OperatorActor.adminTokenID
        let allowed = isToken ? permission == .bootstrapOwner : actor.role.allows(permission)
        guard allowed else {
            try await record(
                actor, action: action ?? "permission.\(permission.rawValue)", user: user,
                detail: detail.isEmpty ? "needs \(permission.rawValue)" : detail, outcome: .denied)
            if isToken {
                throw ServiceError(
                    .forbidden, "admin_token_bootstrap_only",
                    "the admin token only creates the first owner; sign in as an operator")
            }
            throw Self.forbidden(permission)
        }
        if let action {
            try await record(actor, action: action, user: user, detail: detail, outcome: .done)
        }
    }

    /// Appends an entry to the audit log. Fields too long for it are cut, control
    /// characters NUL removed.
    public func record(
        _ actor: OperatorActor, action: String, user: String?, detail: String, outcome: AuditOutcome
    ) async throws {
        let at = configuration.clock()
        let milliseconds = Int64((at.timeIntervalSince1970 * 1_000).rounded(.down))
        let stamp = String(max(0, milliseconds))
        // Sortable by time: the millisecond, then this instance's count (entries of one
        // millisecond keep their order), then random characters (other instances' entries).
        let count = String(sequence.wrappingAdd(1, ordering: .relaxed).newValue % 10_000_000_000)
        let id =
            String(repeating: "0", count: max(0, 15 - stamp.count)) + stamp + "-"
            + String(repeating: "0", count: max(0, 10 - count.count)) + count + "-" + Tokens.id("").prefix(8)
        try await store.appendAudit(
            AuditRecord(
                id: id, at: at, operatorID: Self.cut(actor.id, 64), operatorEmail: Self.cut(actor.email, 320),
                action: Self.cut(action.isEmpty ? "unnamed" : action, 100), targetUser: user.map { Self.cut($0, 320) },
                detail: Self.cut(detail, 4_000), outcome: outcome.rawValue))
    }

    /// Audit entries, newest first, a page at a time.
    ///
    /// - Throws: `.invalid` for a limit outside 1 to 500.
    public func auditLog(_ query: AuditQuery) async throws -> AuditPage {
        guard (1...500).contains(query.limit) else {
            throw ServiceError.invalid("must be an integer from 1 to 500", field: "limit")
        }
        let records = try await store.auditRecords(
            AuditRecordQuery(
                operatorID: query.operatorID, targetUser: query.user, actionPrefix: query.actionPrefix,
                before: query.before, limit: query.limit))
        let entries = records.map(AuditEntry.init)
        return AuditPage(entries: entries, nextCursor: entries.count == query.limit ? entries.last?.id : nil)
    }

    // MARK: Checks

    /// The email lower-cased and the name trimmed, or every field at fault.
    static func validate(email: String, name: String, password: String) throws -> (String, String) {
        let email = Account.normalize(email: email)
        let name = name.trimmingCharacters(in: .whitespaces)
        var problems: [ServiceError.Field] = []
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[0].isEmpty || !parts[1].contains(".") || email.utf8.count > 254
            || email.contains(where: \.isWhitespace) || Accounts.hasControlCharacters(email)
        {
            problems.append(.init(field: "email", issue: "is not an email address"))
        }
        if name.isEmpty || name.utf8.count > 200 || Accounts.hasControlCharacters(name) {
            problems.append(.init(field: "name", issue: "must have 1 to 200 bytes, without control characters"))
        }
        if password.count < minimumPasswordLength || password.utf8.count > 72 {
            problems.append(
                .init(
                    field: "password",
                    issue: "must be \(minimumPasswordLength) to 72 characters long (accents and emoji count as more)"))
        }
        if !problems.isEmpty { throw ServiceError.invalid(problems) }
        return (email, name)
    }

    /// Whether `text` is short enough and free of NUL to be looked up.
    static func isPlain(_ text: String, bytes: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= bytes && !text.contains("\u{0}")
    }

    /// `text` without NUL, cut to at most `bytes` bytes on a character's boundary.
    static func cut(_ text: String, _ bytes: Int) -> String {
        var out = ""
        var used = 0
        for character in text where character != "\u{0}" {
            let size = character.utf8.count
            if used + size > bytes { break }
            out.append(character)
            used += size
        }
        return out
    }

    static func randomText() -> String {
        var generator = SystemRandomNumberGenerator()
        return Tokens.base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func view(_ record: OperatorRecord) throws -> OperatorView {
        guard let view = OperatorView(record) else {
            throw ServiceError(.failed, "internal_error", "an operator's role could not be read")
        }
        return view
    }

    static func forbidden(_ permission: OperatorPermission) -> ServiceError {
        ServiceError(
            .forbidden, "operator_role_forbidden", "your role may not do this (it needs \(permission.rawValue))")
    }

    static let ownerExists = ServiceError(
        .conflict, "owner_exists", "an owner exists; an owner adds the other operators")
    static let emailTaken = ServiceError(
        .conflict, "email_taken", "an operator with this email exists",
        fields: [.init(field: "email", issue: "is taken")])
    static let operatorNotFound = ServiceError(.notFound, "operator_not_found", "no such operator")
}
