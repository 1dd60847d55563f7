import Foundation
import MomentumCore

/// One fuzz input replayed through MomentumCore as the server would: decoded, appended,
/// then read by every route that reads.
///
/// This file is compiled twice: into the core tests (which replay the fuzzer's findings)
/// and, through a symbolic link, into the fuzzer (`Fuzz/Sources/momentum-fuzz`). It uses
/// MomentumCore's public API only.
///
/// The input's first byte chooses the user (``Setup``); the rest is a JSONL event log,
/// decoded line by line with the real decoder (a line that does not decode is skipped, as
/// the server refuses it). Each event is appended at ``now`` as a push stores it (instant
/// canonical, detected at the push), and then every read the server makes is run:
///
/// - `GET /v1/today`, `/v1/habits`, `/v1/habits/{habit}`, `/v1/wallet`, `/v1/freeze-offers`
///   and the web pages: the user's state with 1, 7, 90, 91 and 3,650 days of calendar, and
///   the projection's (7 days, in the latest event's zone);
/// - `GET /v1/analytics`, `/v1/stats` and the habit page: user analytics (per-habit
///   analytics, strength, coaching, consistency, comparison, profile statistics);
/// - `GET /v1/achievements`: the clock moved to now, unlocks sorted, locked rules;
/// - `GET /v1/progression` and the Journey page: the engagement summary (messages, memory
///   book, celebration queue, progression timelines, statistics, highlights, affirmations);
/// - memories: one per unlock as the projection stores it, "on this day";
/// - celebrations: the stored planner (enqueue, session start, next, shown, dismissed) and
///   its JSON round trip;
/// - share cards: the SVG card of the first and last memories, the formats in turn.
///
/// Besides traps (which end the process), it reports contract failures: an answer that
/// does not encode as JSON (the server would answer 500 on every read), an event or planner
/// that does not read back as stored (the store could not reload the user).
enum FuzzReadPipeline {
    /// The instant every push and read happens at: 2026-06-15T12:00:00Z, after the example
    /// logs' last events.
    static let now = Date(timeIntervalSince1970: 1_781_524_800)

    /// The profile's zone, used before the first event names one.
    static let profileZone = "UTC"

    /// The user a fuzz input is replayed for, from its first byte.
    struct Setup {
        var pack: RulePack
        var dayStartHour: Int
        var preferences: CelebrationPreferences

        /// `h`, `o`, `s`, `g` choose the habits, ollie, savings and growth packs with days
        /// starting at midnight, `H`, `O`, `S`, `G` the same with days starting at 4:00; any
        /// other byte `b` chooses pack `b % 4` (in that order) and day-start hour
        /// `(b / 4) % 24`. The celebration style is full, except for bytes ≥ 0xC0, which
        /// cycle through subtle, minimal and off.
        init(byte: UInt8?) {
            let packs: [RulePack] = [.habits, .ollie, .savings, .growth]
            let b = byte ?? UInt8(ascii: "h")
            if let index = Array("hosg".utf8).firstIndex(of: b) {
                (pack, dayStartHour) = (packs[index], 0)
            } else if let index = Array("HOSG".utf8).firstIndex(of: b) {
                (pack, dayStartHour) = (packs[index], 4)
            } else {
                (pack, dayStartHour) = (packs[Int(b % 4)], Int(b / 4) % 24)
            }
            let styles: [CelebrationStyle] = [.full, .subtle, .minimal, .off]
            preferences = CelebrationPreferences(style: b >= 0xC0 ? styles[Int(b % 4)] : .full)
        }
    }

    /// What a replay did, to check that a seed reaches deep into the pipeline.
    struct Outcome {
        var decoded = 0
        var applied = 0
        var habits = 0
        var unlocks = 0
        var memories = 0
        var cards = 0
        /// Contract failures (see the type's documentation); empty when all is well.
        var failures: [String] = []
    }

    /// At most this many memories get share cards (each card is a separate request), the
    /// first and the last ones, each in one format, in turn.
    static let cardLimit = 4

