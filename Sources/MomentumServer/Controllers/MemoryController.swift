import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import NIOCore

/// `/v1/memories…`, `/v1/subjects/:subject/photo` and `/v1/photos/…`: memories, their notes,
/// photos and share cards (``Memories``), and subjects' photos (``SubjectPhotos``).
struct MemoryController: Sendable {
    let memories: Memories
    let subjectPhotos: SubjectPhotos
    /// The largest photo an upload may carry, in bytes.
    let maxPhotoBytes: Int

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("memories", use: list)
        group.patch("memories/:memory", use: setNote)
        group.put("memories/:memory/photo", use: attachPhoto)
        group.delete("memories/:memory/photo", use: removePhoto)
        group.put("subjects/:subject/photo", use: attachSubjectPhoto)
        group.delete("subjects/:subject/photo", use: removeSubjectPhoto)
        group.get("photos/**", use: photo)
        group.get("memories/:memory/share-card", use: shareCard)
    }

    /// `GET /v1/memories`: the caller's memories, of one `category` or all, or (with
    /// `onThisDay=true`) those of this day in earlier years.
    @Sendable func list(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let category = request.uri.queryParameters["category"].map(String.init)
        let list =
            try request.boolean("onThisDay", default: false)
            ? try await memories.onThisDay(of: caller.user, category: category)
            : try await memories.list(of: caller.user, category: category)
        return try JSONIO.response(["memories": list])
    }

    /// `PATCH /v1/memories/:memory`: sets or clears a memory's note.
    @Sendable func setNote(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let patch = try await JSONIO.decode(MemoryPatch.self, from: request, limit: 16_384)
        let memory = try await memories.setNote(patch.note, of: try context.parameter("memory"), caller: caller)
        return try JSONIO.response(memory)
    }

    /// `PUT /v1/memories/:memory/photo`: attaches the body's photo to a memory.
    @Sendable func attachPhoto(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try context.parameter("memory")
        // The memory is looked up before the body is read: a photo for no memory is a
        // 404 whatever it holds.
        let current = try await memories.memory(id, of: caller.user)
        let memory = try await memories.attachPhoto(try await photoUpload(request), to: current, caller: caller)
        return try JSONIO.response(memory)
    }

    /// `DELETE /v1/memories/:memory/photo`: removes a memory's photo.
    @Sendable func removePhoto(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            try await memories.removePhoto(of: try context.parameter("memory"), caller: caller))
    }

    /// `PUT /v1/subjects/:subject/photo`: sets the body's photo as a subject's.
    @Sendable func attachSubjectPhoto(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        // A photo for no subject is a 404 whatever it holds.
        let current = try await subjectPhotos.subject(try context.parameter("subject"), of: caller.user)
        return try JSONIO.response(
            try await subjectPhotos.attach(try await photoUpload(request), to: current, caller: caller))
    }

    /// `DELETE /v1/subjects/:subject/photo`: removes a subject's photo.
    @Sendable func removeSubjectPhoto(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONIO.response(
            try await subjectPhotos.remove(from: try context.parameter("subject"), caller: caller))
    }

    /// `GET /v1/photos/…`: one of the caller's stored photos, cached for a year (its path
    /// changes with its content).
    @Sendable func photo(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let path = context.parameters.getCatchAll().joined(separator: "/")
        let photo = try await memories.photo(at: path, of: caller.user)
        return Response(
            status: .ok,
            headers: [.contentType: photo.contentType, .cacheControl: "private, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
    }

    /// `GET /v1/memories/:memory/share-card`: a memory's share card, in a `format` (square,
    /// story or landscape) and a `type` (svg or png).
    @Sendable func shareCard(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try context.parameter("memory")
        let formatName = request.uri.queryParameters["format"].map(String.init) ?? "square"
        guard let format = ShareCardFormat(rawValue: formatName) else {
            throw APIError.invalid("must be square, story or landscape", field: "format")
        }
        let type = request.uri.queryParameters["type"].map(String.init) ?? "svg"
        guard type == "svg" || type == "png" else { throw APIError.invalid("must be svg or png", field: "type") }
        func disposition(_ memory: Memory) -> String {
            "inline; filename=\"momentum-\(memory.day)-\(format.rawValue).\(type)\""
        }
        if type == "svg" {
            let (memory, svg) = try await memories.shareCardSVG(of: id, format: format, user: caller.user)
            return Response(
                status: .ok,
                headers: [.contentType: "image/svg+xml; charset=utf-8", .contentDisposition: disposition(memory)],
                body: .init(byteBuffer: ByteBuffer(string: svg)))
        }
        let (memory, png) = try await memories.shareCardPNG(of: id, format: format, user: caller.user)
        return Response(
            status: .ok, headers: [.contentType: "image/png", .contentDisposition: disposition(memory)],
            body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }

    /// An uploaded photo's bytes, up to the configured limit.
    ///
    /// - Throws: 413 for a larger body, naming the limit.
    private func photoUpload(_ request: Request) async throws -> [UInt8] {
        let limit = maxPhotoBytes
        do {
            return Array(try await request.body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            let size =
                limit % (1 << 20) == 0
                ? "\(limit >> 20) MB" : limit % 1024 == 0 ? "\(limit >> 10) KB" : "\(limit) bytes"
            throw APIError(.contentTooLarge, "body_too_large", "a photo may be at most \(size)")
        }
    }
}
