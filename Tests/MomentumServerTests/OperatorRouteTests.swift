import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices

extension TestClientProtocol {
    /// Signs an operator in through the admin API: their `mop_` token.
    func operatorSignIn(email: String, password: String) async throws -> String {
        let session = try await call(
            .post, "/v1/admin/sessions", json: #"{"email": "\#(email)", "password": "\#(password)"}"#)
        #expect(session.status == .created, "\(session.text)")
        return session.json["token"] as? String ?? ""
    }
}

/// Operators, roles and the audit log through the admin API: the first owner, sign-ins,
/// what each role may do (refusals recorded), the last owner, and the audit log's filters.
@Suite(.serialized)
struct OperatorRouteTests {
    static let owner = ServerHarness.ownerToken
    static let password = "operator-password"

    /// Adds an operator through the API as the harness owner and signs them in: their id and token.
    static func addOperator(
        _ client: any TestClientProtocol, _ role: OperatorRole, email: String
    ) async throws -> (id: String, token: String) {
        let added = try await client.call(
            .post, "/v1/admin/operators", token: owner,
            json:
                #"{"email": "\#(email)", "name": "\#(role.rawValue)", "password": "\#(password)", "role": "\#(role.rawValue)"}"#
        )
        #expect(added.status == .created, "\(added.text)")
        #expect(added.json["role"] as? String == role.rawValue)
        let token = try await client.operatorSignIn(email: email, password: password)
        return (added.json["id"] as? String ?? "", token)
    }

