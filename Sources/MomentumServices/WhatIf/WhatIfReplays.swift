import Foundation
import Logging
import MomentumCore
import MomentumStore
import Synchronization

/// What-if runs: a candidate pack version replayed over the real logs of its users (all of
/// them, or a sample) in the background, reporting what would change before it goes live.
///
/// A run pages over accounts: it holds one page of users (100 by default) and one user's log
/// at a time, besides its report (bounded: a few example users per change). After each
/// page it records its progress (users done, the last user, the report so far) and extends
/// its lease. A cancellation, from any instance, stops it at the next page. A run whose
/// instance stopped (a restart, a crash) is resumed where it stopped by the next instance
/// that looks once its lease has run out (``resumeStale()``): runs are resumable.
///
/// The user's rewards under the pack in force come from the store's engine (cached for
/// active users), so each user's log is replayed once, under the candidate.
public struct WhatIfReplays: Sendable {
    let store: any WhatIfRuns & EventStore & AccountStore
    let packs: any WhatIfPackSource
    let now: @Sendable () -> Date
    let logger: Logger
    /// Where the rewards kept at an activation are appended (``keepRewards(current:candidate:by:)``).
    let ingest: EventIngest?
    let work: BackgroundWork
    /// Users replayed between two progress records.
    let pageSize: Int
    /// How long a run's instance holds it without recording progress.
    let lease: TimeInterval

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The runs, the logs and the profiles.
    ///   - packs: Where candidate versions and users' packs come from.
    ///   - now: The clock.
    ///   - logger: Where failures are logged.
    ///   - ingest: Where the rewards kept at an activation are appended; `nil` keeps none.
    ///   - pageSize: Users per page (100).
    ///   - lease: Seconds a run is held between two pages (60).
    public init(
        store: any WhatIfRuns & EventStore & AccountStore, packs: any WhatIfPackSource,
        now: @escaping @Sendable () -> Date, logger: Logger, ingest: EventIngest? = nil, pageSize: Int = 100,
        lease: TimeInterval = 60
    ) {
        self.store = store
        self.packs = packs
        self.now = now
        self.logger = logger
        self.ingest = ingest
        self.work = BackgroundWork()
        self.pageSize = max(1, pageSize)
        self.lease = max(1, lease)
    }

    /// Starts a what-if of version `version` of pack `pack`, in the background.
    ///
    /// - Parameters:
    ///   - pack: The pack name.
    ///   - version: The candidate version.
    ///   - sample: Which users; all users of the pack by default.
    ///   - actor: The operator starting it.
    /// - Returns: The run, running; the run already running for that version, if there is
    ///   one (one run per version at a time).
    /// - Throws: ``ServiceError`` `invalid_input` for a bad sample, `not_found` for a
    ///   version that does not exist.
    public func start(
        pack: String, version: String, sample: WhatIfSample?, by actor: OperatorActor
    ) async throws -> WhatIfRun {
        let sample = sample ?? .all
        try sample.validate()
        guard (1...64).contains(pack.utf8.count), (1...64).contains(version.utf8.count),
            try await packs.candidate(pack, version: version) != nil
        else {
            throw ServiceError.notFound("pack version '\(pack)' \(version)")
        }
        let started = now()
        let (run, isNew) = try await store.startWhatIfRun(
            WhatIfRun(
                id: Tokens.id("wi_"), pack: pack, version: version, sample: sample.json,
                leaseUntil: started.addingTimeInterval(lease), startedBy: actor.id, startedAt: started))
        if isNew { work.start { await self.execute(run) } }
        return run
    }

    /// A run with its report so far.
    ///
    /// - Throws: ``ServiceError`` `not_found` for an unknown run.
    public func run(_ id: String) async throws -> WhatIfProgress {
        guard let run = try await store.whatIfRun(id: id) else { throw ServiceError.notFound("what-if run '\(id)'") }
        return WhatIfProgress(run)
    }