    /// Replays `input` (first byte: ``Setup``; the rest: a JSONL event log).
    static func run(_ input: some Collection<UInt8>) -> Outcome {
        let setup = Setup(byte: input.first)
        let log = Data(input.dropFirst())
        var outcome = Outcome()

        // Decode, as a push does (a line that does not decode is answered 422).
        let (numbered, _) = EventLog.read(log)
        let events = numbered.map { line in
            var event = line.event
            event.at = RFC3339.stored(event.at)
            return event
        }
        outcome.decoded = events.count

        // Append, as the store does, then move the clock to the push.
        var user = MomentumUser(pack: setup.pack, dayStartHour: setup.dayStartHour)
        var granted: [Unlock] = []
        for event in events {
            guard let (result, unlocks) = try? user.append(event, now: now, detectedAt: now) else { continue }
            if result == .applied {
                outcome.applied += 1
                granted += unlocks
                check(event, &outcome)
            }
        }
        granted += user.advance(to: now)

        let zone = user.streaks.latestZone ?? profileZone
        let table = ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
        let clock = DayClock(dayStartHour: setup.dayStartHour)

        // The projection the append writes, and the dashboards.
        let projected = user.state(at: now, calendarDays: 7)
        encode(projected, "projection state", &outcome)
        for days in [1, 7, 90, 91, 3_650] {
            let state = user.state(at: now, zone: zone, calendarDays: days)
            // Encoding is the costly part; the longer calendars hold the same kinds of values.
            if days == 7 || days == 91 { encode(state, "state (\(days) days)", &outcome) }
        }
        outcome.habits = projected.habits.count

        // Analytics, coaching and statistics.
        var streaks = user.streaks
        let analytics = streaks.analytics(at: now, zone: zone)
        encode(analytics, "analytics", &outcome)
        for habit in projected.habits {
            let detail = analytics.habits.first { $0.habit == habit.definition.id }
            encode(detail, "habit analytics", &outcome)
        }
        encode(analytics.profile, "profile statistics", &outcome)
        encode(analytics.consistency, "consistency", &outcome)

        // Achievements.
        _ = user.advance(to: now)
        let unlocked = user.unlocks.sorted { ($0.achievedAt, $0.id) < ($1.achievedAt, $1.id) }
        let rules = Set(unlocked.map(\.rule))
        let locked = setup.pack.achievements.filter { !rules.contains($0.id) }.map(\.title)
        encode(unlocked, "unlocks", &outcome)
        encode(locked, "locked achievements", &outcome)
        outcome.unlocks = unlocked.count

        // The engagement summary: messages, memories, celebration queue, progression.
        let summary = user.summary(at: now, preferences: setup.preferences, zone: zone)
        encode(summary, "summary", &outcome)

        // Memories as the projection stores them, and "on this day".
        let subjects = user.achievements.subjects
        let memories = user.unlocks.compactMap { unlock in
            Memory(
                unlock: unlock, subject: unlock.subject.flatMap { subjects[$0] },
                offsetSeconds: table.offset(at: unlock.achievedAt))
        }
        outcome.memories = memories.count
        let today = projected.today
        let onThisDay = MemoryBook(memories).onThisDay(today, subjects: Array(subjects.values))
        encode(onThisDay, "memories on this day", &outcome)

        // The stored celebration planner: queued after the push, read, shown, dismissed.
        var recent: [String] = []
        let messages = MessageCatalog.standard.messages(
            for: granted, subjects: subjects, clock: clock, zone: table, recentTemplateIDs: &recent)
        var planner = CelebrationPlanner(preferences: setup.preferences, zone: table, clock: clock)
        planner.enqueue(granted, messages: messages.mapValues(\.text), at: now)
        roundTrip(planner, "celebration planner", &outcome)
        planner.startSession(id: "fuzz", at: now)
        for _ in 0..<3 {
            guard let next = planner.next(at: now) else { break }
            encode(next, "next celebration", &outcome)
            _ = planner.nextDeliveryDate(at: now)
            _ = planner.markShown(id: next.id, at: now)
            _ = planner.dismiss(id: next.id, at: now)
        }
        roundTrip(planner, "celebration planner", &outcome)

        // Share cards.
        let carded =
            memories.count <= cardLimit ? memories : memories.prefix(cardLimit / 2) + memories.suffix(cardLimit / 2)
        for (index, memory) in carded.enumerated() {
            let badge = user.unlocks.first { $0.id == memory.unlockID }?.badge
            let subject = memory.subjectID.flatMap { subjects[$0] }
            let accent = CelebrationCatalog.standard.theme(for: CelebrationCategory(memory.category)).accentColor
            let content = ShareCardContent(
                title: memory.title, achievementText: memory.caption, badge: badge ?? "🏆", date: memory.day,
                subjectName: subject?.name,
                categoryColor: ShareCardColor(hex: accent.hex) ?? ShareCardColor(red: 0, green: 122, blue: 255))
            let format = ShareCardFormat.allCases[index % ShareCardFormat.allCases.count]
            let svg = ShareCardRenderer.svg(ShareCardLayout(content: content, format: format))
            if svg.isEmpty { outcome.failures.append("empty share card for \(memory.id)") }
            outcome.cards += 1
        }
        importers(log, &outcome)
        return outcome
    }

