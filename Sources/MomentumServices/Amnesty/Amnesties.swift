import Foundation
import Logging
import MomentumCore
import MomentumStore
import Synchronization

/// Incident amnesties: an operator declares an outage window, and every user's days it
/// touched are covered (`DayState.covered`) — their streaks stand, no freeze
/// is spent — until it is lifted, as if it never was.
///
/// Declaring stores the amnesty and starts a job in the background that appends its
/// `amnesty` event to every account created before the window's end, page by page in id
/// order. The event's id derives from the amnesty's (`amnesty.<id>`), so a page written
/// twice is a duplicate, not a second amnesty: the job is idempotent per user. After each
/// page it records its progress (users done, the last user) and extends its lease; a job
/// whose instance stopped (a restart, a crash) is resumed where it stopped by the next
/// instance that looks once the lease ran out (``resumeStale()``). Lifting appends
/// `amnesty.lifted` the same way. The events go through the server's own append path
/// (``EventIngest/appendServerAuthored(_:for:)``): the engine's validation applies.
public struct Amnesties: Sendable {
    let store: any AmnestyStore
    let ingest: EventIngest
    let now: @Sendable () -> Date
    let logger: Logger
    let work: BackgroundWork
    /// Users reached between two progress records.
    let pageSize: Int
    /// How long a job's instance holds it without recording progress.
    let lease: TimeInterval

    /// Creates the use case.
    ///
    /// - Parameters:
    ///   - store: The amnesties and the accounts they reach.
    ///   - ingest: The append path of server-written events.
    ///   - now: The clock.
    ///   - logger: Where failures are logged.
    ///   - pageSize: Users per page (200).
    ///   - lease: Seconds a job is held between two pages (60).
    public init(
        store: any AmnestyStore, ingest: EventIngest, now: @escaping @Sendable () -> Date, logger: Logger,
        pageSize: Int = 200, lease: TimeInterval = 60
    ) {
        self.store = store
        self.ingest = ingest
        self.now = now
        self.logger = logger
        self.work = BackgroundWork()
        self.pageSize = max(1, pageSize)
        self.lease = max(1, lease)
    }

    /// Declares an outage window and starts writing it into every user's log.
    ///
    /// - Parameters:
    ///   - start: When the outage began.
    ///   - end: When it ended: after `start`, at most 31 days later, and not after now.
    ///   - reason: Why, shown with the covered days: 1…200 characters.
    ///   - actor: The operator declaring it.
    /// - Returns: The amnesty, declaring.
    /// - Throws: ``ServiceError`` `invalid_input` naming each field at fault; nothing is
    ///   stored then.
    public func declare(start: Date, end: Date, reason: String, by actor: OperatorActor) async throws -> AmnestyRecord {
        let declared = now()
        let id = Tokens.id("am_")
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        var problems: [ServiceError.Field] = []
        if let problem = Amnesty(id: id, start: start, end: end, reason: trimmed).problem {
            problems.append(.init(field: problem.field, issue: problem.reason))
        }
        if end > declared {
            problems.append(.init(field: "end", issue: "an amnesty covers an outage that has ended: end is after now"))
        }
        guard problems.isEmpty else { throw ServiceError.invalid(problems) }
        let record = AmnestyRecord(
            id: id, start: start, end: end, reason: trimmed, declaredBy: actor.id, declaredAt: declared,
            usersTotal: try await store.amnestyUserCount(createdBefore: end),
            leaseUntil: declared.addingTimeInterval(lease))
        try await store.declareAmnesty(record)
        work.start { await self.execute(record) }
        return record
    }

