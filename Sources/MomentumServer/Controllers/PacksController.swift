import Foundation
import Hummingbird
import MomentumServices

/// `/v1/admin/packs…`: operators upload rule packs, list their versions, read one and
/// activate one (or roll back), behind the operator's permissions (``AdminGate``).
struct PacksController: Sendable {
    let admin: AdminGate
    let packs: Packs
    /// The largest upload (`packs.max_bytes`); a larger body is refused (413) unread.
    let maxBytes: Int

    func addRoutes(to router: Router<MomentumContext>) {
        router.get("v1/admin/packs", use: list)
        router.post("v1/admin/packs", use: upload)
        router.get("v1/admin/packs/:name/versions/:version", use: document)
        router.post("v1/admin/packs/:name/versions/:version/activate", use: activate)
    }

    /// `GET /v1/admin/packs`: every pack with its versions and the one in force.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewPacks, action: nil)
        return try JSONIO.response(try await packs.list())
    }

    /// `POST /v1/admin/packs`: an upload, checked and stored inactive; 201 for a new
    /// version, 200 for the same document again, 422 listing every problem, 413 beyond
    /// the limit (unread), 409 for a version stored with another document.
    @Sendable func upload(_ request: Request, context: MomentumContext) async throws -> Response {
        let actor = try await admin.authorize(request, .managePacks, action: "pack.uploaded")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBytes {
            throw APIError.from(
                ServiceError(
                    .tooLarge, "pack_too_large", "the pack has \(length) bytes; at most \(maxBytes) are accepted"))
        }
        let body = try await JSONIO.collect(request, limit: maxBytes + 1)
        let result = try await packs.upload(Data(buffer: body), by: actor)
        return try JSONIO.response(result, status: result.created ? .created : .ok)
    }

    /// `GET /v1/admin/packs/{name}/versions/{version}`: the upload as stored (`bundled`:
    /// the compiled-in pack's document).
    @Sendable func document(_ request: Request, context: MomentumContext) async throws -> Response {
        _ = try await admin.authorize(request, .viewPacks, action: nil)
        let found = try await packs.document(try context.parameter("name"), version: try context.parameter("version"))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: found.document)))
    }

    /// `POST /v1/admin/packs/{name}/versions/{version}/activate`: puts a version in force
    /// (`bundled`: the compiled-in pack); earned rewards are kept first.
    @Sendable func activate(_ request: Request, context: MomentumContext) async throws -> Response {
        let actor = try await admin.authorize(request, .managePacks, action: "pack.activated")
        let name = try context.parameter("name")
        let version = try context.parameter("version")
        return try JSONIO.response(try await packs.activate(name, version: version, by: actor))
    }
}
