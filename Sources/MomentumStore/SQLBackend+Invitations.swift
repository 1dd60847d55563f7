import Foundation
import MomentumCore

extension SQLBackend {
    // MARK: Invitations

    /// Implements ``MomentumStore`` `createInvitation`; see the protocol for its contract.
    public func createInvitation(_ invitation: Invitation) async throws(StoreError) {
        _ = try await write(
            invitation.inviter,
            SQLStatement(
                """
                INSERT INTO invitations (code, user_id, kind, subject_owner, subject_id, role, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(invitation.code), .text(invitation.inviter), .text(invitation.kind.rawValue),
                    .optional(invitation.subjectOwner), .optional(invitation.subject),
                    .optional(invitation.role?.rawValue), .date(StoreJSON.canonical(invitation.createdAt)),
                    .date(StoreJSON.canonical(invitation.expiresAt)),
                ]))
    }

    /// Implements ``MomentumStore`` `invitation(code:)`; see the protocol for its contract.
    public func invitation(code: String) async throws(StoreError) -> Invitation? {
        try await read(
            SQLStatement("SELECT \(Self.invitationColumns) FROM invitations WHERE code = ?", [.text(code)])
        ).first.map { row throws(StoreError) in try Self.invitation(row) }
    }

    /// Implements ``MomentumStore`` `invitations(of:since:limit:)`; see the protocol for its contract.
    public func invitations(of user: String, since: Date, limit: Int) async throws(StoreError) -> [Invitation] {
        try await read(
            SQLStatement(
                """
                SELECT \(Self.invitationColumns) FROM invitations WHERE user_id = ? AND created_at >= ?
                ORDER BY created_at DESC, code DESC LIMIT ?
                """, [.text(user), .date(since), .int(min(max(limit, 1), 1_000))])
        ).map { row throws(StoreError) in try Self.invitation(row) }
    }

    /// Implements ``MomentumStore`` `revokeInvitation`; see the protocol for its contract.
    public func revokeInvitation(code: String, of user: String, at: Date) async throws(StoreError) -> Bool {
        try await write(
            user,
            SQLStatement(
                """
                UPDATE invitations SET revoked_at = ?
                WHERE code = ? AND user_id = ? AND revoked_at IS NULL AND answer IS NULL
                """, [.date(StoreJSON.canonical(at)), .text(code), .text(user)])) > 0
    }

    /// Implements ``MomentumStore`` `familyInvitations`; see the protocol for its contract.
    public func familyInvitations(
        of subject: String, owner: String, at: Date, limit: Int
    ) async throws(StoreError) -> [Invitation] {
        // Led by the makers who may still invite (the owner, the current co-owners), so the
        // lookup goes through the inviters' index, not every invitation of the server.
        try await read(
            SQLStatement(
                """
                SELECT \(Self.invitationColumns) FROM invitations
                WHERE (user_id = ? OR user_id IN (
                    SELECT member_id FROM subject_members WHERE user_id = ? AND subject_id = ? AND role = ?
                  ))
                  AND kind = 'family' AND subject_owner = ? AND subject_id = ?
                  AND answer IS NULL AND revoked_at IS NULL AND expires_at > ?
                ORDER BY created_at DESC, code DESC LIMIT ?
                """,
                [
                    .text(owner), .text(owner), .text(subject), .text(FamilyRole.coOwner.rawValue), .text(owner),
                    .text(subject), .date(at), .int(min(max(limit, 1), 1_000)),
                ])
        ).map { row throws(StoreError) in try Self.invitation(row) }
    }

    /// Implements ``MomentumStore`` `revokeFamilyInvitation`; see the protocol for its contract.
    public func revokeFamilyInvitation(
        code: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool {
        try await write(
            owner,
            SQLStatement(
                """
                UPDATE invitations SET revoked_at = ?
                WHERE code = ? AND kind = 'family' AND subject_owner = ? AND subject_id = ?
                  AND revoked_at IS NULL AND answer IS NULL
                """, [.date(StoreJSON.canonical(at)), .text(code), .text(owner), .text(subject)])) > 0
    }

    /// Implements ``MomentumStore`` `answerInvitation`; see the protocol for its contract.
    public func answerInvitation(
        code: String, by user: String, accept: Bool, at: Date
    ) async throws(StoreError) -> InvitationOutcome {
        let at = StoreJSON.canonical(at)
        let select = SQLStatement("SELECT \(Self.invitationColumns) FROM invitations WHERE code = ?", [.text(code)])
        return try await run(
            StoreProgram(writes: true, user: user) { () throws(StoreError) in
                .query([select]) { rows throws(StoreError) in
                    guard let row = rows[0].first else { return .done(.unavailable) }
                    let invitation = try Self.invitation(row)
                    guard invitation.state(at: at) == .pending, invitation.inviter != user else {
                        return .done(.unavailable)
                    }
                    let owner = invitation.subjectOwner ?? invitation.inviter
                    var checks = [Self.blockedEitherWay(invitation.inviter, user)]
                    if invitation.kind == .family, let subject = invitation.subject {
                        checks.append(Self.blockedEitherWay(owner, user))
                        checks.append(
                            SQLStatement(
                                "SELECT 1 FROM subjects WHERE user_id = ? AND subject_id = ?",
                                [.text(owner), .text(subject)]))
                        // An invitation carries its maker's authority only while they hold it:
                        // the owner always, a co-owner while they still are one.
                        checks.append(
                            Self.managesFamily(invitation.inviter, subject: subject, owner: owner))
                        checks.append(
                            SQLStatement(
                                "SELECT 1 FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                                [.text(owner), .text(subject), .text(user)]))
                    } else {
                        checks.append(
                            SQLStatement(
                                "SELECT 1 FROM friendships WHERE user_id = ? AND friend_id = ?",
                                [.text(user), .text(invitation.inviter)]))
                    }
                    return .query(checks) { found throws(StoreError) in
                        guard found[0].isEmpty else { return .done(.unavailable) }
                        if invitation.kind == .family {
                            guard found[1].isEmpty, !found[2].isEmpty, !found[3].isEmpty, owner != user else {
                                return .done(.unavailable)
                            }
                        }
                        if accept && !found[found.count - 1].isEmpty { return .done(.alreadyConnected) }
                        var answered = invitation
                        answered.answer = accept ? .accepted : .declined
                        answered.answeredBy = user
                        answered.answeredAt = at
                        let outcome = answered
                        let mark = SQLStatement(
                            """
                            UPDATE invitations SET answer = ?, answered_by = ?, answered_at = ?
                            WHERE code = ? AND answer IS NULL AND revoked_at IS NULL
                            """, [.text(accept ? "accepted" : "declined"), .text(user), .date(at), .text(code)])
                        return .execute([mark]) { marked throws(StoreError) in
                            // Another answer came first.
                            guard marked[0] == 1 else { return .done(.unavailable) }
                            guard accept else { return .done(.declined(outcome)) }
                            let joins =
                                invitation.kind == .family
                                ? Self.joinFamily(
                                    owner: owner, subject: invitation.subject ?? "", member: user,
                                    role: invitation.role ?? .viewer, at: at)
                                : Self.befriend(invitation.inviter, user, at: at)
                            return .execute(joins) { _ throws(StoreError) in .done(.accepted(outcome)) }
                        }
                    }
                }
            })
    }
}