    /// Lifts an active amnesty: every user it reached gets `amnesty.lifted`, and their
    /// days are as if it never was.
    ///
    /// - Throws: ``ServiceError`` `not_found` for an unknown id, `amnesty_not_active`
    ///   (409) for one still being declared, being lifted or lifted.
    public func lift(id: String, by actor: OperatorActor) async throws -> AmnestyRecord {
        let instant = now()
        guard
            let record = try await store.liftAmnesty(
                id: id, by: actor.id, at: instant, leaseUntil: instant.addingTimeInterval(lease))
        else { throw ServiceError.notFound("amnesty '\(id)'") }
        // Lifted by this call (not one under way since earlier): its instant is this one's.
        guard record.status == .lifting, abs(record.liftedAt?.timeIntervalSince(instant) ?? 1) < 0.001 else {
            throw ServiceError(
                .conflict, "amnesty_not_active",
                "amnesty '\(id)' is \(record.status.rawValue): only an active amnesty is lifted")
        }
        work.start { await self.execute(record) }
        return record
    }

    /// The latest amnesties, newest first (at most 100), with their jobs' progress.
    public func list() async throws -> [AmnestyRecord] {
        try await store.amnesties(limit: 100)
    }

    /// Resumes the jobs whose instance stopped (their lease ran out), one after the other;
    /// the server calls it every few seconds.
    public func resumeStale() async throws {
        while let record = try await store.claimStaleAmnesty(now: now(), leaseUntil: now().addingTimeInterval(lease)) {
            logger.notice(
                "resuming an amnesty", metadata: ["amnesty": .string(record.id), "done": "\(record.usersDone)"])
            await execute(record)
        }
    }

    /// Waits for the jobs this instance started so far (tests).
    public func drain() async { await work.drain() }

    /// The event a job writes for a user: the amnesty, or its lifting.
    static func event(for record: AmnestyRecord, status: AmnestyRecord.Status, zone: String) -> Event {
        if status == .lifting {
            return Event(
                id: "amnesty.lifted.\(record.id)", at: record.liftedAt ?? record.declaredAt, timeZone: zone,
                payload: .amnestyLifted(id: record.id))
        }
        return Event(
            id: "amnesty.\(record.id)", at: record.declaredAt, timeZone: zone,
            payload: .amnesty(Amnesty(id: record.id, start: record.start, end: record.end, reason: record.reason)))
    }

    /// Runs `record`'s job from where it stands to its end, recording progress page by
    /// page. A failure leaves the job to be resumed once its lease runs out.
    func execute(_ record: AmnestyRecord) async {
        let status = record.status
        guard status.isRunning else { return }
        do {
            var done = record.usersDone
            var cursor = record.cursor
            var total = record.usersTotal
            if cursor == nil { total = try await store.amnestyUserCount(createdBefore: record.end) }
            while true {
                let page = try await store.amnestyUsers(createdBefore: record.end, after: cursor, limit: pageSize)
                guard let last = page.last else { break }
                for user in page {
                    await write(Self.event(for: record, status: status, zone: user.timeZone), to: user.user)
                    done += 1
                }
                cursor = last.user
                let going = try await store.recordAmnestyProgress(
                    id: record.id, status: status, done: done, total: max(total, done), cursor: cursor,
                    leaseUntil: now().addingTimeInterval(lease))
                guard going else { return }  // Another instance took it over.
            }
            _ = try await store.finishAmnestyJob(id: record.id, status: status)
        } catch {
            logger.error(
                "an amnesty job stopped", metadata: ["amnesty": .string(record.id), "error": .string("\(error)")])
        }
    }

    /// Appends one user's event; a user the engine refuses it for (an account deleted
    /// since the page was read) is logged and passed.
    private func write(_ event: Event, to user: String) async {
        do {
            let response = try await ingest.appendServerAuthored([event], for: user)
            switch response.outcomes.first?.status {
            case .rejected(let error)?, .invalid(let error)?:
                logger.warning(
                    "an amnesty was refused for a user",
                    metadata: ["user": .string(user), "event": .string(event.id), "error": .string("\(error)")])
            default: break
            }
        } catch {
            logger.warning(
                "an amnesty was not written for a user",
                metadata: ["user": .string(user), "event": .string(event.id), "error": .string("\(error)")])
        }
    }
}
