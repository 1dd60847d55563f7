import CoreMetrics
import Foundation
import Logging
import MomentumAPI
import MomentumCore
import MomentumStore

import struct MomentumStore.AppendResult

/// Storing what devices send: the trust boundary (batch limits, the arrival window), the
/// store, suspicious-activity flags, and the news to the user's other devices.
///
/// Pushes (`POST /v1/events`) and the convenience routes that make one event (check-ins,
/// skips, purchases, …) both store through here.
public struct EventIngest: Sendable {
    let store: any EventStore & AccountStore & ReviewFlags & PhotoStore
    let maxEventsPerRequest: Int
    /// The now.
    public let now: @Sendable () -> Date
    let arrivals: ArrivalGate
    let detector: SuspicionDetector
    let metrics: IngestMetrics
    let logger: Logger
    let changes: ChangePublisher
    /// The notifications.
    public let notifications: Notifications
    /// The versions of the rules a push's and a pull's answers announce.
    public let rules: RulesInForce
    /// The events app backends receive at their webhooks.
    public let webhookEvents: WebhookEvents

    /// Validates and stores a batch of events for the caller, flags suspicious activity,
    /// and tells the user's other devices.
    ///
    /// - Parameters:
    ///   - events: The events, in the order sent.
    ///   - caller: The signed-in device asking.
    ///   - loggedBy: The family member who logged them into `caller.user`'s log
    ///     (``Families``), recorded with each event; `nil` for the user's own.
    public func append(_ events: [Event], caller: Caller, loggedBy: String? = nil) async throws -> PushResponse {
        try checkSize(of: events)
        var problems: [ServiceError.Field] = []
        var seen = Set<String>()
        for (index, event) in events.enumerated() {
            if event.id.isEmpty || event.id.count > 128 {
                problems.append(.init(field: "events[\(index)].id", issue: "must have 1 to 128 characters"))
            }
            if !seen.insert(event.id).inserted {
                problems.append(.init(field: "events[\(index)].id", issue: "appears twice in this batch"))
            }
        }
        if !problems.isEmpty {
            throw ServiceError.invalid(problems)
        }
        try Self.refuseServerAuthored(events)
        try await checkUnknownTypes(in: events, user: caller.user)
        let now = now()
        let previousZone = try await detector.zone(of: caller.user) {
            try await store.evaluate(caller.user) { engine, _ in engine.streaks.latestZone }
        }
        let device = loggedBy.map { "\($0)/\(Tokens.deviceID(caller.tokenHash))" } ?? Tokens.deviceID(caller.tokenHash)
        let streakStarts = try await webhookEvents.streakStarts(of: caller.user)
        // Stored in the order they happened, whatever order they were sent in, so that an
        // offline device's week ends in the same state as if it had been online; the
        // results come back in the order sent.
        // Events dated before the account, or before the offline window, are refused here,
        // at the trust boundary; the others go to the store.
        let late = try await lateArrivals(in: events, caller: caller, now: now)
        let refused = late.merging(try await missingPhotos(in: events, user: caller.user)) { first, _ in first }
        let (order, stored, outcomes) = try await storeInOrder(
            events, refused: refused, user: caller.user, now: now, device: device)
        let result = AppendOutcome(
            outcomes: outcomes, unlocks: stored.unlocks, headSeq: stored.headSeq, wallet: stored.wallet)
        let applied = order.compactMap { index in outcomes[index].isApplied ? events[index] : nil }
        metrics.eventsAppended.increment(by: Int64(applied.count))
        metrics.eventsRejected.increment(
            by: Int64(result.outcomes.count - applied.count - result.outcomes.count { $0.status == .duplicate }))
        let flags = detector.inspect(
            applied, user: caller.user, previousZone: previousZone, clock: DayClock(dayStartHour: 0), now: now)
        var raised: [ReviewFlag] = []
        // A flag already recorded, or whose evidence an operator confirmed, is not raised again.
        for flag in flags {
            guard try await store.flag(flag) else { continue }
            raised.append(flag)
            metrics.reviewFlags.increment()
            logger.notice(
                "suspicious activity flagged",
                metadata: ["user": .string(caller.user), "kind": .string(flag.kind.rawValue)])
        }
        await webhookEvents.appended(
            applied, user: caller.user, before: streakStarts, unlocks: stored.unlocks, flags: raised,
            wallet: stored.wallet, version: stored.version)
        if !applied.isEmpty {
            changes.publish(Change(kind: "events", headSeq: result.headSeq, device: device, at: now), to: caller.user)
        }
        await notify(caller.user, unlocks: stored.unlocks, applied: applied)
        var response = PushResponse(
            outcomes: result.outcomes, headSeq: result.headSeq, wallet: result.wallet,
            unlocks: result.unlocks, version: stored.version, habitJSON: stored.habitJSON)
        response.versions = try await rules.versions(of: caller.user, after: stored.version)
        response.warnings = Self.warnings(for: events)
        return response
    }

