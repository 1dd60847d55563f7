import Foundation
import Hummingbird
import MomentumAPI
import MomentumServices

/// `/v1/admin/users…` and `/v1/admin/review-flags/{user}/{flag}/confirm`: an operator
/// looks one user up, reads them, grants them rewards, and confirms a review flag, each
/// checked and audited by the operator's gate (``AdminGate``).
///
/// A look-up is audited twice over: the request as `user.lookup` before anything is read
/// (a miss stays on record, without a user), then, when it finds someone, `user.viewed`
/// with their id.
struct ConsoleUsersController: Sendable {
    let admin: AdminGate
    let lookup: UserLookup
    let grants: Grants
    let reviews: FlagReviews
    /// The most bytes a grant's body may hold (``ServerConfiguration/maxBodyBytes``).
    let maxBodyBytes: Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("v1/admin/users", use: find)
        router.get("v1/admin/users/:user", use: read)
        router.post("v1/admin/users/:user/grants", use: grant)
        router.post("v1/admin/review-flags/:user/:flag/confirm", use: confirm)
    }

    /// `GET /v1/admin/users?id=…|email=…|appUser=…[&app=…]`: one user's summary, or 404.
    @Sendable func find(_ request: Request, context: MomentumContext) async throws -> Response {
        let query = request.uri.queryParameters
        var keys: [UserLookup.Key] = []
        if let id = query["id"] { keys.append(.id(String(id))) }
        if let email = query["email"] { keys.append(.email(String(email))) }
        if let appUser = query["appUser"] {
            keys.append(.appUser(app: query["app"].map(String.init) ?? "default", id: String(appUser)))
        }
        _ = try await admin.authorize(request, .viewUsers, action: "user.lookup", user: nil)
        guard keys.count == 1, let key = keys.first else {
            throw APIError.invalid("give one of id, email or appUser", field: "id")
        }
        let summary = try await lookup.find(key)
        _ = try await admin.authorize(request, .viewUsers, action: "user.viewed", user: summary.id)
        return try JSONIO.response(summary)
    }

    /// `GET /v1/admin/users/{user}`: everything of one user, read-only.
    @Sendable func read(_ request: Request, context: MomentumContext) async throws -> Response {
        let user = try context.parameter("user")
        _ = try await admin.authorize(request, .viewUsers, action: "user.viewed", user: user)
        return try JSONIO.response(try await lookup.read(user))
    }

    /// `POST /v1/admin/users/{user}/grants`: diamonds and freezes with a reason; the new
    /// wallet. An `Idempotency-Key` gives once however often it is sent.
    @Sendable func grant(_ request: Request, context: MomentumContext) async throws -> Response {
        let user = try context.parameter("user")
        // Who asks is known before the body is read; the audit entry (done or denied) then
        // names the amounts and the reason.
        _ = try await admin.actor(request)
        let body = try await JSONIO.decode(GrantRequest.self, from: request, limit: maxBodyBytes)
        let diamonds = body.diamonds ?? 0
        let freezes = body.freezes ?? 0
        let actor = try await admin.authorize(
            request, .grantRewards, action: "user.granted", user: user,
            detail: "\(diamonds) diamonds, \(freezes) freezes: \(body.reason)")
        return try JSONIO.response(
            try await grants.grant(
                user: user, diamonds: diamonds, freezes: freezes, reason: body.reason, by: actor,
                key: request.headers[.idempotencyKey]))
    }

    /// `POST /v1/admin/review-flags/{user}/{flag}/confirm`: the flag stays on record as
    /// confirmed, the user's posts stay held.
    @Sendable func confirm(_ request: Request, context: MomentumContext) async throws -> Response {
        let user = try context.parameter("user")
        let actor = try await admin.authorize(
            request, .resolveReviewFlags, action: "review_flag.confirmed", user: user)
        return try JSONIO.response(try await reviews.confirm(try context.parameter("flag"), of: user, by: actor))
    }
}

/// A grant's body (`GrantRequest` in the API document).
typealias GrantRequest = Components.Schemas.GrantRequest
