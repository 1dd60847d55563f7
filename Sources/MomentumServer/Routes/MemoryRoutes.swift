import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumStore
import NIOCore

extension Routes {
    func addMemoryRoutes(_ group: RouterGroup<MomentumContext>) {
        group.get("memories") { request, context in
            let caller = try context.requireCaller()
            let category = request.uri.queryParameters["category"].map(String.init)
            let onThisDay = try request.boolean("onThisDay", default: false)
            var memories = try await server.store.projection(of: caller.user).memories
            if let category { memories = memories.filter { $0.category == category } }
            if onThisDay {
                let now = server.now()
                let (today, subjects) = try await server.store.evaluate(caller.user) { engine, profile in
                    let state = engine.state(now: now, profile: profile, days: 1)
                    return (state.today, Array(engine.achievements.subjects.values))
                }
                memories = MemoryBook(memories).onThisDay(today, subjects: subjects)
            }
            memories.sort { ($0.time, $0.id) > ($1.time, $1.id) }
            return try JSONIO.response(["memories": memories])
        }
        group.patch("memories/:memory") { request, context in
            let caller = try context.requireCaller()
            let id = try context.parameter("memory")
            let patch = try await JSONIO.decode(MemoryPatch.self, from: request, limit: 16_384)
            let memory = try await memory(id, caller: caller)
            if let note = patch.note, note.count > 2_000 {
                throw APIError.invalid("must have at most 2,000 characters", field: "note")
            }
            let note = patch.note.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            return try await save(memory, note: note, photo: memory.photo, caller: caller)
        }
        group.put("memories/:memory/photo") { request, context in
            let caller = try context.requireCaller()
            let id = try context.parameter("memory")
            let current = try await memory(id, caller: caller)
            let limit = server.configuration.maxPhotoBytes
            let buffer: ByteBuffer
            do {
                buffer = try await request.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                let size =
                    limit % (1 << 20) == 0
                    ? "\(limit >> 20) MB" : limit % 1024 == 0 ? "\(limit >> 10) KB" : "\(limit) bytes"
                throw APIError(.contentTooLarge, "body_too_large", "a photo may be at most \(size)")
            }
            let bytes = Array(buffer.readableBytesView)
            let decoder = server.photoDecoder
            // Decoding a photo of up to 40 megapixels takes a core for a while: on the image
            // threads, not an event loop (nor bcrypt's pool).
            let outcome = try await server.rasterizer.decodePhoto {
                Result { () throws(PhotoSanitizer.Failure) in try PhotoSanitizer.sanitize(bytes, decoder: decoder) }
            }
            let sanitized: PhotoSanitizer.Sanitized
            switch outcome {
            case .success(let value):
                sanitized = value
            case .failure(.unsupportedType):
                throw APIError(.unsupportedMediaType, "unsupported_photo_type", "upload a JPEG or PNG photo")
            case .failure(.malformed(let reason)):
                throw APIError(.unprocessableContent, "invalid_photo", "the photo could not be read: \(reason)")
            case .failure(.tooLarge(let reason)):
                throw APIError(.unprocessableContent, "photo_too_large", reason)
            }
            // The original (without metadata) and its size-limited copy for share cards,
            // stored side by side; replacing or removing the photo deletes both.
            let name = "memories/\(Tokens.id("p_"))"
            let path = "\(name).\(sanitized.ext)"
            let copyPath = "\(name)-share.\(sanitized.shareCopy.ext)"
            try await server.store.savePhoto(
                StoredPhoto(
                    path: copyPath, contentType: sanitized.shareCopy.contentType, bytes: sanitized.shareCopy.bytes,
                    createdAt: server.now()),
                for: caller.user)
            try await server.store.savePhoto(
                StoredPhoto(
                    path: path, contentType: sanitized.contentType, bytes: sanitized.bytes, createdAt: server.now()),
                for: caller.user)
            return try await save(
                current, note: current.note, photo: try MemoryPhoto(original: path, shareCopy: copyPath),
                caller: caller)
        }
        group.delete("memories/:memory/photo") { _, context in
            let caller = try context.requireCaller()
            let id = try context.parameter("memory")
            let current = try await memory(id, caller: caller)
            return try await save(current, note: current.note, photo: nil, caller: caller)
        }
        group.get("photos/**") { _, context in
            let caller = try context.requireCaller()
            let path = context.parameters.getCatchAll().joined(separator: "/")
            guard let photo = try await server.store.photo(of: caller.user, path: path) else {
                throw APIError.notFound("photo '\(path)'")
            }
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
            let memory = try await memory(id, caller: caller)
            let svg = try await shareCardSVG(memory, format: format, caller: caller)
            let filename = "momentum-\(memory.day)-\(format.rawValue).\(type)"
            let disposition = "inline; filename=\"\(filename)\""
            if type == "svg" {
                return Response(
                    status: .ok,
                    headers: [.contentType: "image/svg+xml; charset=utf-8", .contentDisposition: disposition],
                    body: .init(byteBuffer: ByteBuffer(string: svg)))
            }
            let png = try await server.rasterizer.png(fromSVG: svg, width: format.width, height: format.height)
            return Response(
                status: .ok, headers: [.contentType: "image/png", .contentDisposition: disposition],
                body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
    }

    /// Stores a memory's note and photo, deletes the files of a photo it no longer shows
    /// (a removed or replaced photo is gone from the server, not just unlinked), tells the
    /// user's other devices, and answers with the memory.
    func save(_ memory: Memory, note: String?, photo: MemoryPhoto?, caller: Caller) async throws -> Response {
        let updated = try await server.store.updateMemory(of: caller.user, id: memory.id, note: note, photo: photo)
        if let old = memory.photo, old != photo {
            for path in [old.original, old.shareCopy].compactMap(\.self) {
                try await server.store.deletePhoto(of: caller.user, path: path)
            }
        }
        server.publish(
            Change(kind: "memories", device: Tokens.deviceID(caller.tokenHash), at: server.now()), to: caller.user)
        return try JSONIO.response(updated)
    }

    func memory(_ id: String, caller: Caller) async throws -> Memory {
        guard let memory = try await server.store.projection(of: caller.user).memories.first(where: { $0.id == id })
        else { throw APIError.notFound("memory '\(id)'") }
        return memory
    }

    /// The share card of a memory: its title, caption, badge, date, subject and photo.
    func shareCardSVG(_ memory: Memory, format: ShareCardFormat, caller: Caller) async throws -> String {
        let (badge, subject) = try await server.store.evaluate(caller.user) { engine, _ in
            (
                engine.unlocks.first { $0.id == memory.unlockID }?.badge,
                memory.subjectID.flatMap { engine.achievements.subjects[$0] }
            )
        }
        let photo = try await shareCardPhoto(memory.photo, caller: caller)
        let accent = CelebrationCatalog.standard.theme(for: CelebrationCategory(memory.category)).accentColor
        let content = ShareCardContent(
            title: memory.title, achievementText: memory.caption, badge: badge ?? "🏆", date: memory.day,
            subjectName: subject?.name,
            categoryColor: ShareCardColor(hex: accent.hex) ?? ShareCardColor(red: 0, green: 122, blue: 255),
            photo: photo)
        return ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
    }

    /// The photo a share card shows, as a `data:` URI: the size-limited copy made at upload.
    /// A photo stored before copies were made gets one made now (not stored); one that is
    /// over the limits or does not decode is left off the card rather than handed to the
    /// rasterizer.
    func shareCardPhoto(_ photo: MemoryPhoto?, caller: Caller) async throws -> String? {
        guard let photo else { return nil }
        if let path = photo.shareCopy {
            guard let stored = try await server.store.photo(of: caller.user, path: path) else { return nil }
            return "data:\(stored.contentType);base64,\(Data(stored.bytes).base64EncodedString())"
        }
        guard let stored = try await server.store.photo(of: caller.user, path: photo.original) else { return nil }
        let decoder = server.photoDecoder
        let original = stored.bytes
        let copy = try await server.rasterizer.decodePhoto { try? decoder.decode(original).copy }
        return copy.map { "data:\($0.contentType);base64,\(Data($0.bytes).base64EncodedString())" }
    }
}