    /// The same bytes read as another app's export (`POST /v1/imports`): as each of Loop's
    /// files and as Beaver's JSON. An export that reads is stored in a fresh account, and
    /// its CSV export must read back to the same marked days.
    static func importers(_ bytes: Data, _ outcome: inout Outcome) {
        let text = String(decoding: bytes, as: UTF8.self)
        var attempts: [HabitImport] = []
        let loopFiles: [[String: String]] = [
            ["Habits.csv": text], ["Habits.csv": "Name\nA\n", "001 A/Checkmarks.csv": text],
            ["Habits.csv": "Name\nA\n", "Checkmarks.csv": text],
        ]
        for files in loopFiles {
            if let imported = try? HabitImport.loop(files: files) { attempts.append(imported) }
        }
        if let imported = try? HabitImport.beaver(json: bytes) { attempts.append(imported) }
        for imported in attempts {
            let ids = Dictionary(imported.habits.map { ($0.key, $0.key) }, uniquingKeysWith: { a, _ in a })
            var engine = UserEngine()
            for event in imported.events(ids: ids, zone: profileZone, now: now).events {
                _ = try? engine.append(event, now: now)
            }
            let state = engine.state(at: now, zone: profileZone, calendarDays: 1)
            let days = engine.markedDays()
            let files = HabitImport.loopCSV(
                habits: state.habits.map { ($0.definition, $0.archivedDay != nil) }, days: days)
            guard let again = try? HabitImport.loop(files: Dictionary(files.map { ($0.path, $0.text) }) { a, _ in a })
            else {
                outcome.failures.append("the CSV export of an import does not read back")
                continue
            }
            var copy = UserEngine()
            for event in again.events(ids: ids, zone: profileZone, now: now).events {
                _ = try? copy.append(event, now: now)
            }
            if copy.markedDays() != days { outcome.failures.append("the CSV export of an import lost days") }
        }
    }

    /// The event as the store writes it must read back as the same event.
    private static func check(_ event: Event, _ outcome: inout Outcome) {
        do {
            let bytes = try MomentumJSON.encode(event)
            let again = try MomentumJSON.decoder().decode(Event.self, from: bytes)
            if again != event {
                outcome.failures.append(
                    "event \(event.id) reads back otherwise: \(String(decoding: bytes, as: UTF8.self))")
            }
        } catch {
            outcome.failures.append("event \(event.id) does not round-trip: \(error)")
        }
    }

    /// An answer must encode as JSON.
    private static func encode(_ value: some Encodable, _ what: String, _ outcome: inout Outcome) {
        do {
            _ = try MomentumJSON.encodeBytes(value)
        } catch {
            outcome.failures.append("\(what) does not encode: \(error)")
        }
    }

    /// A stored document must read back as written.
    private static func roundTrip<T: Codable & Equatable>(_ value: T, _ what: String, _ outcome: inout Outcome) {
        do {
            let bytes = try MomentumJSON.encode(value)
            let again = try MomentumJSON.decoder().decode(T.self, from: bytes)
            if again != value { outcome.failures.append("\(what) reads back otherwise") }
        } catch {
            outcome.failures.append("\(what) does not round-trip: \(error)")
        }
    }
}
