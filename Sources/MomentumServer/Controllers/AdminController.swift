import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// `/v1/admin/review-flags…`, `/v1/admin/archives` and `/v1/admin/imports`: the
/// operator's routes, behind the admin token (``AdminGate``): the review flags and
/// history imports.
///
/// An import is how history from before an account existed, or older than the pack's
/// offline window, reaches Momentum (moving from another app, a support case): the
/// events are checked by every rule of the engine, as a push is, but not by the arrival
/// window, which is the boundary for what devices send.
struct AdminController: Sendable {
    let admin: AdminGate
    let operations: MomentumServices.Operations
    let social: Social
    let accounts: Accounts
    let ingest: EventIngest
    /// The most bytes an archive may hold (``ServerConfiguration/maxArchiveBytes``).
    let maxArchiveBytes: Int
    /// The most bytes an import's body may hold (``ServerConfiguration/maxBodyBytes``).
    let maxBodyBytes: Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("v1/admin/review-flags", use: reviewFlags)
        router.post("v1/admin/review-flags/:user/:flag/clear", use: clearFlag)
        router.post("v1/admin/archives", use: importArchive)
        router.post("v1/admin/imports", use: importHistory)
    }

    /// `GET /v1/admin/review-flags`: the latest suspicious activity, newest first.
    @Sendable func reviewFlags(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewReviewFlags, action: "review_flag.listed")
        let limit = try request.integer("limit", default: 100, in: 1...1_000)
        return try JSONIO.response(["flags": try await operations.reviewFlags(limit: limit)])
    }

    /// `POST /v1/admin/review-flags/{user}/{flag}/clear`: clears a review flag.
    @Sendable func clearFlag(_ request: Request, context: MomentumContext) async throws -> Response {
        let user = try context.parameters.require("user")
        _ = try await admin.authorize(request, .resolveReviewFlags, action: "review_flag.cleared", user: user)
        return try JSONIO.response(try await social.clearFlag(try context.parameters.require("flag"), of: user))
    }

    /// `POST /v1/admin/archives`: restores an account from its archive (a tar file); 201.
    @Sendable func importArchive(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .importData, action: "archive.imported")
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/x-tar") {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "send the archive's tar file with 'Content-Type: application/x-tar'")
        }
        let limit = maxArchiveBytes
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "body_too_large", "an archive may be at most \(limit >> 20) MB")
        }
        let archive = try await accounts.importArchive(Data(buffer: body))
        return try JSONIO.response(
            ArchiveImported(
                userID: archive.account.id, email: archive.account.email, events: archive.events.count,
                memories: archive.memories.count, photos: archive.photos.count),
            status: .created)
    }

    /// `POST /v1/admin/imports`: history for an account, checked by the engine's rules.
    @Sendable func importHistory(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .importData, action: "history.imported")
        let body = try await JSONIO.decode(ImportRequest.self, from: request, limit: maxBodyBytes)
        return try JSONIO.response(try await ingest.importHistory(body.events, email: body.email))
    }
}

/// What an archive import created.
struct ArchiveImported: Codable {
    var userID: String
    /// Absent for an account without an email.
    var email: String?
    var events: Int
    var memories: Int
    var photos: Int
}
