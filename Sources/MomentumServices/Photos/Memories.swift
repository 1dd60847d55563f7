import Foundation
import MomentumCore
import MomentumStore

/// A user's memories: listing them, their notes and photos, and their share cards.
///
/// The JSON routes and the web app's memories and share pages both read and write here.
public struct Memories: Sendable {
    let store: any EventStore & AccountStore & PhotoStore
    /// The now.
    public let now: @Sendable () -> Date
    /// Draws PNG share cards and decodes photos, on threads of its own.
    public let rasterizer: Rasterizer
    let photoDecoder: PhotoDecoder
    /// Checks and stores uploaded photos.
    public let uploads: PhotoUploads
    let changes: ChangePublisher

    /// The longest note a memory may have, in characters.
    public static let maximumNote = 2_000

    /// The user's memories, newest first; those of one category when it is given.
    public func list(of user: String, category: String? = nil) async throws -> [Memory] {
        var memories = try await store.projection(of: user).memories
        if let category { memories = memories.filter { $0.category == category } }
        return try await inLanguage(memories, of: user).sorted { ($0.time, $0.id) > ($1.time, $1.id) }
    }

    /// Memories with their title and caption in the user's language now: a stored memory
    /// keeps the words of the day it was made, so each is written again from its unlock
    /// (which the engine holds in the profile's language). Notes and photos are the user's
    /// and stay as they are.
    private func inLanguage(_ memories: [Memory], of user: String) async throws -> [Memory] {
        guard !memories.isEmpty else { return memories }
        let wanted = Set(memories.map(\.unlockID))
        let words = try await store.evaluate(user) { engine, profile -> [String: [String]] in
            let subjects = engine.achievements.subjects
            var words: [String: [String]] = [:]
            for unlock in engine.unlocks where wanted.contains(unlock.id) {
                guard
                    let memory = Memory(
                        unlock: unlock, subject: unlock.subject.flatMap { subjects[$0] }, offsetSeconds: 0,
                        translation: profile.translation)
                else { continue }
                words[unlock.id] = [memory.title, memory.caption]
            }
            return words
        }
        return memories.map { memory in
            guard let fresh = words[memory.unlockID], fresh.count == 2 else { return memory }
            var memory = memory
            (memory.title, memory.caption) = (fresh[0], fresh[1])
            return memory
        }
    }

    /// The memories of the user's today in earlier years (`MemoryBook/onThisDay(_:subjects:)`),
    /// newest first; those of one category when it is given.
    public func onThisDay(of user: String, category: String? = nil) async throws -> [Memory] {
        let memories = try await list(of: user, category: category)
        let now = now()
        let (today, subjects) = try await store.evaluate(user) { engine, profile in
            (engine.state(now: now, profile: profile, days: 1).today, Array(engine.achievements.subjects.values))
        }
        return MemoryBook(memories).onThisDay(today, subjects: subjects).sorted { ($0.time, $0.id) > ($1.time, $1.id) }
    }

    /// One memory.
    ///
    /// - Throws: `.notFound` when the user has no memory of that id.
    public func memory(_ id: String, of user: String) async throws -> Memory {
        guard let memory = try await store.projection(of: user).memories.first(where: { $0.id == id }) else {
            throw ServiceError.notFound("memory '\(id)'")
        }
        return try await inLanguage([memory], of: user).first ?? memory
    }

    /// Sets a memory's note (`nil`, or only spaces, removes it).
    public func setNote(_ note: String?, of id: String, caller: Caller) async throws -> Memory {
        let memory = try await memory(id, of: caller.user)
        if let note, note.count > Self.maximumNote {
            throw ServiceError.invalid("must have at most 2,000 characters", field: "note")
        }
        let kept = note.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        return try await save(memory, note: kept, photo: memory.photo, caller: caller)
    }

    /// Attaches a photo to a memory (replacing any it had): the photo is decoded to prove
    /// it is one, stored without its metadata, with a size-limited copy for share cards.
    ///
    /// - Throws: `.unsupported` for a file that is not a JPEG or PNG, `.invalid` for one that does not decode
    ///   or is too large.
    /// - Parameters:
    ///   - bytes: The photo's bytes, as uploaded.
    ///   - current: The memory, as ``memory(_:of:)`` gave it (the route looks it up
    ///     before it reads the upload, so that a photo for no memory is a `.notFound` at once).
    ///   - caller: The signed-in device asking.
    public func attachPhoto(_ bytes: [UInt8], to current: Memory, caller: Caller) async throws -> Memory {
        // The original (without metadata) and its size-limited copy for share cards,
        // stored side by side; replacing or removing the photo deletes both.
        let stored = try await uploads.store(bytes, under: MemoryPhoto.directory, shareCopy: true, for: caller.user)
        return try await save(
            current, note: current.note,
            photo: try MemoryPhoto(original: stored.original, shareCopy: stored.shareCopy), caller: caller)
    }

