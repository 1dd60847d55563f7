import Foundation
import Logging
import MomentumCore
import MomentumStore
import Synchronization

/// The events app backends receive at their webhooks, noticed where they become known and
/// queued for every webhook that takes their type.
///
/// What a push changed is known at ingest: unlocks, purchases, review flags, and a streak
/// that started (the habit's streak start before and after the push). A streak lost, or kept
/// by a freeze, is known only when a day closes: the notification scheduler's run, which
/// wakes at each close, notices it from the habit's series. Every message's id is derived
/// from what happened (`streak.lost`, the user, the habit, the day), and the queue keeps
/// one message per id and webhook, so noticing the same thing again, by another run or
/// another instance, sends nothing new.
public struct WebhookEvents: Sendable {
    let store: any WebhookEventQueue & EventStore & ServerKeys
    /// The now.
    public let now: @Sendable () -> Date
    let logger: Logger
    private let typeCache = TypeCache()

    /// How far back a scheduler run looks for streaks lost or frozen: a day closed while
    /// no scheduler ran (a downtime) is still noticed.
    public static let lookBackDays = 2
    /// How long the event types webhooks take are remembered before they are read again.
    static let typesTTL: Int64 = 5

    /// Creates the use case.
    public init(
        store: any WebhookEventQueue & EventStore & ServerKeys, now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.store = store
        self.now = now
        self.logger = logger
    }

    /// The event types some active webhook takes, read at most every few seconds (this
    /// instance forgets them when its admin changes a webhook: ``forgetTypes()``).
    public func wantedTypes() async -> Set<WebhookEventType> {
        if let cached = typeCache.fresh() { return cached }
        do {
            let types = try await store.webhookEventTypes()
            typeCache.store(types)
            return types
        } catch {
            logger.error("webhook event types could not be read", metadata: ["error": .string("\(error)")])
            return Set(WebhookEventType.allCases)
        }
    }

    /// Forgets the event types read last: a webhook was created, changed or removed.
    public func forgetTypes() { typeCache.forget() }

    /// Each habit's streak start, to compare after a push (``appended(_:user:before:unlocks:flags:wallet:version:)``);
    /// `nil` when no webhook takes `streak.started`.
    public func streakStarts(of user: String) async throws -> [String: LocalDay]? {
        guard await wantedTypes().contains(.streakStarted) else { return nil }
        let now = now()
        return try await store.evaluate(user) { engine, profile in
            Self.starts(engine.state(at: now, zone: engine.streaks.latestZone ?? profile.timeZone, calendarDays: 0))
        }
    }

    /// Queues what a push changed: its unlocks, purchases and flags, and the streaks it
    /// started. A failure is logged: the events are stored whatever happens here.
    ///
    /// - Parameters:
    ///   - applied: The events the push applied.
    ///   - user: Whose they are.
    ///   - before: ``streakStarts(of:)`` before the push.
    ///   - unlocks: The unlocks it granted.
    ///   - flags: The review flags it raised.
    ///   - wallet: The wallet after it.
    ///   - version: The projection version after it.
    public func appended(
        _ applied: [Event], user: String, before: [String: LocalDay]?, unlocks: [Unlock], flags: [ReviewFlag],
        wallet: Wallet, version: Int64
    ) async {
        let now = now()
        guard !unlocks.isEmpty || !flags.isEmpty || before != nil || applied.contains(where: Self.isPurchase) else {
            return
        }
        let appUser = await appUserID(of: user)
        var events: [WebhookEvent] = []
        for unlock in unlocks {
            var data = WebhookEventBody.Fields(user: user, appUserId: appUser)
            data.habit = unlock.habit
            data.day = unlock.achievedDay.description
            data.unlock = .init(
                id: unlock.id, rule: unlock.rule, title: unlock.title, category: unlock.category,
                milestoneType: unlock.milestoneType, value: unlock.value, retroactive: unlock.retroactive,
                subject: unlock.subject)
            events.append(event(.unlockCreated, user: user, fact: unlock.id, at: now, data: data))
        }
        for applied in applied {
            guard case .purchase(let item, let days) = applied.payload else { continue }
            var data = WebhookEventBody.Fields(user: user, appUserId: appUser)
            data.purchase = .init(
                event: applied.id, item: item, days: days, diamonds: wallet.diamonds, freezes: wallet.freezes)
            events.append(event(.purchaseCreated, user: user, fact: applied.id, at: now, data: data))
        }
        for flag in flags {
            var data = WebhookEventBody.Fields(user: user, appUserId: appUser)
            data.flag = .init(id: flag.id, kind: flag.kind.rawValue, detail: flag.detail, events: flag.events)
            events.append(event(.reviewFlagRaised, user: user, fact: flag.id, at: flag.createdAt, data: data))
        }
        do {
            if let before, !applied.isEmpty {
                let after = try await store.evaluate(user, after: version) { engine, profile in
                    let state = engine.state(
                        at: now, zone: engine.streaks.latestZone ?? profile.timeZone, calendarDays: 0)
                    return state.habits.compactMap { habit -> (String, String, LocalDay, Int)? in
                        guard habit.current > 0, let start = habit.currentStreakStart else { return nil }
                        return (habit.definition.id, habit.definition.name, start, habit.current)
                    }
                }
                for (habit, name, start, length) in after where before[habit] != start {
                    var data = WebhookEventBody.Fields(user: user, appUserId: appUser)
                    data.habit = habit
                    data.habitName = name
                    data.day = start.description
                    data.streak = length
                    events.append(
                        event(.streakStarted, user: user, fact: "\(habit)|\(start)", at: now, data: data))
                }
            }
            if !events.isEmpty { try await store.queueWebhookEvents(events, at: now) }
        } catch {
            logger.error(
                "webhook events of a write could not be queued",
                metadata: ["user": .string(user), "error": .string("\(error)")])
        }
    }

