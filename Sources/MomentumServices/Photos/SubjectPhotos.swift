import Foundation
import MomentumCore
import MomentumStore

/// A subject's photo (the puppy on its profile): uploading, replacing and removing it.
///
/// The photo is stored like a memory's (checked by decoding, without metadata) and named in
/// a `subject` event the server records, so that every device learns of it by syncing and
/// the subject's history says when it changed. A replaced or removed photo's file is
/// deleted from the server.
public struct SubjectPhotos: Sendable {
    let store: any EventStore
    let uploads: PhotoUploads
    let ingest: EventIngest
    /// The now.
    public let now: @Sendable () -> Date

    /// The caller's subject of that id.
    ///
    /// - Throws: `.notFound` when the caller has no such subject.
    public func subject(_ id: String, of user: String, after version: Int64 = -1) async throws -> Subject {
        let subject = try await store.evaluate(user, after: version) { engine, _ in
            engine.achievements.subjects[id]
        }
        guard let subject else { throw ServiceError.notFound("subject '\(id)'") }
        return subject
    }

    /// Gives the subject a photo, replacing any it had.
    ///
    /// - Parameters:
    ///   - bytes: The photo's bytes, as uploaded.
    ///   - current: The subject, as ``subject(_:of:after:)`` gave it (the route looks
    ///     it up before it reads the upload, so that a photo for no subject is a `.notFound` at once).
    ///   - caller: The signed-in device asking.
    public func attach(_ bytes: [UInt8], to current: Subject, caller: Caller) async throws -> Subject {
        let stored = try await uploads.store(bytes, under: Subject.photoDirectory, shareCopy: false, for: caller.user)
        do {
            return try await record(current, photo: stored.original, caller: caller)
        } catch {
            // Not named by any event: the upload would be an orphan.
            try? await uploads.delete([stored.original], of: caller.user)
            throw error
        }
    }

    /// Removes the subject's photo (a subject without one is answered as it is).
    public func remove(from id: String, caller: Caller) async throws -> Subject {
        let current = try await subject(id, of: caller.user)
        guard current.photo != nil else { return current }
        return try await record(current, photo: "", caller: caller)
    }

    /// Records a `subject` event that changes only the photo, then deletes the old photo's
    /// file.
    private func record(_ current: Subject, photo: String, caller: Caller) async throws -> Subject {
        var update = current
        update.photo = photo
        let zone = try await ingest.presumedZone(of: caller)
        let event = Event(id: Tokens.id("e_"), at: now(), timeZone: zone, payload: .subject(update))
        let push = try await ingest.appendOne(event, caller: caller)
        if let old = current.photo, old != photo { try await uploads.delete([old], of: caller.user) }
        return try await subject(current.id, of: caller.user, after: push.version)
    }
}
