import Foundation
import MomentumCore

extension SQLBackend {
    // MARK: Families

    /// Implements ``MomentumStore`` `familyMembers`; see the protocol for its contract.
    public func familyMembers(of subject: String, owner: String) async throws(StoreError) -> [FamilyMember] {
        try await read(
            SQLStatement(
                """
                SELECT m.member_id, COALESCE(p.display_name, ''), m.role, m.since
                FROM subject_members m LEFT JOIN profiles p ON p.user_id = m.member_id
                WHERE m.user_id = ? AND m.subject_id = ? ORDER BY m.since, m.member_id
                """, [.text(owner), .text(subject)])
        ).map { row throws(StoreError) in
            FamilyMember(
                owner: owner, subject: subject, user: try row.text(0, "member_id"),
                displayName: try row.text(1, "name"),
                role: FamilyRole(rawValue: try row.text(2, "role")) ?? .viewer, since: try row.date(3, "since"))
        }
    }

    /// Implements ``MomentumStore`` `memberships(of:)`; see the protocol for its contract.
    public func memberships(of user: String) async throws(StoreError) -> [Membership] {
        try await read(
            SQLStatement(
                """
                SELECT m.owner_id, COALESCE(p.display_name, ''), m.subject_id, m.role, m.since
                FROM memberships m LEFT JOIN profiles p ON p.user_id = m.owner_id
                WHERE m.user_id = ? ORDER BY m.since, m.owner_id, m.subject_id
                """, [.text(user)])
        ).map { row throws(StoreError) in
            Membership(
                owner: try row.text(0, "owner_id"), ownerName: try row.text(1, "name"),
                subject: try row.text(2, "subject_id"), role: FamilyRole(rawValue: try row.text(3, "role")) ?? .viewer,
                since: try row.date(4, "since"))
        }
    }

    /// Implements ``MomentumStore`` `familyRole`; see the protocol for its contract.
    public func familyRole(of member: String, subject: String, owner: String) async throws(StoreError) -> FamilyRole? {
        try await read(
            SQLStatement(
                "SELECT role FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                [.text(owner), .text(subject), .text(member)])
        ).first.flatMap { $0.optionalText(0) }.flatMap(FamilyRole.init(rawValue:))
    }

    /// Implements ``MomentumStore`` `setFamilyRole`; see the protocol for its contract.
    public func setFamilyRole(
        _ role: FamilyRole, of member: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool {
        let withdraw = Self.withdrawFamilyInvitations(by: member, subject: subject, owner: owner, at: at)
        return try await run(
            StoreProgram(writes: true, user: owner) { () throws(StoreError) in
                .execute([
                    SQLStatement(
                        "UPDATE subject_members SET role = ? WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                        [.text(role.rawValue), .text(owner), .text(subject), .text(member)]),
                    SQLStatement(
                        "UPDATE memberships SET role = ? WHERE user_id = ? AND owner_id = ? AND subject_id = ?",
                        [.text(role.rawValue), .text(member), .text(owner), .text(subject)]),
                ]) { counts throws(StoreError) in
                    guard counts[0] > 0 else { return .done(false) }
                    guard !role.manages else { return .done(true) }
                    return .execute([withdraw]) { _ throws(StoreError) in .done(true) }
                }
            })
    }

    /// Implements ``MomentumStore`` `removeFamilyMember`; see the protocol for its contract.
    public func removeFamilyMember(
        _ member: String, subject: String, owner: String, at: Date
    ) async throws(StoreError) -> Bool {
        try await run(
            StoreProgram(writes: true, user: owner) { () throws(StoreError) in
                .execute([
                    SQLStatement(
                        "DELETE FROM subject_members WHERE user_id = ? AND subject_id = ? AND member_id = ?",
                        [.text(owner), .text(subject), .text(member)]),
                    SQLStatement(
                        "DELETE FROM memberships WHERE user_id = ? AND owner_id = ? AND subject_id = ?",
                        [.text(member), .text(owner), .text(subject)]),
                    Self.withdrawFamilyInvitations(by: member, subject: subject, owner: owner, at: at),
                ]) { counts throws(StoreError) in .done(counts[0] > 0) }
            })
    }
}
