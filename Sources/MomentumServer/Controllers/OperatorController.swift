import Foundation
import Hummingbird
import MomentumAPI
import MomentumServices

/// `/v1/admin/operators…`, `/v1/admin/sessions…` and `/v1/admin/audit`: the first owner,
/// the operators an owner adds, their sign-ins, and the audit log (``Operators``).
struct OperatorController: Sendable {
    let admin: AdminGate
    let operators: Operators

    /// The most bytes of a request body these routes read.
    static let bodyLimit = 16_384

    func addRoutes(to router: Router<MomentumContext>) {
        router.post("v1/admin/operators", use: create)
        router.get("v1/admin/operators", use: list)
        router.patch("v1/admin/operators/:operator", use: update)
        router.post("v1/admin/sessions", use: signIn)
        router.delete("v1/admin/sessions/current", use: signOut)
        router.get("v1/admin/audit", use: audit)
    }

    /// `POST /v1/admin/operators`: with the admin token, the first owner (409 `owner_exists`
    /// once there is one); from an operator who may manage operators, a new operator; 201.
    @Sendable func create(_ request: Request, context: MomentumContext) async throws -> Response {
        let bootstrap = admin.showsAdminToken(request)
        let actor = try await admin.authorize(request, bootstrap ? .bootstrapOwner : .manageOperators, action: nil)
        let body = try await JSONIO.decode(
            Components.Schemas.OperatorCreateRequest.self, from: request, limit: Self.bodyLimit)
        let created: OperatorView
        if bootstrap {
            guard body.role == nil || body.role == .owner else {
                throw ServiceError.invalid(
                    "the first operator is an owner: leave role out or send owner", field: "role")
            }
            created = try await operators.bootstrapOwner(email: body.email, name: body.name, password: body.password)
        } else {
            let role = body.role.flatMap { OperatorRole(rawValue: $0.rawValue) } ?? .viewer
            created = try await operators.add(
                email: body.email, name: body.name, role: role, password: body.password, by: actor)
        }
        try await operators.record(
            actor, action: bootstrap ? "operator.bootstrapped" : "operator.added", user: nil,
            detail: "\(created.email) as \(created.role.rawValue)", outcome: .done)
        return try JSONIO.response(created, status: .created)
    }

    /// `GET /v1/admin/operators`: every operator, disabled ones too.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewOperators, action: nil)
        return try JSONIO.response(OperatorList(operators: try await operators.list()))
    }

    /// `PATCH /v1/admin/operators/{operator}`: a new role, or disabled or enabled.
    @Sendable func update(_ request: Request, context: MomentumContext) async throws -> Response {
        let actor = try await admin.authorize(request, .manageOperators, action: nil)
        let id = try context.parameters.require("operator")
        let body = try await JSONIO.decode(
            Components.Schemas.OperatorUpdateRequest.self, from: request, limit: Self.bodyLimit)
        let role = body.role.flatMap { OperatorRole(rawValue: $0.rawValue) }
        let updated = try await operators.update(id: id, role: role, disabled: body.disabled, by: actor)
        let changes = [role.map { "role \($0.rawValue)" }, body.disabled.map { $0 ? "disabled" : "enabled" }]
        try await operators.record(
            actor, action: "operator.updated", user: nil,
            detail: "\(updated.email): " + changes.compactMap { $0 }.joined(separator: ", "), outcome: .done)
        return try JSONIO.response(updated)
    }

    /// `POST /v1/admin/sessions`: an email and password → an API session's token; 201.
    @Sendable func signIn(_ request: Request, context: MomentumContext) async throws -> Response {
        let body = try await JSONIO.decode(
            Components.Schemas.OperatorSessionRequest.self, from: request, limit: Self.bodyLimit)
        let session = try await operators.signIn(
            email: body.email, password: body.password, address: context.addressKey, kind: .api)
        var response = try JSONIO.response(
            SessionCreated(token: session.token, expiresAt: session.expiresAt, operator: session.operator),
            status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `DELETE /v1/admin/sessions/current`: ends the session whose token the request shows; 204.
    @Sendable func signOut(_ request: Request, context: MomentumContext) async throws -> Response {
        let token = AdminGate.bearer(request)
        guard token.hasPrefix(Operators.tokenPrefix), try await operators.session(token: token) != nil else {
            guard try await admin.routesExist() else { throw APIError.notFound("endpoint") }
            throw APIError(
                .unauthorized, "unauthorized", "send the operator's session as 'Authorization: Bearer mop_…'")
        }
        try await operators.signOut(token: token)
        return Response(status: .noContent)
    }

    /// `GET /v1/admin/audit`: the audit log, newest first, filtered, a page at a time.
    @Sendable func audit(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewAudit, action: nil)
        let query = request.uri.queryParameters
        func text(_ name: String) -> String? { query[name[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 } }
        let page = try await operators.auditLog(
            AuditQuery(
                operatorID: text("operator"), user: text("user"), actionPrefix: text("action"), before: text("before"),
                limit: try request.integer("limit", default: 100, in: 1...500)))
        return try JSONIO.response(AuditPageBody(entries: page.entries, nextCursor: page.nextCursor))
    }
}

/// `GET /v1/admin/operators`'s answer.
private struct OperatorList: Encodable {
    var operators: [OperatorView]
}

/// `POST /v1/admin/sessions`'s answer.
private struct SessionCreated: Encodable {
    var token: String
    var expiresAt: Date
    var `operator`: OperatorView
}

/// `GET /v1/admin/audit`'s answer.
private struct AuditPageBody: Encodable {
    var entries: [AuditEntry]
    var nextCursor: String?
}