    /// The latest runs of a pack version, newest first (at most 20).
    public func runs(pack: String, version: String) async throws -> [WhatIfRun] {
        try await store.whatIfRuns(pack: pack, version: version, limit: 20)
    }

    /// Cancels a running run; a finished one is answered as it is.
    ///
    /// - Throws: ``ServiceError`` `not_found` for an unknown run.
    public func cancel(_ id: String) async throws -> WhatIfProgress {
        guard let run = try await store.cancelWhatIfRun(id: id, at: now()) else {
            throw ServiceError.notFound("what-if run '\(id)'")
        }
        return WhatIfProgress(run)
    }

    /// Resumes the runs whose instance stopped (their lease ran out), one after the other;
    /// the server calls it every few seconds.
    public func resumeStale() async throws {
        while let run = try await store.claimStaleWhatIfRun(now: now(), leaseUntil: now().addingTimeInterval(lease)) {
            logger.notice(
                "resuming a what-if run", metadata: ["run": .string(run.id), "done": .stringConvertible(run.done)])
            await execute(run)
        }
    }

    /// Waits for the runs this instance started so far (tests).
    public func drain() async { await work.drain() }

    /// Runs `run` from where it stands to its end, recording progress page by page.
    func execute(_ run: WhatIfRun) async {
        var report = run.report.flatMap(Self.decodeReport) ?? WhatIfReport()
        do {
            guard let candidate = try await packs.candidate(run.pack, version: run.version) else {
                throw ServiceError.notFound("pack version '\(run.pack)' \(run.version)")
            }
            let sample = WhatIfSample.stored(run.sample)
            let chosen = try await chosenUsers(sample, pack: run.pack)
            var total = run.total
            if run.cursor == nil { total = try await countUsers(chosen, pack: run.pack) }
            var done = run.done
            var cursor = run.cursor
            while let page = try await nextPage(after: cursor, chosen: chosen, pack: run.pack) {
                for user in page.users {
                    try await compare(user, candidate: candidate, into: &report)
                    done += 1
                }
                cursor = page.last
                let going = try await store.recordWhatIfProgress(
                    id: run.id, done: done, total: max(total, done), cursor: cursor, report: Self.encode(report),
                    leaseUntil: now().addingTimeInterval(lease))
                guard going else { return }  // Cancelled, here or on another instance.
            }
            _ = try await store.finishWhatIfRun(id: run.id, status: .done, report: Self.encode(report), at: now())
        } catch {
            logger.error("a what-if run failed", metadata: ["run": .string(run.id), "error": .string("\(error)")])
            _ = try? await store.finishWhatIfRun(id: run.id, status: .failed, report: Self.encode(report), at: now())
        }
    }

    /// Adds what `candidate` would change for `user` to `report`.
    func compare(_ user: String, candidate: RulePack, into report: inout WhatIfReport) async throws {
        guard let change = try await change(for: user, candidate: candidate) else {
            report.skipped += 1
            return
        }
        report.add(change.change, of: user)
    }

    /// What `candidate` would change for `user`, with the rewards they hold under the pack
    /// in force; `nil` when their profile does not use the candidate's pack (or names a
    /// pack that no longer exists).
    func change(
        for user: String, candidate: RulePack
    ) async throws -> (change: RewardChange, current: RewardSnapshot, profile: Profile)? {
        let instant = now()
        guard let (current, profile) = try await currentRewards(of: user, at: instant) else { return nil }
        guard let pack = packs.pack(for: profile, replacing: candidate) else { return nil }
        var log: [StoredEvent] = []
        while true {
            let next = try await store.events(of: user, after: log.last?.seq ?? 0, limit: 5_000)
            log += next
            if next.count < 5_000 { break }
        }
        let change = WhatIfReplay.change(log, current: current, candidate: pack, profile: profile, now: instant)
        return (change, current, profile)
    }