    /// Brings in a user's history from elsewhere (an operator's import, `POST
    /// /v1/admin/imports`): every rule of the engine applies, as to a push, but not the
    /// arrival window, which bounds what devices send.
    ///
    /// - Parameters:
    ///   - events: The events, in any order.
    ///   - user: Whose history it is.
    /// - Returns: One result per event, in the order sent.
    public func importHistory(_ events: [Event], for user: String) async throws -> PushResponse {
        try checkSize(of: events)
        try await checkUnknownTypes(in: events, user: user)
        let now = now()
        let (_, stored, outcomes) = try await storeInOrder(events, refused: [:], user: user, now: now, device: "import")
        if outcomes.contains(where: \.isApplied) {
            changes.publish(Change(kind: "events", headSeq: stored.headSeq, device: "import", at: now), to: user)
        }
        await notify(user, unlocks: stored.unlocks, applied: zip(events, outcomes).filter { $0.1.isApplied }.map(\.0))
        return PushResponse(
            outcomes: outcomes, headSeq: stored.headSeq, wallet: stored.wallet,
            unlocks: stored.unlocks, warnings: Self.warnings(for: events))
    }

    /// Tells the notifications what a write did: milestones reached go to the inbox at
    /// once, and a change to the habits re-plans the user's reminders. The events are
    /// stored whatever happens here; a failure is logged (the next run re-plans).
    private func notify(_ user: String, unlocks: [Unlock], applied: [Event]) async {
        do {
            try await notifications.milestones(unlocks, of: user)
            try await notifications.familyMilestones(unlocks, of: user)
            if applied.contains(where: Notifications.changesSchedule) { try await notifications.touch(user) }
        } catch {
            logger.error(
                "notifications of a write failed", metadata: ["user": .string(user), "error": .string("\(error)")])
        }
    }

    /// Refuses a batch larger than a request may carry.
    private func checkSize(of events: [Event]) throws {
        guard events.count <= maxEventsPerRequest else {
            throw ServiceError(
                .tooLarge, "too_many_events",
                "a request may carry at most \(maxEventsPerRequest) events, not \(events.count)")
        }
    }

    /// Stores the events not `refused` in the order they happened, whatever order they were
    /// sent in (so that an offline device's week ends in the same state as if it had been
    /// online).
    ///
    /// - Returns: The positions stored, in the order stored; what the store did; and one
    ///   outcome per event in the order sent (the refused ones `invalid` with their error).
    private func storeInOrder(
        _ events: [Event], refused: [Int: MomentumError], user: String, now: Date, device: String
    ) async throws -> (order: [Int], stored: AppendResult, outcomes: [EventOutcome]) {
        let order = events.indices.filter { refused[$0] == nil }.sorted { (events[$0].at, $0) < (events[$1].at, $1) }
        let stored = try await store.append(order.map { events[$0] }, for: user, receivedAt: now, device: device)
        var placed = [EventOutcome?](repeating: nil, count: events.count)
        for (index, error) in refused { placed[index] = EventOutcome(id: events[index].id, status: .invalid(error)) }
        for (position, index) in order.enumerated() { placed[index] = stored.outcomes[position] }
        return (order, stored, placed.compactMap { $0 })
    }

    /// Stores one event made by a convenience route.
    ///
    /// - Throws: The engine's own verdict, the `MomentumError` it refused the event with
    ///   (the HTTP layer's one table maps its code to a status), or ``ServiceError``
    ///   `not_found` for a habit the user does not have.
    public func appendOne(_ event: Event, caller: Caller) async throws -> PushResponse {
        let response = try await append([event], caller: caller)
        switch response.outcomes.first?.status {
        case .rejected(let error), .invalid(let error):
            if error.code == .unknownHabit, let habit = event.payload.habitID {
                throw ServiceError.notFound("habit '\(habit)'")
            }
            throw error
        default: return response
        }
    }

