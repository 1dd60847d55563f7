import Foundation

/// Everything a user's achievements produce at an instant: unlocks with their messages, the
/// celebration queue, memories and progression.
public struct EngagementSummary: Hashable, Sendable, Codable {
    /// Every unlock, in the order granted.
    public var unlocks: [Unlock]
    /// A personalized message per unlock id (retroactive ones say so).
    public var messages: [String: Message]
    /// The celebrations waiting for the app.
    public var celebrations: CelebrationQueue
    /// A memory for every tier-2 and tier-3 unlock, oldest first.
    public var memories: [Memory]
    /// Stage progression (seed 001).
    public var progression: ProgressionSummary
}

/// The celebrations waiting for the app: unlocks detected today, planned by the user's
/// style and fatigue limits.
public struct CelebrationQueue: Hashable, Sendable, Codable {
    /// Each unlock detected today, with its presented tier (or none) and whether it makes a
    /// memory.
    public var enqueued: [EnqueuedUnlock]
    /// The celebration to show now, if any.
    public var next: PlannedCelebration?
    /// When to ask again, if something is held back.
    public var nextDelivery: Date?
}

/// Stage progression across methods.
public struct ProgressionSummary: Hashable, Sendable, Codable {
    /// Each practised method's timeline, by method id.
    public var timelines: [String: [ProgressionTimelineItem]]
    /// Statistics across methods.
    public var statistics: ProgressionStatistics
    /// The latest advances of the last 7 days, for a dashboard.
    public var highlights: [ProgressionHighlight]
    /// The celebration, with its affirmation, of every advance, by event id.
    public var celebrations: [String: StageCelebration]
    /// Stage events that could not be recorded (an unknown stage, a wrong `from`).
    public var rejected: [Rejection]
}

extension MomentumUser {
    /// What the user's achievements produce at `now`.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - preferences: The user's celebration style, accessibility and Do Not Disturb.
    ///   - zone: The user's current zone; by default the latest event's.
    ///   - translation: The language of every text in the summary: unlock titles (see
    ///     ``RulePack/title(for:)``), messages, celebrations, memory captions, stage names,
    ///     affirmations and highlights; English by default. Whichever language the user's
    ///     pack is in, the summary is in this one, and the choice of every message and
    ///     affirmation is the same in every language.
    public func summary(
        at now: Date, preferences: CelebrationPreferences = .standard, zone: String? = nil,
        translation: Translation = .english
    ) -> EngagementSummary {
        let zoneName = zone ?? streaks.latest?.zone ?? "UTC"
        let table = ZoneOffsetTable.named(zoneName) ?? ZoneOffsetTable.named("UTC")!
        let clock = streaks.clock
        let today = clock.localDay(of: now, in: table)
        let subjects = achievements.subjects
        let pack = translation == streaks.pack.translation ? streaks.pack : streaks.pack.translated(translation)
        // Unlocks are granted in the pack's language; in another, their titles are written again.
        let unlocks =
            translation == achievements.translation ? achievements.unlocks : pack.retitled(achievements.unlocks)

        var recent: [String] = []
        let messages = MessageCatalog.standard.translated(translation).messages(
            for: unlocks, subjects: subjects, clock: clock, zone: table, recentTemplateIDs: &recent)
        var book = MemoryBook()
        for unlock in unlocks {
            book.record(
                unlock, subject: unlock.subject.flatMap { subjects[$0] },
                offsetSeconds: table.offset(at: unlock.achievedAt), translation: translation)
        }

        var planner = CelebrationPlanner(preferences: preferences, zone: table, clock: clock)
        let detectedToday = unlocks.filter { clock.localDay(of: $0.detectedAt, in: table) == today }
        let enqueued = planner.enqueue(
            detectedToday,
            messages: Dictionary(
                uniqueKeysWithValues: detectedToday.map { ($0.id, messages[$0.id]?.text ?? $0.title) }),
            at: now)

        return EngagementSummary(
            unlocks: unlocks, messages: messages,
            celebrations: CelebrationQueue(
                enqueued: enqueued,
                next: planner.next(at: now, catalog: CelebrationCatalog.standard.translated(translation)),
                nextDelivery: planner.nextDeliveryDate(at: now)),
            memories: book.chronological, progression: progression(at: now, table: table, pack: pack))
    }

    private func progression(at now: Date, table: ZoneOffsetTable, pack: RulePack) -> ProgressionSummary {
        let translation = pack.translation
        let catalog = AffirmationCatalog.standard.translated(translation)
        let methods = pack.methods
        // An empty history cannot fail; the pack's methods were checked when it was loaded.
        var history = (try? ProgressionHistory(methods: methods)) ?? (try! ProgressionHistory(methods: []))
        var rejected: [Rejection] = []
        let name = achievements.subjects.values.first { $0.kind == "user" }?.name
        var celebrations: [String: StageCelebration] = [:]
        var recent: [String] = []
        for event in streaks.events {
            guard case .stage(let method, let from, let to, let note) = event.payload else { continue }
            do {
                try history.record(
                    StageAdvance(eventID: event.id, methodID: method, from: from, to: to, at: event.at, note: note))
                if let celebration = history.celebration(
                    forEvent: event.id, name: name, recentTemplateIDs: recent, catalog: catalog)
                {
                    celebrations[event.id] = celebration
                    recent.append(celebration.affirmation.templateID)
                    if recent.count > AffirmationCatalog.recentLimit { recent.removeFirst() }
                }
            } catch {
                rejected.append(Rejection(event: event.id, code: error.code, message: error.message))
            }
        }
        var timelines: [String: [ProgressionTimelineItem]] = [:]
        for method in history.practicedMethods { timelines[method.id] = history.timeline(for: method.id) }
        return ProgressionSummary(
            timelines: timelines, statistics: history.statistics(at: now),
            highlights: history.recentHighlights(
                at: now, zone: table, clock: streaks.clock, translation: translation),
            celebrations: celebrations,
            rejected: rejected)
    }
}
