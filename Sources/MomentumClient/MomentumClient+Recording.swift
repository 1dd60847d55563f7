import Foundation
import MomentumAPI
import MomentumCore

extension MomentumClient {
    /// Records an event on the device: the engine checks it against the user's log at
    /// once, and it waits in the outbox for the next ``sync()``.
    ///
    /// The event is durable when this returns: a crash or a kill after that loses nothing.
    ///
    /// - Parameters:
    ///   - payload: What happened.
    ///   - instant: When it happened; by default now. (The server refuses instants before
    ///     the account or beyond the rule pack's offline window.)
    ///   - id: The event's client id; by default a new one. Recording the same id again
    ///     changes nothing (``RecordedEvent/duplicate``).
    /// - Returns: The new state of the habit, the wallet, and what the event unlocked.
    /// - Throws: ``ClientError/refused(_:_:field:)`` with the engine's code when the rules
    ///   refuse the event (an unknown habit, a purchase without enough diamonds, …): nothing
    ///   is recorded. ``ClientError/notSignedIn``.
    @discardableResult
    public func record(_ payload: Event.Payload, at instant: Date? = nil, id: String? = nil) throws -> RecordedEvent {
        let now = clock()
        let profile = try profile()
        var user = try localEngine()
        let event = Event(
            id: id ?? Self.newEventID(), at: instant ?? now, timeZone: eventZone(profile: profile), payload: payload)
        if try database.knows(event.id) {
            return outcome(of: event, duplicate: true, unlocks: [], user: &user, now: now, profile: profile)
        }
        let unlocks: [Unlock]
        do {
            let appended = try user.append(event, now: now, detectedAt: now)
            switch appended.result {
            case .applied: unlocks = appended.unlocks
            case .duplicate:
                return outcome(of: event, duplicate: true, unlocks: [], user: &user, now: now, profile: profile)
            case .rejected(let error):
                throw ClientError.refused(error.code.description, error.message, field: error.field)
            }
        } catch let error as MomentumError {
            throw ClientError.refused(error.code.description, error.message, field: error.field)
        }
        try database.enqueue(try Self.encode(event), id: event.id, recordedAt: now)
        outboxSignal.signal()
        return outcome(of: event, duplicate: false, unlocks: unlocks, user: &user, now: now, profile: profile)
    }

    /// Checks a habit in (a completion), at once and offline too.
    ///
    /// - Parameters:
    ///   - habit: The habit's id.
    ///   - value: How much was done (1 for a yes/no habit).
    ///   - note: A note kept with the check-in.
    ///   - day: The local day it counts for, when not today (within the pack's backfill window).
    /// - Returns: The habit's new streak and today's status, the wallet and any celebration.
    /// - Throws: ``ClientError/refused(_:_:field:)`` (`unknown_habit`, …).
    @discardableResult
    public func checkIn(
        _ habit: String, value: Double = 1, note: String? = nil, day: LocalDay? = nil
    ) throws
        -> RecordedEvent
    {
        try record(.completion(habit: habit, day: day, value: value, note: note))
    }

    /// Marks a rest day for a habit: it neither extends nor breaks the streak.
    ///
    /// - Parameters:
    ///   - habit: The habit's id.
    ///   - note: A note kept with the skip.
    ///   - day: The local day skipped, when not today.
    /// - Returns: The habit as it stands.
    /// - Throws: ``ClientError/refused(_:_:field:)``.
    @discardableResult
    public func skip(_ habit: String, note: String? = nil, day: LocalDay? = nil) throws -> RecordedEvent {
        try record(.skip(habit: habit, day: day, note: note))
    }

    /// Changes a habit's schedule from today on: earlier days keep the schedule they had,
    /// and the streak carries over (see `Schedule`).
    ///
    /// - Parameters:
    ///   - habit: The habit's id.
    ///   - schedule: The new schedule.
    /// - Returns: The habit as it now stands.
    /// - Throws: ``ClientError/refused(_:_:field:)`` `unknown_habit`.
    @discardableResult
    public func changeSchedule(of habit: String, to schedule: Schedule) throws -> RecordedEvent {
        try record(.habitUpdated(HabitChanges(habit: habit, schedule: schedule)))
    }

    /// Archives a habit: it stops being tracked from today; its history stays.
    @discardableResult
    public func archive(_ habit: String) throws -> RecordedEvent {
        try record(.habitArchived(habit: habit))
    }

    /// Brings an archived habit back from today: the days it was archived show as such and
    /// neither extend nor break its streak.
    @discardableResult
    public func unarchive(_ habit: String) throws -> RecordedEvent {
        try record(.habitUnarchived(habit: habit))
    }