    /// The user's rewards under the pack in force at `instant`, from the store's engine, and
    /// their profile; `nil` for a user deleted since their page was read, or whose pack is
    /// no longer known.
    private func currentRewards(of user: String, at instant: Date) async throws -> (RewardSnapshot, Profile)? {
        do {
            return try await store.evaluate(user) { engine, profile in (RewardSnapshot(&engine, at: instant), profile) }
        } catch {
            if error.code == .notFound || error.code == .unknownPack { return nil }
            throw error
        }
    }

    // MARK: Paging

    /// The users a sample chooses, sorted; `nil` for every user of the pack.
    private func chosenUsers(_ sample: WhatIfSample, pack: String) async throws -> [String]? {
        if let users = sample.users { return Array(Set(users)).sorted() }
        guard let count = sample.count else { return nil }
        // The `count` lowest ranks, over a pass of pages: never more than `count` ids held.
        var lowest: [(rank: UInt64, user: String)] = []
        var after: String?
        while true {
            let page = try await store.packUsers(after: after, limit: pageSize)
            for entry in page where Self.uses(entry.pack, pack) {
                let rank = sample.rank(of: entry.user)
                if lowest.count < count {
                    lowest.append((rank, entry.user))
                    lowest.sort { ($0.rank, $0.user) < ($1.rank, $1.user) }
                } else if let worst = lowest.last, (rank, entry.user) < (worst.rank, worst.user) {
                    lowest[lowest.count - 1] = (rank, entry.user)
                    lowest.sort { ($0.rank, $0.user) < ($1.rank, $1.user) }
                }
            }
            guard page.count == pageSize, let last = page.last else { break }
            after = last.user
        }
        return lowest.map(\.user).sorted()
    }

    private func countUsers(_ chosen: [String]?, pack: String) async throws -> Int {
        var total = 0
        var after: String?
        while let page = try await nextPage(after: after, chosen: chosen, pack: pack) {
            total += page.users.count
            after = page.last
        }
        return total
    }

    /// The next page of users of `pack` after `cursor` (all of them, or those `chosen`),
    /// and the last user it read; `nil` at the end.
    func nextPage(
        after cursor: String?, chosen: [String]?, pack: String
    ) async throws -> (users: [String], last: String)? {
        var after = cursor
        while true {
            let page: [PackUser]
            let last: String
            if let chosen {
                let slice = Array(chosen.lazy.filter { user in after.map { user > $0 } ?? true }.prefix(pageSize))
                guard let end = slice.last else { return nil }
                page = try await store.packUsers(slice)
                last = end
            } else {
                page = try await store.packUsers(after: after, limit: pageSize)
                guard let end = page.last?.user else { return nil }
                last = end
            }
            let users = page.filter { Self.uses($0.pack, pack) }.map(\.user)
            if !users.isEmpty { return (users, last) }
            if chosen == nil, page.count < pageSize { return nil }
            after = last
        }
    }

    /// Whether a profile's pack (`habits+ollie`) uses the pack `name`.
    static func uses(_ profilePack: String, _ name: String) -> Bool {
        profilePack.split(separator: "+").contains { $0.trimmingCharacters(in: .whitespaces) == name }
    }

    static func encode(_ report: WhatIfReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    static func decodeReport(_ json: String) -> WhatIfReport? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(WhatIfReport.self, from: Data(json.utf8))
    }
}

/// A run as the API and the console show it: its progress and its report so far.
public struct WhatIfProgress: Sendable {
    /// The run.
    public var run: WhatIfRun
    /// Its report so far (empty before the first page).
    public var report: WhatIfReport
    /// Its sample.
    public var sample: WhatIfSample

    /// The progress of a stored run.
    public init(_ run: WhatIfRun) {
        self.run = run
        report = run.report.flatMap(WhatIfReplays.decodeReport) ?? WhatIfReport()
        sample = WhatIfSample.stored(run.sample)
    }
}