    /// Removes a memory's photo, and its files.
    public func removePhoto(of id: String, caller: Caller) async throws -> Memory {
        let current = try await memory(id, of: caller.user)
        return try await save(current, note: current.note, photo: nil, caller: caller)
    }

    /// A stored photo of the user's.
    ///
    /// - Throws: `.notFound` when the user has no photo at that path.
    public func photo(at path: String, of user: String) async throws -> StoredPhoto {
        guard let photo = try await store.photo(of: user, path: path) else {
            throw ServiceError.notFound("photo '\(path)'")
        }
        return photo
    }

    /// The illustration of one of the user's memories (`Illustration/init(memory:packs:)`),
    /// which pages show where it has no photo.
    ///
    /// - Throws: `.notFound` when the user has no memory of that id.
    public func illustration(of id: String, user: String) async throws -> Illustration {
        guard let memory = try await store.projection(of: user).memories.first(where: { $0.id == id }) else {
            throw ServiceError.notFound("memory '\(id)'")
        }
        return Illustration(memory: memory, packs: try await store.profile(of: user)?.packs ?? [])
    }

    /// A memory's share card, as SVG: its title, caption, badge, date, subject and photo,
    /// or its illustration when it has no photo, in its category's colour.
    public func shareCardSVG(of id: String, format: ShareCardFormat, user: String) async throws -> (Memory, String) {
        let memory = try await memory(id, of: user)
        let (badge, subject, translation, packs) = try await store.evaluate(user) { engine, profile in
            (
                engine.unlocks.first { $0.id == memory.unlockID }?.badge,
                memory.subjectID.flatMap { engine.achievements.subjects[$0] }, profile.translation, profile.packs
            )
        }
        let photo = try await shareCardPhoto(memory.photo, user: user)
        let illustration = Illustration(memory: memory, packs: packs)
        let content = ShareCardContent(
            title: memory.title, achievementText: memory.caption, badge: badge ?? "🏆", date: memory.day,
            subjectName: subject?.name, categoryColor: illustration.color, photo: photo, illustration: illustration)
        return (
            memory, ShareCardRenderer.svg(ShareCardLayout(content: content, format: format, translation: translation))
        )
    }

    /// A memory's share card drawn as PNG (on the rasterizer's threads, bounded in time and
    /// number, with a cache).
    public func shareCardPNG(of id: String, format: ShareCardFormat, user: String) async throws -> (Memory, [UInt8]) {
        let (memory, svg) = try await shareCardSVG(of: id, format: format, user: user)
        return (memory, try await rasterizer.png(fromSVG: svg, width: format.width, height: format.height))
    }

    /// Stores a memory's note and photo, deletes the files of a photo it no longer shows
    /// (a removed or replaced photo is gone from the server, not just unlinked), and tells
    /// the user's other devices.
    private func save(_ memory: Memory, note: String?, photo: MemoryPhoto?, caller: Caller) async throws -> Memory {
        let updated = try await store.updateMemory(of: caller.user, id: memory.id, note: note, photo: photo)
        if let old = memory.photo, old != photo {
            try await uploads.delete([old.original, old.shareCopy].compactMap(\.self), of: caller.user)
        }
        changes.publish(Change(kind: "memories", device: Tokens.deviceID(caller.tokenHash), at: now()), to: caller.user)
        return updated
    }

    /// The photo a share card shows, as a `data:` URI: the size-limited copy made at upload.
    /// A photo stored before copies were made gets one made now (not stored); one that is
    /// over the limits or does not decode is left off the card rather than handed to the
    /// rasterizer.
    private func shareCardPhoto(_ photo: MemoryPhoto?, user: String) async throws -> String? {
        guard let photo else { return nil }
        if let path = photo.shareCopy {
            guard let stored = try await store.photo(of: user, path: path) else { return nil }
            return "data:\(stored.contentType);base64,\(Data(stored.bytes).base64EncodedString())"
        }
        guard let stored = try await store.photo(of: user, path: photo.original) else { return nil }
        let decoder = photoDecoder
        let original = stored.bytes
        let copy = try await rasterizer.decodePhoto { try? decoder.decode(original).copy }
        return copy.map { "data:\($0.contentType);base64,\(Data($0.bytes).base64EncodedString())" }
    }
}
