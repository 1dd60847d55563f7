import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Operators, their sessions and the audit log, on every backend.
@Suite(.serialized)
struct OperatorStoreConformanceTests {
    static func record(_ id: String, email: String, role: String = "owner") -> OperatorRecord {
        OperatorRecord(
            id: id, email: email, name: "Op \(id)", role: role, passwordHash: "$2b$04$hash", createdAt: Fixtures.start,
            createdBy: "admin-token")
    }

    static func session(_ hash: String, of id: String, expires: Date = Fixtures.day(1)) -> OperatorSessionRecord {
        OperatorSessionRecord(
            tokenHash: hash, operatorID: id, kind: "api", csrf: "csrf-\(hash)", createdAt: Fixtures.start,
            expiresAt: expires, lastSeenAt: Fixtures.start)
    }

    @Test(arguments: Backend.allCases)
    func operatorsAreStoredByIdAndLowerCasedEmailOnce(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            #expect(try await store.createFirstOwner(Self.record("op_1", email: "Owner@Example.com")))
            try await store.createOperator(Self.record("op_2", email: "help@example.com", role: "support"))
            await #expect(throws: StoreError.self) {
                try await store.createOperator(Self.record("op_3", email: "OWNER@example.com", role: "viewer"))
            }
            await #expect(throws: StoreError.self) {
                try await store.createOperator(Self.record("op_2", email: "other@example.com", role: "viewer"))
            }
            await #expect(throws: StoreError.self) {
                try await store.createOperator(Self.record("op_4", email: "x@example.com", role: "admin"))
            }
            #expect(try await store.operators().map(\.id) == ["op_1", "op_2"])
            #expect(try await store.operatorRecord(email: "owner@EXAMPLE.com")?.id == "op_1")
            #expect(try await store.operatorRecord(email: "owner@example.com")?.email == "owner@example.com")
            #expect(try await store.operatorRecord(id: "op_2")?.role == "support")
            #expect(try await store.operatorRecord(id: "nope") == nil)
            #expect(try await store.operatorRecord(email: "a\u{0}b@example.com") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func concurrentFirstOwnersStoreExactlyOne(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let created = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.createFirstOwner(Self.record("op_\(index)", email: "o\(index)@example.com"))
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(created.filter { $0 }.count == 1)
            #expect(try await store.operators().filter { $0.role == "owner" }.count == 1)
            // Once an owner exists, no first owner is stored.
            #expect(try await store.createFirstOwner(Self.record("op_late", email: "late@example.com")) == false)
        }
    }

    @Test(arguments: Backend.allCases)
    func theLastEnabledOwnerCannotBeDemotedOrDisabled(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            _ = try await store.createFirstOwner(Self.record("op_1", email: "one@example.com"))
            try await store.createOperator(Self.record("op_2", email: "two@example.com", role: "viewer"))
            #expect(try await store.updateOperator(id: "op_1", role: "support", disabledAt: nil) == .lastOwner)
            #expect(
                try await store.updateOperator(id: "op_1", role: nil, disabledAt: .some(Fixtures.day(1))) == .lastOwner)
            #expect(try await store.updateOperator(id: "nope", role: "viewer", disabledAt: nil) == .notFound)
            // With a second owner, the first may step down; then the second is the last.
            guard
                case .changed(let promoted) = try await store.updateOperator(id: "op_2", role: "owner", disabledAt: nil)
            else { Issue.record("op_2 was not promoted"); return }
            #expect(promoted.role == "owner")
            guard
                case .changed(let demoted) = try await store.updateOperator(id: "op_1", role: "viewer", disabledAt: nil)
            else { Issue.record("op_1 was not demoted"); return }
            #expect(demoted.role == "viewer")
            #expect(
                try await store.updateOperator(id: "op_2", role: nil, disabledAt: .some(Fixtures.day(1))) == .lastOwner)
            // Two owners demoting each other at once: one of them stays an owner.
            _ = try await store.updateOperator(id: "op_1", role: "owner", disabledAt: nil)
            let outcomes = try await withThrowingTaskGroup(of: OperatorChange.self) { group in
                for id in ["op_1", "op_2"] {
                    group.addTask { try await store.updateOperator(id: id, role: "viewer", disabledAt: nil) }
                }
                return try await group.reduce(into: [OperatorChange]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .lastOwner }.count == 1)
            let owners = try await store.operators().filter { $0.role == "owner" && $0.disabledAt == nil }
            #expect(owners.count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func sessionsAreFoundTouchedEndedAndEndWithADisabledOperator(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            _ = try await store.createFirstOwner(Self.record("op_1", email: "one@example.com"))
            try await store.createOperator(Self.record("op_2", email: "two@example.com", role: "support"))
            try await store.createOperatorSession(Self.session("h1", of: "op_1"))
            try await store.createOperatorSession(Self.session("h2", of: "op_2"))
            try await store.createOperatorSession(Self.session("h3", of: "op_2", expires: Fixtures.start))
            let found = try #require(try await store.operatorSession(tokenHash: "h1"))
            #expect(found.0 == Self.session("h1", of: "op_1"))
            #expect(found.1.email == "one@example.com")
            #expect(try await store.operatorSession(tokenHash: "nope") == nil)
            try await store.touchOperatorSession(
                tokenHash: "h1", lastSeenAt: Fixtures.day(1), expiresAt: Fixtures.day(2))
            let touched = try #require(try await store.operatorSession(tokenHash: "h1")).0
            #expect(touched.lastSeenAt == Fixtures.day(1) && touched.expiresAt == Fixtures.day(2))
            #expect(try await store.deleteOperatorSessions(expiredBefore: Fixtures.start.addingTimeInterval(1)) == 1)
            #expect(try await store.operatorSession(tokenHash: "h3") == nil)
            // Disabling op_2 ends their session in the same transaction; enabling keeps it ended.
            guard
                case .changed(let disabled) = try await store.updateOperator(
                    id: "op_2", role: nil, disabledAt: .some(Fixtures.day(1)))
            else { Issue.record("op_2 was not disabled"); return }
            #expect(disabled.disabledAt == Fixtures.day(1))
            #expect(try await store.operatorSession(tokenHash: "h2") == nil)
            guard
                case .changed(let enabled) = try await store.updateOperator(
                    id: "op_2", role: nil, disabledAt: .some(nil))
            else { Issue.record("op_2 was not enabled"); return }
            #expect(enabled.disabledAt == nil)
            try await store.deleteOperatorSession(tokenHash: "h1")
            try await store.deleteOperatorSession(tokenHash: "h1")
            #expect(try await store.operatorSession(tokenHash: "h1") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func auditEntriesAreFilteredByOperatorUserAndActionPrefixNewestFirst(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            func entry(
                _ id: String, _ op: String, _ action: String, _ user: String?, _ outcome: String = "done"
            )
                -> AuditRecord
            {
                AuditRecord(
                    id: id, at: Fixtures.start, operatorID: op, operatorEmail: "\(op)@example.com", action: action,
                    targetUser: user, detail: "d", outcome: outcome)
            }
            try await store.appendAudit(entry("001", "op_1", "user.granted", "u_1"))
            try await store.appendAudit(entry("002", "op_2", "user.viewed", "u_1"))
            try await store.appendAudit(entry("003", "op_1", "pack.activated", nil))
            try await store.appendAudit(entry("004", "op_2", "user_%.odd", "u_2", "denied"))
            await #expect(throws: StoreError.self) { try await store.appendAudit(entry("001", "op_1", "x.y", nil)) }
            await #expect(throws: StoreError.self) {
                try await store.appendAudit(entry("005", "op_1", "x.y", nil, "maybe"))
            }
            func ids(_ query: AuditRecordQuery) async throws -> [String] {
                try await store.auditRecords(query).map(\.id)
            }
            #expect(try await ids(AuditRecordQuery()) == ["004", "003", "002", "001"])
            #expect(try await ids(AuditRecordQuery(operatorID: "op_1")) == ["003", "001"])
            #expect(try await ids(AuditRecordQuery(targetUser: "u_1")) == ["002", "001"])
            #expect(try await ids(AuditRecordQuery(actionPrefix: "user.")) == ["002", "001"])
            // A prefix is compared as text: '_' and '%' are no patterns.
            #expect(try await ids(AuditRecordQuery(actionPrefix: "user_%")) == ["004"])
            #expect(try await ids(AuditRecordQuery(before: "003", limit: 1)) == ["002"])
            #expect(try await ids(AuditRecordQuery(operatorID: "op_2", actionPrefix: "user", before: "004")) == ["002"])
            let denied = try #require(try await store.auditRecords(AuditRecordQuery(limit: 1)).first)
            #expect(
                denied.outcome == "denied" && denied.targetUser == "u_2" && denied.operatorEmail == "op_2@example.com")
        }
    }
}