    /// Queues the streaks lost and frozen on the user's days that closed in the last
    /// ``lookBackDays`` days (a scheduler run's part).
    ///
    /// - Parameters:
    ///   - series: Each habit's series now.
    ///   - user: Whose they are.
    ///   - zone: The user's zone.
    ///   - dayStartHour: The local hour the user's day begins.
    public func dayClosed(
        _ series: [HabitSeries], user: String, zone: ZoneOffsetTable, dayStartHour: Int
    ) async throws {
        let wanted = await wantedTypes()
        guard wanted.contains(.streakLost) || wanted.contains(.streakFrozen) else { return }
        let clock = DayClock(dayStartHour: dayStartHour)
        var events: [WebhookEvent] = []
        var appUser: String??
        for line in series {
            let first = line.firstDay.number
            let today = line.today.number
            // A habit that began today or yesterday has fewer closed days to look at (none).
            let earliest = max(first + 1, today - Self.lookBackDays)
            guard earliest < today else { continue }
            for number in earliest..<today {
                let index = number - first
                guard index > 0, index < line.streaks.count, index < line.states.count else { continue }
                let day = LocalDay(number: number)
                // The day closed: its end is when what happened became so.
                let closed = Date(timeIntervalSince1970: TimeInterval(clock.start(of: day.advanced(by: 1), in: zone)))
                let lost = line.streaks[index] == 0 && line.streaks[index - 1] > 0
                let frozen = line.states[index] == .frozen
                guard (wanted.contains(.streakLost) && lost) || (wanted.contains(.streakFrozen) && frozen) else {
                    continue
                }
                if appUser == nil { appUser = .some(await appUserID(of: user)) }
                var data = WebhookEventBody.Fields(user: user, appUserId: appUser ?? nil)
                data.habit = line.definition.id
                data.habitName = line.definition.name
                data.day = day.description
                if wanted.contains(.streakLost), lost {
                    data.streak = line.streaks[index - 1]
                    data.best = line.best
                    events.append(
                        event(.streakLost, user: user, fact: "\(line.definition.id)|\(day)", at: closed, data: data))
                }
                if wanted.contains(.streakFrozen), frozen {
                    data.streak = line.streaks[index]
                    events.append(
                        event(.streakFrozen, user: user, fact: "\(line.definition.id)|\(day)", at: closed, data: data))
                }
            }
        }
        if !events.isEmpty { try await store.queueWebhookEvents(events, at: now()) }
    }

    /// The app's own id for the user, when its backend made the user with a server key.
    private func appUserID(of user: String) async -> String? {
        do {
            return try await store.appUser(of: user)?.appUserID
        } catch {
            logger.error(
                "the app's user id could not be read", metadata: ["user": .string(user), "error": .string("\(error)")])
            return nil
        }
    }

    static func isPurchase(_ event: Event) -> Bool {
        if case .purchase = event.payload { true } else { false }
    }

    /// An event with its id derived from its type, user and `fact`, in the trace of the work
    /// that noticed it.
    private func event(
        _ type: WebhookEventType, user: String, fact: String, at: Date, data: WebhookEventBody.Fields
    ) -> WebhookEvent {
        WebhookEvent(
            user: user, id: Webhook.messageID(for: "\(type.rawValue)|\(user)|\(fact)"), type: type,
            body: WebhookEventBody(type: type, timestamp: at, data: data).json(), occurredAt: at,
            origin: TraceOrigin.current)
    }

    /// Each habit's current streak start.
    static func starts(_ state: UserState) -> [String: LocalDay] {
        var starts: [String: LocalDay] = [:]
        for habit in state.habits where habit.current > 0 {
            if let start = habit.currentStreakStart { starts[habit.definition.id] = start }
        }
        return starts
    }

    /// The event types read last, for a few seconds of the process's monotonic clock (a
    /// cache, not domain time: the harness clock may stand still).
    private final class TypeCache: Sendable {
        private let value = Mutex<(types: Set<WebhookEventType>, at: ContinuousClock.Instant)?>(nil)

        func fresh() -> Set<WebhookEventType>? {
            let now = ContinuousClock.now
            return value.withLock { cached in
                guard let cached, cached.at.duration(to: now) < .seconds(WebhookEvents.typesTTL) else { return nil }
                return cached.types
            }
        }

        func store(_ types: Set<WebhookEventType>) {
            let now = ContinuousClock.now
            value.withLock { $0 = (types, now) }
        }

        func forget() { value.withLock { $0 = nil } }
    }
}
