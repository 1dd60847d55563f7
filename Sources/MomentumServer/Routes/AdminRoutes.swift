import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

extension Routes {
    /// The operator's routes, behind the admin token: the review flags and history imports.
    ///
    /// An import is how history from before an account existed, or older than the pack's
    /// offline window, reaches Momentum (moving from another app, a support case): the
    /// events are checked by every rule of the engine, as a push is, but not by the arrival
    /// window, which is the boundary for what devices send.
    func addAdminRoutes(_ router: Router<MomentumContext>) {
        router.get("v1/admin/review-flags") { request, _ in
            try server.requireAdmin(request)
            let limit = try request.integer("limit", default: 100, in: 1...1_000)
            return try JSONIO.response(["flags": try await server.services.operations.reviewFlags(limit: limit)])
        }
        router.post("v1/admin/review-flags/:user/:flag/clear") { request, context in
            try server.requireAdmin(request)
            return try JSONIO.response(
                try await server.services.social.clearFlag(
                    try context.parameters.require("flag"), of: try context.parameters.require("user")))
        }
        router.post("v1/admin/archives") { request, _ in
            try server.requireAdmin(request)
            if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/x-tar") {
                throw APIError(
                    .unsupportedMediaType, "unsupported_media_type",
                    "send the archive's tar file with 'Content-Type: application/x-tar'")
            }
            let limit = server.configuration.maxArchiveBytes
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw APIError(.contentTooLarge, "body_too_large", "an archive may be at most \(limit >> 20) MB")
            }
            let archive = try await server.services.accounts.importArchive(Data(buffer: body))
            return try JSONIO.response(
                ArchiveImported(
                    userID: archive.account.id, email: archive.account.email, events: archive.events.count,
                    memories: archive.memories.count, photos: archive.photos.count),
                status: .created)
        }
        router.post("v1/admin/imports") { request, _ in
            try server.requireAdmin(request)
            let body = try await JSONIO.decode(
                ImportRequest.self, from: request, limit: server.configuration.maxBodyBytes)
            return try JSONIO.response(try await server.services.ingest.importHistory(body.events, email: body.email))
        }
    }
}

extension ServerState {
    /// Checks the admin token (`Authorization: Bearer <token>`, the scheme in any case).
    ///
    /// - Throws: 404 when no admin token is configured (the endpoints do not exist then),
    ///   401 for a missing or wrong token.
    func requireAdmin(_ request: Request) throws {
        guard let expected = configuration.adminToken, !expected.isEmpty else {
            throw APIError.notFound("endpoint")
        }
        let token = request.headers[.authorization].flatMap(AuthMiddleware.bearerToken) ?? ""
        let x = Array(token.utf8)
        let y = Array(expected.utf8)
        // Constant time in the token's bytes, so that timing tells nothing of the token.
        guard x.count == y.count, zip(x, y).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else {
            throw APIError(.unauthorized, "unauthorized", "send the admin token as 'Authorization: Bearer <token>'")
        }
    }
}

/// What an archive import created.
struct ArchiveImported: Codable {
    var userID: String
    var email: String
    var events: Int
    var memories: Int
    var photos: Int
}