    static func audit(_ client: any TestClientProtocol, _ query: String = "") async throws -> [[String: Any]] {
        let page = try await client.call(.get, "/v1/admin/audit\(query)", token: owner)
        #expect(page.status == .ok, "\(page.text)")
        return page.json["entries"] as? [[String: Any]] ?? []
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func theFirstOwnerIsCreatedOnceEvenByConcurrentBootstraps(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(owner: false, backend: backend) { _, client in
            // Without an operator, only the admin token answers; a wrong one is 401.
            #expect(try await client.call(.get, "/v1/admin/operators").status == .unauthorized)
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<5 {
                    group.addTask {
                        let answer = try await client.call(
                            .post, "/v1/admin/operators", token: "admin-secret",
                            json:
                                #"{"email": "owner\#(index)@example.com", "name": "Owner", "password": "owner-password-1"}"#
                        )
                        return (Int(answer.status.code), answer.errorCode)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0.0 == 409 && $0.1 == "owner_exists" }.count == 4, "\(statuses)")
            // Once there is an owner, the admin token creates no other.
            let again = try await client.call(
                .post, "/v1/admin/operators", token: "admin-secret",
                json: #"{"email": "late@example.com", "name": "Late", "password": "owner-password-1"}"#)
            #expect(again.status == .conflict && again.errorCode == "owner_exists", "\(again.text)")
        }
    }

    @Test func theAdminTokenOnlyCreatesTheFirstOwnerAndItsOtherUsesAreRecorded() async throws {
        try await ServerHarness.with { _, client in
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/admin/review-flags"), (.get, "/v1/admin/operators"),
                (.get, "/v1/admin/server-keys"), (.get, "/v1/admin/audit"),
            ] {
                let refused = try await client.call(method, path, token: "admin-secret")
                #expect(refused.status == .forbidden, "\(path): \(refused.text)")
                #expect(refused.errorCode == "admin_token_bootstrap_only", "\(path)")
            }
            let denied = try await Self.audit(client, "?operator=admin-token")
            #expect(denied.count == 4)
            #expect(denied.allSatisfy { $0["outcome"] as? String == "denied" })
            // No token, or one that is no session: 401.
            #expect(try await client.call(.get, "/v1/admin/operators").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/admin/operators", token: "mop_nope").status == .unauthorized)
        }
    }

    @Test func adminRoutesDoNotExistWithoutAnAdminTokenOrAnOperator() async throws {
        try await ServerHarness.with(adminToken: nil) { _, client in
            let operators = try await client.call(.get, "/v1/admin/operators", token: "x")
            #expect(operators.status == .notFound)
            let flags = try await client.call(.get, "/v1/admin/review-flags")
            #expect(flags.status == .notFound)
        }
    }

    @Test func eachRoleIsRefusedWhatItMayNotDoAndTheRefusalIsRecorded() async throws {
        try await ServerHarness.with { _, client in
            let support = try await Self.addOperator(client, .support, email: "support@example.com")
            let viewer = try await Self.addOperator(client, .viewer, email: "viewer@example.com")
            let keyJSON = #"{"name": "backend", "scopes": ["events:write"]}"#
            // (who, method, path, body, allowed)
            let cases: [(String, HTTPRequest.Method, String, String?, Bool)] = [
                (viewer.token, .get, "/v1/admin/operators", nil, true),
                (viewer.token, .get, "/v1/admin/server-keys", nil, true),
                (viewer.token, .get, "/v1/admin/audit", nil, false),
                (viewer.token, .post, "/v1/admin/server-keys", keyJSON, false),
                (viewer.token, .post, "/v1/admin/review-flags/u_x/f_x/clear", nil, false),
                (support.token, .get, "/v1/admin/review-flags", nil, true),
                (support.token, .post, "/v1/admin/review-flags/u_x/f_x/clear", nil, true),
                (support.token, .post, "/v1/admin/server-keys", keyJSON, false),
                (support.token, .patch, "/v1/admin/operators/\(viewer.id)", #"{"role": "owner"}"#, false),
                (support.token, .get, "/v1/admin/audit", nil, true),
                (Self.owner, .post, "/v1/admin/server-keys", keyJSON, true),
            ]
            for (token, method, path, body, allowed) in cases {
                let answer = try await client.call(method, path, token: token, json: body)
                if allowed {
                    #expect(answer.status != .forbidden, "\(path): \(answer.text)")
                } else {
                    #expect(answer.status == .forbidden, "\(path): \(answer.text)")
                    #expect(answer.errorCode == "operator_role_forbidden", "\(path)")
                }
            }
            let viewerDenied = try await Self.audit(client, "?operator=\(viewer.id)")
            #expect(viewerDenied.filter { $0["outcome"] as? String == "denied" }.count == 3, "\(viewerDenied)")
            let supportDenied = try await Self.audit(client, "?operator=\(support.id)")
            #expect(supportDenied.filter { $0["outcome"] as? String == "denied" }.count == 2, "\(supportDenied)")
            #expect(supportDenied.contains { $0["action"] as? String == "server_key.created" })
            // The viewer was not made an owner.
            let list = try await client.call(.get, "/v1/admin/operators", token: Self.owner)
            let roles = (list.json["operators"] as? [[String: Any]] ?? []).map { $0["role"] as? String ?? "" }
            #expect(roles.sorted() == ["owner", "support", "viewer"])
        }
    }

    @Test func theLastEnabledOwnerCannotBeDemotedOrDisabled() async throws {
        try await ServerHarness.with { _, client in
            let list = try await client.call(.get, "/v1/admin/operators", token: Self.owner)
            let ownerID = try #require((list.json["operators"] as? [[String: Any]])?.first?["id"] as? String)
            for body in [#"{"role": "viewer"}"#, #"{"disabled": true}"#] {
                let refused = try await client.call(
                    .patch, "/v1/admin/operators/\(ownerID)", token: Self.owner, json: body)
                #expect(refused.status == .conflict && refused.errorCode == "last_owner", "\(refused.text)")
            }
            let second = try await Self.addOperator(client, .owner, email: "second@example.com")
            let demoted = try await client.call(
                .patch, "/v1/admin/operators/\(ownerID)", token: second.token, json: #"{"role": "support"}"#)
            #expect(demoted.status == .ok && demoted.json["role"] as? String == "support", "\(demoted.text)")
            let unknown = try await client.call(
                .patch, "/v1/admin/operators/op_nope", token: second.token, json: #"{"role": "support"}"#)
            #expect(unknown.status == .notFound)
            let extra = try await client.call(
                .patch, "/v1/admin/operators/\(ownerID)", token: second.token, json: #"{"role": "support", "x": 1}"#)
            #expect(extra.status.code == 400 || extra.status.code == 422, "\(extra.text)")
        }
    }

    @Test func signInAnswersTheSameForEveryWrongPartAndSignOutAndDisablingEndTheSession() async throws {
        try await ServerHarness.with { _, client in
            let support = try await Self.addOperator(client, .support, email: "support@example.com")
            var bodies: Set<String> = []
            for (email, password) in [
                ("support@example.com", "wrong-password!"), ("nobody@example.com", Self.password),
            ] {
                let refused = try await client.call(
                    .post, "/v1/admin/sessions", json: #"{"email": "\#(email)", "password": "\#(password)"}"#)
                #expect(refused.status == .unauthorized && refused.errorCode == "invalid_credentials")
                bodies.insert(refused.text)
            }
            #expect(bodies.count == 1)
            // Signing out ends the token.
            let other = try await client.operatorSignIn(email: "support@example.com", password: Self.password)
            #expect(try await client.call(.delete, "/v1/admin/sessions/current", token: other).status == .noContent)
            #expect(try await client.call(.get, "/v1/admin/review-flags", token: other).status == .unauthorized)
            // Disabling ends every session at once, and the operator cannot sign in again.
            #expect(try await client.call(.get, "/v1/admin/review-flags", token: support.token).status == .ok)
            let disabled = try await client.call(
                .patch, "/v1/admin/operators/\(support.id)", token: Self.owner, json: #"{"disabled": true}"#)
            #expect(disabled.status == .ok && disabled.json["disabled"] as? Bool == true, "\(disabled.text)")
            #expect(try await client.call(.get, "/v1/admin/review-flags", token: support.token).status == .unauthorized)
            let again = try await client.call(
                .post, "/v1/admin/sessions", json: #"{"email": "support@example.com", "password": "\#(Self.password)"}"#
            )
            #expect(again.status == .unauthorized && again.text == bodies.first)
            // Passwords shorter than 12 characters, and bad emails, are refused field by field.
            let weak = try await client.call(
                .post, "/v1/admin/operators", token: Self.owner,
                json: #"{"email": "not-an-email", "name": "", "password": "short"}"#)
            #expect(weak.status == .unprocessableContent, "\(weak.text)")
            #expect(Set(weak.errorFields) == ["email", "name", "password"])
        }
    }

    @Test func signInsAreThrottledPerEmail() async throws {
        try await ServerHarness.with { _, client in
            var statuses: [Int] = []
            // The throttle counts per instance, as the accounts' does: each instance sees eight.
            for _ in 0..<(8 * ServerHarness.instances) {
                let answer = try await client.call(
                    .post, "/v1/admin/sessions",
                    json: #"{"email": "\#(ServerHarness.ownerEmail)", "password": "not-the-password"}"#)
                statuses.append(Int(answer.status.code))
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == 401 }, "\(statuses)")
            #expect(statuses.contains(429), "\(statuses)")
        }
    }

    @Test func theAuditLogIsFilteredByOperatorUserAndActionAndPagedNewestFirst() async throws {
        try await ServerHarness.with { _, client in
            let support = try await Self.addOperator(client, .support, email: "support@example.com")
            _ = try await client.call(.post, "/v1/admin/review-flags/u_one/f_1/clear", token: support.token)
            _ = try await client.call(.post, "/v1/admin/review-flags/u_two/f_2/clear", token: support.token)
            _ = try await client.call(
                .post, "/v1/admin/server-keys", token: support.token, json: #"{"name": "k", "scopes": ["state:read"]}"#)
            let bySupport = try await Self.audit(client, "?operator=\(support.id)")
            let actions = bySupport.map { $0["action"] as? String ?? "" }
            let expected = ["server_key.created", "review_flag.cleared", "review_flag.cleared", "operator.signed_in"]
            // The test clock stands still: several instances' entries share its millisecond, and
            // only one instance's keep their order within it.
            #expect(ServerHarness.instances == 1 ? actions == expected : actions.sorted() == expected.sorted())
            let aboutOne = try await Self.audit(client, "?user=u_one")
            #expect(aboutOne.count == 1 && aboutOne.first?["user"] as? String == "u_one")
            #expect(aboutOne.first?["operatorEmail"] as? String == "support@example.com")
            let flags = try await Self.audit(client, "?action=review_flag.")
            #expect(flags.count == 2)
            // A page at a time: the cursor goes on with older entries.
            let first = try await client.call(.get, "/v1/admin/audit?operator=\(support.id)&limit=2", token: Self.owner)
            let cursor = try #require(first.json["nextCursor"] as? String)
            let second = try await client.call(
                .get, "/v1/admin/audit?operator=\(support.id)&limit=2&before=\(cursor)", token: Self.owner)
            let ids =
                ((first.json["entries"] as? [[String: Any]] ?? []) + (second.json["entries"] as? [[String: Any]] ?? []))
                .compactMap { $0["id"] as? String }
            #expect(ids == bySupport.compactMap { $0["id"] as? String })
            #expect(try await client.call(.get, "/v1/admin/audit?limit=0", token: Self.owner).status.code >= 400)
            #expect(try await client.call(.get, "/v1/admin/audit?limit=501", token: Self.owner).status.code >= 400)
        }
    }

    @Test func aDisabledOperatorsTokenIsRefusedAtOnceByAnotherInstance() async throws {
        try await TwoInstances.with { a, b in
            let owner = Self.owner
            // The admin token no longer creates an owner: the instances started with one.
            let late = try await a.call(
                .post, "/v1/admin/operators", token: "admin-secret",
                json: #"{"email": "late@example.com", "name": "Late", "password": "owner-password-1"}"#)
            #expect(late.status == .conflict)
            let added = try await a.call(
                .post, "/v1/admin/operators", token: owner,
                json:
                    #"{"email": "help@example.com", "name": "Help", "password": "help-password-1", "role": "support"}"#)
            let id = try #require(added.json["id"] as? String)
            let support = try await b.operatorSignIn(email: "help@example.com", password: "help-password-1")
            #expect(try await b.call(.get, "/v1/admin/review-flags", token: support).status == .ok)
            let disabled = try await a.call(
                .patch, "/v1/admin/operators/\(id)", token: owner, json: #"{"disabled": true}"#)
            #expect(disabled.status == .ok, "\(disabled.text)")
            // No relay to wait for: the other instance reads the session from the database.
            #expect(try await b.call(.get, "/v1/admin/review-flags", token: support).status == .unauthorized)
        }
    }
}
