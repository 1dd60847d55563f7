import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

extension Routes {
    /// The memory and photo routes: each maps HTTP to a ``Memories`` or ``SubjectPhotos`` use case.
    func addMemoryRoutes(_ group: RouterGroup<MomentumContext>) {
        let memories = server.services.memories
        group.get("memories") { request, context in
            let caller = try context.requireCaller()
            let category = request.uri.queryParameters["category"].map(String.init)
            let list =
                try request.boolean("onThisDay", default: false)
                ? try await memories.onThisDay(of: caller.user, category: category)
                : try await memories.list(of: caller.user, category: category)
            return try JSONIO.response(["memories": list])
        }
        group.patch("memories/:memory") { request, context in
            let caller = try context.requireCaller()
            let patch = try await JSONIO.decode(MemoryPatch.self, from: request, limit: 16_384)
            let memory = try await memories.setNote(patch.note, of: try context.parameter("memory"), caller: caller)
            return try JSONIO.response(memory)
        }
        group.put("memories/:memory/photo") { request, context in
            let caller = try context.requireCaller()
            let id = try context.parameter("memory")
            // The memory is looked up before the body is read: a photo for no memory is a
            // 404 whatever it holds.
            let current = try await memories.memory(id, of: caller.user)
            let memory = try await memories.attachPhoto(try await photoUpload(request), to: current, caller: caller)
            return try JSONIO.response(memory)
        }
        group.delete("memories/:memory/photo") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                try await memories.removePhoto(of: try context.parameter("memory"), caller: caller))
        }
        group.put("subjects/:subject/photo") { request, context in
            let caller = try context.requireCaller()
            // A photo for no subject is a 404 whatever it holds.
            let current = try await server.services.subjectPhotos.subject(
                try context.parameter("subject"), of: caller.user)
            return try JSONIO.response(
                try await server.services.subjectPhotos.attach(
                    try await photoUpload(request), to: current, caller: caller))
        }
        group.delete("subjects/:subject/photo") { _, context in
            let caller = try context.requireCaller()
            return try JSONIO.response(
                try await server.services.subjectPhotos.remove(from: try context.parameter("subject"), caller: caller))
        }
        group.get("photos/**") { _, context in
            let caller = try context.requireCaller()
            let path = context.parameters.getCatchAll().joined(separator: "/")
            let photo = try await memories.photo(at: path, of: caller.user)
            return Response(
                status: .ok,
                headers: [.contentType: photo.contentType, .cacheControl: "private, max-age=31536000, immutable"],
                body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
        }
        group.get("memories/:memory/share-card") { request, context in
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
    }

    /// An uploaded photo's bytes, up to the configured limit.
    ///
    /// - Throws: 413 for a larger body, naming the limit.
    private func photoUpload(_ request: Request) async throws -> [UInt8] {
        let limit = server.configuration.maxPhotoBytes
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
