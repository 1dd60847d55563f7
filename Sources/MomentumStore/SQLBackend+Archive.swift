import Foundation
import MomentumCore

extension SQLBackend {
    /// Implements ``MomentumStore`` `exportAccount`; see the protocol for its contract.
    public func exportAccount(_ user: String) async throws(StoreError) -> AccountArchive {
        // Every read of an export may be served by a replica.
        try await ReplicaReads.allowing { () throws(StoreError) in try await exporting(user) }
    }

    private func exporting(_ user: String) async throws(StoreError) -> AccountArchive {
        guard let account = try await account(id: user), let profile = try await profile(of: user) else {
            throw StoreError(.notFound, "no account '\(user)'")
        }
        let events = try await events(of: user, after: 0, limit: Int.max)
        let projection = try await projection(of: user)
        let photos = try await photos(of: user)
        return AccountArchive(
            account: account, profile: profile, events: events, memories: projection.memories, photos: photos,
            celebrations: projection.celebrations)
    }

    /// Implements ``MomentumStore`` `importAccount`; see the protocol for its contract.
    public func importAccount(_ archive: AccountArchive, now: Date) async throws(StoreError) {
        try Validate.userID(archive.account.id)
        if let email = archive.account.email { try Validate.email(email) }
        try archive.profile.validate(in: packLibrary)
        try await run(ArchivePrograms.importing(archive, now: now, cache: engines))
    }
}

enum ArchivePrograms {
    static func importing(_ archive: AccountArchive, now: Date, cache: EngineCache) -> StoreProgram<Void> {
        let user = archive.account.id
        let create = AccountPrograms.create(archive.account, profile: archive.profile, form: cache.storedForm)
        let now = StoreJSON.canonical(now)
        return StoreProgram(writes: true, user: user, rollback: { cache.forget(user) }) { () throws(StoreError) in
            let slot = Slot<EngineEntry?>(nil)
            // Create the account exactly as a sign-up does, then continue with the log.
            return try chain(try create.start()) { () throws(StoreError) in
                let inserts = try archive.events.map { (stored: StoredEvent) throws(StoreError) in
                    try AppendPrograms.insertEvent(
                        stored.event, user: user, seq: stored.seq, receivedAt: stored.receivedAt, device: stored.device)
                }
                return try .then(inserts) { () throws(StoreError) in
                    EngineLoader.load(user, cache: cache, into: slot, profile: archive.profile) {
                        _ throws(StoreError) in
                        try slot.with { (entry: inout EngineEntry?) throws(StoreError) -> StoreStep<Void> in
                            guard var current = entry.take() else { throw .corrupt("engine missing") }
                            current.headSeq = archive.events.last?.seq ?? 0
                            let output = try ProjectionWriter(user: user, now: now, form: cache.storedForm).statements(
                                for: &current, rewrite: true, newUnlocks: [], stagesChanged: true,
                                headSeq: current.headSeq)
                            // The archive's planner, if it had one; an import queues no
                            // celebrations of its own for a history the user already lived.
                            let planner =
                                try archive.celebrations.map { (saved: CelebrationPlanner) throws(StoreError) in
                                    [
                                        try AppendPrograms.savePlanner(
                                            saved, user: user, now: now, form: cache.storedForm)
                                    ]
                                } ?? []
                            let edits = try archive.memories.map { (memory: Memory) throws(StoreError) in
                                // The archived memory is kept as it was (its caption was
                                // written when it happened), with its note and photo.
                                SQLStatement(
                                    """
                                    UPDATE memories SET note = ?, photo = ?, share_photo = ?, caption = ?, body = ?
                                    WHERE user_id = ? AND memory_id = ?
                                    """,
                                    [
                                        .optional(memory.note), .optional(memory.photo?.original),
                                        .optional(memory.photo?.shareCopy), .text(memory.caption),
                                        .text(try StoreJSON.encode(memory, cache.storedForm.memory)), .text(user),
                                        .text(memory.id),
                                    ])
                            }
                            let photos = archive.photos.map { photo in
                                SQLStatement(
                                    "INSERT INTO photos (user_id, path, content_type, bytes, created_at) VALUES (?, ?, ?, ?, ?)",
                                    [
                                        .text(user), .text(photo.path), .text(photo.contentType), .blob(photo.bytes),
                                        .date(photo.createdAt),
                                    ])
                            }
                            let statements = output.statements + planner + edits
                            return .execute(statements + photos) { counts throws(StoreError) in
                                let base = output.statements.count + planner.count
                                var problems: [StoreError.Problem] = []
                                for (index, memory) in archive.memories.enumerated() where counts[base + index] != 1 {
                                    problems.append(
                                        StoreError.Problem(
                                            file: AccountArchive.memoriesFile, line: archive.memoryLines[memory.id],
                                            reason: "memory '\(memory.id)' matches no unlock of the log"))
                                }
                                guard problems.isEmpty else {
                                    throw StoreError(
                                        .invalidArchive,
                                        "the archive's memories do not match its log; nothing was imported",
                                        problems: problems)
                                }
                                // Import is rare: let the next append load the engine afresh.
                                cache.forget(user)
                                return .done(())
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs `first` to its end, then continues with `next`.
    static func chain<A: Sendable, B: Sendable>(
        _ first: StoreStep<A>, _ next: @escaping @Sendable () throws(StoreError) -> StoreStep<B>
    ) throws(StoreError) -> StoreStep<B> {
        switch first {
        case .done: return try next()
        case .lock(let name, let rest):
            return .lock(name) { () throws(StoreError) in try chain(try rest(), next) }
        case .query(let statements, let rest):
            return .query(statements) { rows throws(StoreError) in try chain(try rest(rows), next) }
        case .execute(let statements, let rest):
            return .execute(statements) { counts throws(StoreError) in try chain(try rest(counts), next) }
        }
    }
}