    /// Sets the order habits are shown in (`TodayReport.habits` follows it): these first, in
    /// this order, the others after them in creation order.
    ///
    /// - Throws: ``ClientError/refused(_:_:field:)`` `unknown_habit`, or `invalid_input` when a
    ///   habit is listed twice.
    @discardableResult
    public func order(_ habits: [String]) throws -> RecordedEvent {
        guard Set(habits).count == habits.count else {
            throw ClientError.refused("invalid_input", "habits lists each habit at most once", field: "habits")
        }
        return try record(.order(habits: habits))
    }

    /// Pauses one habit, or every habit, for a vacation: the days `from` through `until`
    /// neither extend nor break a streak and spend no freeze.
    ///
    /// - Parameters:
    ///   - habit: The habit's id, or `nil` for every habit.
    ///   - from: The first paused day: today, a later day, or an earlier one within the
    ///     pack's backfill window for completions.
    ///   - until: The last paused day, at most 366 days after `from`.
    ///   - note: A note ("Lisbon").
    /// - Returns: The recorded pause; its id ends it early with ``resume(pause:)``.
    /// - Throws: ``ClientError/refused(_:_:field:)`` `outside_backfill_window` (field `from`),
    ///   `unknown_habit`, or `invalid_input` for a range that runs backwards or is too long.
    @discardableResult
    public func pause(
        _ habit: String? = nil, from: LocalDay, until: LocalDay, note: String? = nil
    ) throws -> RecordedEvent {
        let days = from.distance(to: until) + 1
        guard (1...EventLimits.maximumPauseDays).contains(days) else {
            throw ClientError.refused(
                "invalid_input",
                days < 1
                    ? "until \(until) is before from \(from)"
                    : "a pause lasts at most \(EventLimits.maximumPauseDays) days, not \(days)",
                field: "until")
        }
        return try record(.pause(Pause(habit: habit, from: from, until: until, note: note)))
    }

    /// Ends a pause early: from today on its days are no longer paused.
    ///
    /// - Parameter pause: The id of the pause event (``RecordedEvent`` of ``pause(_:from:until:note:)``,
    ///   or `TodayReport.pauses`).
    /// - Throws: ``ClientError/refused(_:_:field:)`` `invalid_event` when there is no such pause.
    @discardableResult
    public func resume(pause: String) throws -> RecordedEvent {
        try record(.resume(pause: pause))
    }

    /// Buys freezes from the store with diamonds: a catalog item, or a custom number of days.
    ///
    /// - Parameters:
    ///   - item: A catalog item's id (`GET /v1/store`), or `nil` with `days`.
    ///   - days: A custom number of freeze days, or `nil` with `item`.
    /// - Returns: The wallet after the purchase.
    /// - Throws: ``ClientError/refused(_:_:field:)`` `insufficient_diamonds` (nothing is
    ///   bought), or `unknown_item`.
    @discardableResult
    public func buy(item: String? = nil, days: Int? = nil) throws -> RecordedEvent {
        try record(.purchase(item: item, days: days))
    }

    /// A new client event id: unique on every device.
    static func newEventID() -> String { "c_" + UUID().uuidString.lowercased() }

    /// The zone events are logged in: the one given, else the device's when it is an IANA
    /// zone, else the profile's.
    ///
    /// A device zone of plain UTC (`UTC`, `Etc/UTC`, `GMT`, …) is what a machine reports
    /// when nobody set its zone (servers, containers, CI); it gives way to the profile's
    /// zone, so that a terminal on such a machine does not move the user to UTC.
    func eventZone(profile: Components.Schemas.Profile) -> String {
        if let zone, ZoneOffsetTable.named(zone) != nil { return zone }
        let device = TimeZone.current.identifier
        let unset = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu"]
        if ZoneOffsetTable.named(device) != nil, !unset.contains(device) || profile.timeZone == device {
            return device
        }
        return profile.timeZone
    }

    private func outcome(
        of event: Event, duplicate: Bool, unlocks: [Unlock], user: inout MomentumUser, now: Date,
        profile: Components.Schemas.Profile
    ) -> RecordedEvent {
        let report = TodayReport.evaluate(&user, now: now, profileZone: profile.timeZone)
        engine = user
        var recent: [String] = []
        var messages: [String: Message] = [:]
        if let zone = ZoneOffsetTable.named(report.timeZone) ?? ZoneOffsetTable.named("UTC") {
            messages = MessageCatalog.standard.translated(Self.translation(of: profile)).messages(
                for: unlocks, subjects: user.achievements.subjects, clock: user.streaks.clock, zone: zone,
                recentTemplateIDs: &recent)
        }
        return RecordedEvent(
            event: event, duplicate: duplicate,
            habit: event.payload.habitID.flatMap { id in report.habits.first { $0.definition.id == id } },
            wallet: report.wallet, unlocks: unlocks, messages: messages)
    }
}