    /// The zone an event the user sent without one happened in: the zone of their latest
    /// event, else their profile's.
    public func presumedZone(of caller: Caller) async throws -> String {
        let latest = try await detector.zone(of: caller.user) {
            try await store.evaluate(caller.user) { engine, _ in engine.streaks.latestZone }
        }
        if let latest { return latest }
        return try await store.profile(of: caller.user)?.timeZone ?? "UTC"
    }

    /// Stores the event a convenience route's body makes (`EventRequest/event(id:now:zone:)`):
    /// a check-in, a skip, a new habit, a purchase.
    ///
    /// A retried request is answered as the first was: when the event id is already stored
    /// for an event that differs only in what the server filled in (`at`, `tz`, the route's
    /// defaults, which differ on every attempt), the stored event is the one appended, a
    /// duplicate. An id stored for an event that differs in a field the client gave is
    /// still a `.conflict`.
    ///
    /// - Returns: The event stored under the id (on a retry, the first attempt's) and what
    ///   the push did.
    public func record(
        _ body: EventRequest, route: EventRequest.Route, caller: Caller
    ) async throws -> (event: Event, push: PushResponse) {
        let zone: String
        if let given = body.timeZone { zone = given } else { zone = try await presumedZone(of: caller) }
        let event = body.event(id: Tokens.id("e_"), now: now(), zone: zone)
        do {
            return (event, try await appendOne(event, caller: caller))
        } catch let error as MomentumError where error.code == .conflictingEventID && body.eventId != nil {
            guard
                let stored = try await store.evaluate(
                    caller.user,
                    { engine, _ in
                        engine.streaks.event(id: event.id)
                    }),
                Self.isRetry(of: stored, body: body, route: route)
            else { throw error }
            return (stored, try await appendOne(stored, caller: caller))
        }
    }

    /// Whether `body` makes `stored` once what the server filled in (`at`, `tz`, the
    /// route's defaults) is taken from it.
    public static func isRetry(of stored: Event, body: EventRequest, route: EventRequest.Route) -> Bool {
        var payload = body.payload
        if route.defaults["habit"] == payload.habitID, case .habitCreated(var definition) = payload,
            case .habitCreated(let original) = stored.payload
        {
            definition.id = original.id
            payload = .habitCreated(definition)
        }
        if case .subject(var subject) = payload, route.defaults["subject"] == subject.id,
            case .subject(let original) = stored.payload
        {
            subject.id = original.id
            payload = .subject(subject)
        }
        let again = Event(
            id: stored.id, at: body.at ?? stored.at, timeZone: body.timeZone ?? stored.timeZone, payload: payload)
        return again == stored
    }

    /// A page of the user's stored events after `cursor`, for a device catching up.
    public func pull(_ user: String, after cursor: Int64, limit: Int) async throws -> PullResponse {
        let stored = try await store.events(of: user, after: cursor, limit: limit + 1)
        let page = stored.prefix(limit)
        return PullResponse(
            events: page.map {
                PulledEvent(
                    seq: $0.seq, event: $0.event, receivedAt: $0.receivedAt, device: $0.deviceID, loggedBy: $0.loggedBy)
            },
            cursor: page.last?.seq ?? cursor, more: stored.count > limit, versions: try await rules.versions(of: user))
    }

    /// Brings in history for the account of `email` (``importHistory(_:for:)``).
    ///
    /// - Throws: `.notFound` when no account has that email.
    public func importHistory(_ events: [Event], email: String) async throws -> PushResponse {
        guard let account = try await store.account(email: email) else {
            throw ServiceError.notFound("account '\(email)'")
        }
        return try await importHistory(events, for: account.id)
    }

