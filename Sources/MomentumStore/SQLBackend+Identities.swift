import Foundation
import MomentumCore

extension SQLBackend {
    /// Implements ``MomentumStore`` `linkedIdentity`; see ``IdentityLinks`` for its contract.
    public func linkedIdentity(provider: String, subject: String) async throws(StoreError) -> LinkedIdentity? {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([IdentityPrograms.select(provider: provider, subject: subject)]) { rows throws(StoreError) in
                    .done(try rows[0].first.map(IdentityPrograms.identity(from:)))
                }
            })
    }

    /// Implements ``MomentumStore`` `linkedIdentities`; see ``IdentityLinks`` for its contract.
    public func linkedIdentities(of user: String) async throws(StoreError) -> [LinkedIdentity] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([
                    SQLStatement(
                        "\(IdentityPrograms.columns) WHERE user_id = ? ORDER BY provider", [.text(user)])
                ]) { rows throws(StoreError) in
                    .done(try rows[0].map(IdentityPrograms.identity(from:)))
                }
            })
    }

    /// Implements ``MomentumStore`` `createAccount(_:profile:identity:)`; see ``IdentityLinks``
    /// for its contract.
    public func createAccount(
        _ account: Account, profile: Profile, identity: LinkedIdentity
    ) async throws(StoreError) -> String {
        try IdentityPrograms.validate(identity)
        try Validate.userID(account.id)
        if let email = account.email { try Validate.email(email) }
        try profile.validate(in: packLibrary)
        var account = account
        account.createdAt = StoreJSON.canonical(account.createdAt)
        var profile = profile
        profile.updatedAt = StoreJSON.canonical(profile.updatedAt)
        var identity = identity
        identity.userID = account.id
        identity.linkedAt = StoreJSON.canonical(identity.linkedAt)
        let create = AccountPrograms.create(account, profile: profile, form: storedForm)
        let linked = identity
        return try await run(
            StoreProgram(writes: true, user: account.id) { () throws(StoreError) in
                // The identity's lock makes a second first sign-in wait, then find it linked.
                .lock(IdentityPrograms.lockName(linked)) { () throws(StoreError) in
                    .query([IdentityPrograms.select(provider: linked.provider, subject: linked.subject)]) {
                        rows throws(StoreError) in
                        if let owner = rows[0].first { return .done(try owner.text(2, "user_id")) }
                        return try IdentityPrograms.then(try create.start()) { _ throws(StoreError) in
                            .execute([IdentityPrograms.insert(linked)]) { _ throws(StoreError) in .done(linked.userID) }
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `link`; see ``IdentityLinks`` for its contract.
    public func link(_ identity: LinkedIdentity) async throws(StoreError) -> String {
        try IdentityPrograms.validate(identity)
        var identity = identity
        identity.linkedAt = StoreJSON.canonical(identity.linkedAt)
        let linked = identity
        return try await run(
            StoreProgram(writes: true, user: linked.userID) { () throws(StoreError) in
                .lock(linked.userID) { () throws(StoreError) in
                    .lock(IdentityPrograms.lockName(linked)) { () throws(StoreError) in
                        .query([
                            IdentityPrograms.select(provider: linked.provider, subject: linked.subject),
                            SQLStatement(
                                "SELECT subject FROM identities WHERE user_id = ? AND provider = ?",
                                [.text(linked.userID), .text(linked.provider)]),
                            SQLStatement("SELECT user_id FROM accounts WHERE user_id = ?", [.text(linked.userID)]),
                        ]) { rows throws(StoreError) in
                            if let owner = rows[0].first { return .done(try owner.text(2, "user_id")) }
                            guard !rows[2].isEmpty else { throw StoreError(.notFound, "no account '\(linked.userID)'") }
                            guard rows[1].isEmpty else {
                                throw StoreError(
                                    .userExists, "the account already has an identity of '\(linked.provider)'")
                            }
                            return .execute([IdentityPrograms.insert(linked)]) { _ throws(StoreError) in
                                .done(linked.userID)
                            }
                        }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `unlink`; see ``IdentityLinks`` for its contract.
    public func unlink(provider: String, of user: String) async throws(StoreError) -> IdentityUnlinking {
        try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .lock(user) { () throws(StoreError) in
                    .query([
                        SQLStatement("SELECT provider FROM identities WHERE user_id = ?", [.text(user)]),
                        SQLStatement("SELECT password_hash FROM accounts WHERE user_id = ?", [.text(user)]),
                    ]) { rows throws(StoreError) in
                        let providers = rows[0].compactMap { $0.optionalText(0) }
                        guard providers.contains(provider) else { return .done(.notLinked) }
                        // '' is an account without a password (see `Schema.accounts`).
                        let hasPassword = !(rows[1].first?.optionalText(0) ?? "").isEmpty
                        guard hasPassword || providers.count > 1 else { return .done(.lastSignInMethod) }
                        return .execute([
                            SQLStatement(
                                "DELETE FROM identities WHERE user_id = ? AND provider = ?",
                                [.text(user), .text(provider)])
                        ]) { _ throws(StoreError) in .done(.unlinked) }
                    }
                }
            })
    }
}

/// Statements and row decoders of ``IdentityLinks``.
enum IdentityPrograms {
    static let columns = "SELECT provider, subject, user_id, email, linked_at FROM identities"

    static func select(provider: String, subject: String) -> SQLStatement {
        SQLStatement("\(columns) WHERE provider = ? AND subject = ?", [.text(provider), .text(subject)])
    }

    static func insert(_ identity: LinkedIdentity) -> SQLStatement {
        SQLStatement(
            "INSERT INTO identities (provider, subject, user_id, email, linked_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(identity.provider), .text(identity.subject), .text(identity.userID),
                identity.email.map(SQLValue.text) ?? .null, .date(identity.linkedAt),
            ])
    }

    static func identity(from row: SQLRow) throws(StoreError) -> LinkedIdentity {
        LinkedIdentity(
            provider: try row.text(0, "provider"), subject: try row.text(1, "subject"),
            userID: try row.text(2, "user_id"), email: row.optionalText(3), linkedAt: try row.date(4, "linked_at"))
    }

    /// The name of the lock that serializes the linking of one identity.
    static func lockName(_ identity: LinkedIdentity) -> String {
        "identity\u{1F}\(identity.provider)\u{1F}\(identity.subject)"
    }

    static func validate(_ identity: LinkedIdentity) throws(StoreError) {
        for (name, value) in [("provider", identity.provider), ("subject", identity.subject)] {
            guard !value.isEmpty, value.utf8.count <= 255, !value.unicodeScalars.contains(where: { $0.value < 0x20 })
            else { throw StoreError(.invalidInput, "an identity's \(name) is 1 to 255 bytes of text") }
        }
        if let email = identity.email, email.utf8.count > 254 || email.contains("\u{0}") {
            throw StoreError(.invalidInput, "an identity's email is at most 254 bytes")
        }
    }

    /// `step`, with `next` run on its result where it would be done: two programs' steps in
    /// one transaction.
    static func then<A: Sendable, B: Sendable>(
        _ step: StoreStep<A>, _ next: @escaping @Sendable (A) throws(StoreError) -> StoreStep<B>
    ) throws(StoreError) -> StoreStep<B> {
        switch step {
        case .lock(let name, let following):
            return .lock(name) { () throws(StoreError) in try then(try following(), next) }
        case .query(let statements, let following):
            return .query(statements) { rows throws(StoreError) in try then(try following(rows), next) }
        case .execute(let statements, let following):
            return .execute(statements) { counts throws(StoreError) in try then(try following(counts), next) }
        case .done(let result):
            return try next(result)
        }
    }
}