    /// The positions of `events` that must be refused for their instant, each with its
    /// error: those dated before the earliest instant a client may send, and those creating
    /// a habit that starts before that instant's day (in the event's zone, by the user's
    /// day start), unless an event with the same id is already stored (a retry, answered
    /// `duplicate` by the store).
    ///
    /// Costs one cached lookup per request; the engine is read only when an event is
    /// older than a week or than the account, or names a start day near or before them.
    public func lateArrivals(in events: [Event], caller: Caller, now: Date) async throws -> [Int: MomentumError] {
        let user = caller.user
        guard
            let created = try await arrivals.accountCreatedAt(
                of: user, load: { try await store.account(id: user)?.createdAt })
        else { return [:] }
        let quick = ArrivalGate.earliest(now: now, accountCreatedAt: created, offlineDays: RulePack.minimumOfflineDays)
        // The day after the UTC day of `quick`: no zone puts that instant on a later local
        // day, so a habit starting on it or later starts in time.
        let quickDay = LocalDay(number: Int((quick.timeIntervalSince1970 / 86_400).rounded(.down)) + 1)
        let suspects = events.indices.filter { index in
            guard events[index].at >= quick else { return true }
            guard let start = ArrivalGate.habitStart(of: events[index]) else { return false }
            return start < quickDay
        }
        guard !suspects.isEmpty else { return [:] }
        let ids = suspects.map { events[$0].id }
        let (offlineDays, clock, stored) = try await store.evaluate(user) { engine, _ in
            (
                engine.streaks.pack.offlineDays, engine.streaks.clock,
                Set(ids.filter { engine.streaks.event(id: $0) != nil })
            )
        }
        let earliest = ArrivalGate.earliest(now: now, accountCreatedAt: created, offlineDays: offlineDays)
        let beforeAccount = created.addingTimeInterval(-ArrivalGate.accountSkew) >= earliest
        var refused: [Int: MomentumError] = [:]
        for index in suspects where !stored.contains(events[index].id) {
            let event = events[index]
            if event.at < earliest {
                refused[index] = ArrivalGate.refusal(
                    event, earliest: earliest, accountCreatedAt: created, offlineDays: offlineDays)
                continue
            }
            // An unknown zone is the engine's to refuse.
            guard let start = ArrivalGate.habitStart(of: event), let zone = ZoneOffsetTable.named(event.timeZone)
            else { continue }
            let earliestDay = clock.localDay(of: earliest, in: zone)
            if start < earliestDay {
                refused[index] = ArrivalGate.startRefusal(
                    start, earliestDay: earliestDay, beforeAccount: beforeAccount, offlineDays: offlineDays)
            }
        }
        return refused
    }

    /// The `subject` events that name a photo the user has not uploaded, each with its
    /// error: a subject's photo is one `PUT /v1/subjects/{subject}/photo` stored. An event
    /// already stored under its id is left to the store (a retry is a duplicate, even when
    /// its photo has since been replaced).
    public func missingPhotos(in events: [Event], user: String) async throws -> [Int: MomentumError] {
        var suspects: [Int: String] = [:]
        for (index, event) in events.enumerated() {
            guard case .subject(let subject) = event.payload, let photo = subject.photo, !photo.isEmpty,
                photo.utf8.count <= 256, (try? MemoryPhoto.validate(photo, under: Subject.photoDirectory)) != nil,
                try await store.photo(of: user, path: photo) == nil
            else { continue }
            suspects[index] = photo
        }
        guard !suspects.isEmpty else { return [:] }
        let ids = suspects.keys.map { events[$0].id }
        let stored = try await store.evaluate(user) { engine, _ in
            Set(ids.filter { engine.streaks.event(id: $0) != nil })
        }
        var refused: [Int: MomentumError] = [:]
        for (index, photo) in suspects where !stored.contains(events[index].id) {
            refused[index] = MomentumError(
                .invalidEvent,
                "photo '\(photo)' is not a photo of yours; upload one with PUT /v1/subjects/{subject}/photo",
                field: "photo")
        }
        return refused
    }
}

/// What a push did, with outcomes in the order the events were sent.
public struct AppendOutcome: Sendable {
    var outcomes: [EventOutcome]
    /// The unlocks.
    public var unlocks: [Unlock]
    var headSeq: Int64
    /// The wallet.
    public var wallet: Wallet
}

extension EventOutcome {
    var isApplied: Bool { if case .applied = status { true } else { false } }
}

/// What the ingest counts: events appended, events refused, and review flags raised.
public struct IngestMetrics: Sendable {
    let eventsAppended: CoreMetrics.Counter
    let eventsRejected: CoreMetrics.Counter
    let reviewFlags: CoreMetrics.Counter

    /// Counters made by `factory`: `momentum_events_appended_total`,
    /// `momentum_events_refused_total`, `momentum_review_flags_total`.
    public init(factory: any MetricsFactory) {
        eventsAppended = Counter(label: "momentum_events_appended_total", factory: factory)
        eventsRejected = Counter(label: "momentum_events_refused_total", factory: factory)
        reviewFlags = Counter(label: "momentum_review_flags_total", factory: factory)
    }
}
