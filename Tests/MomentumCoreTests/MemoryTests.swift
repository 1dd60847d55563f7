import Foundation
import MomentumCore
import Testing

/// Seed 000's Memory System: memories of tier-2 and tier-3 unlocks, captions, notes and
/// photos, filters, "on this day", and the JSONL memory log.
@Suite struct MemoryTests {
    static func at(_ text: String) -> Date { RFC3339.parse(text)! }
    static func day(_ text: String) -> LocalDay { LocalDay(iso8601: text)! }

    static let ollie = Subject(id: "ollie", name: "Ollie", kind: "puppy", dates: ["born": day("2025-12-01")])

    static func unlock(
        _ id: String, tier: CelebrationTier = .notable, type: String = "streak", value: Double? = 7,
        category: String = "potty", achieved: String = "2026-02-27T13:30:00Z", day: String = "2026-02-27",
        retroactive: Bool = false, subject: String? = nil, context: [String: String] = [:]
    ) -> Unlock {
        Unlock(
            id: id, rule: id.split(separator: "#").first.map(String.init) ?? id, title: "Title of \(id)",
            category: category, tier: tier, milestoneType: type, value: value, achievedAt: at(achieved),
            achievedDay: Self.day(day), detectedAt: at("2026-03-07T09:00:00Z"), retroactive: retroactive,
            subject: subject, context: context)
    }

    static func memory(
        _ id: String, day: String, category: String = "potty", subject: String? = nil
    ) -> Memory {
        Memory(
            unlock: unlock(id, category: category, achieved: "\(day)T12:00:00Z", day: day, subject: subject),
            offsetSeconds: 0)!
    }

    static let seedLine =
        #"{"time": "2026-02-27T14:30:00+01:00", "type": "milestone", "milestone_type": "streak_record", "#
        + #""milestone_value": 7, "milestone_category": "potty_outdoor", "#
        + #""photo": "memories/2026-02-27-potty-streak.jpg", "note": "So proud of our little guy!"}"#

    // MARK: - Creation and captions

    @Test func onlyTierTwoAndThreeUnlocksBecomeMemories() {
        #expect(Memory(unlock: Self.unlock("a", tier: .acknowledgment), offsetSeconds: 0) == nil)
        #expect(Memory(unlock: Self.unlock("b", tier: .notable), offsetSeconds: 0) != nil)
        #expect(Memory(unlock: Self.unlock("c", tier: .major), offsetSeconds: 0) != nil)

        var book = MemoryBook()
        let result1 = book.record(Self.unlock("a", tier: .acknowledgment), offsetSeconds: 0)
        #expect(result1 == nil)
        let result2 = book.record(Self.unlock("b"), offsetSeconds: 0)
        #expect(result2 != nil)
        let result3 = book.record(Self.unlock("b"), offsetSeconds: 0)
        #expect(result3 == nil)
        #expect(book.count == 1)
    }

    @Test func memoryKeepsTheUnlocksRealDateAndFacts() throws {
        let unlock = Self.unlock(
            "walks-every-25#50", tier: .major, type: "count", value: 50, category: "lifestyle",
            achieved: "2026-02-27T13:30:00.1234Z", retroactive: true)
        let memory = try #require(Memory(unlock: unlock, subject: Self.ollie, offsetSeconds: 3600))

        #expect(memory.id == "memory:walks-every-25#50")
        #expect(memory.unlockID == "walks-every-25#50")
        #expect(memory.rule == "walks-every-25")
        #expect(memory.title == "Title of walks-every-25#50")
        #expect(memory.category == "lifestyle")
        #expect(memory.milestoneType == "count")
        #expect(memory.milestoneValue == 50)
        #expect(memory.time == Date(timeIntervalSince1970: 1_772_199_000.123))
        #expect(memory.timestamp == "2026-02-27T14:30:00.123+01:00")
        #expect(memory.offsetSeconds == 3600)
        #expect(memory.day == Self.day("2026-02-27"))
        #expect(memory.subjectID == "ollie")
        #expect(memory.retroactive)
        #expect(memory.note == nil && memory.photo == nil)
    }

    @Test func offsetsAreKeptToWholeMinutesWithinRFC3339Range() {
        let memory = Memory(unlock: Self.unlock("a"), offsetSeconds: 19_800 + 29)!
        #expect(memory.offsetSeconds == 19_800)
        #expect(memory.timestamp == "2026-02-27T19:00:00+05:30")
        #expect(Memory(unlock: Self.unlock("b"), offsetSeconds: -100_000)!.offsetSeconds == -86_340)
        #expect(Memory(unlock: Self.unlock("c"), offsetSeconds: -9000)!.timestamp == "2026-02-27T11:00:00-02:30")
        #expect(Memory(unlock: Self.unlock("d"), offsetSeconds: 0)!.timestamp == "2026-02-27T13:30:00Z")
    }

    @Test(
        arguments: [
            ("first", nil, "potty", [:], true, "Ollie's first outdoor potty"),
            ("first", nil, "potty", [:], false, "First outdoor potty"),
            ("streak", 7, "potty", [:], false, "7 days of outdoor potty in a row"),
            ("streak", 7, "potty", [:], true, "7 days of outdoor potty in a row for Ollie"),
            ("streak", 1, "potty_outdoor", [:], false, "1 day of outdoor potty in a row"),
            (
                "streak_record", 7, "potty_outdoor", [:], true,
                "Ollie's longest streak yet: 7 days of outdoor potty in a row"
            ),
            ("streak_record", 7, "potty_outdoor", [:], false, "New record: 7 days of outdoor potty in a row"),
            ("count", 50, "lifestyle", [:], true, "Ollie's 50th walk"),
            ("count", 22, "commands", [:], false, "22nd command"),
            ("streak", 30, "streaks", ["habit": "meditation"], false, "30 days of meditation in a row"),
            ("recovery", nil, "potty", [:], true, "Ollie is back on track with outdoor potty"),
            ("amount", 1000, "savings", [:], false, "1,000 saved"),
            ("goal_completed", nil, "vacation", ["goal": "Lisbon trip"], true, "Ollie reached the Lisbon trip goal"),
            ("age", 12, "time", ["duration": "12 weeks"], true, "Ollie is 12 weeks old"),
            ("set_completed", nil, "socialization", [:], false, "Completed: Title of x"),
            ("anniversary", nil, "time", [:], true, "Ollie's Title of x"),
            ("streak", nil, "potty", [:], false, "Title of x"),
        ] as [(String, Double?, String, [String: String], Bool, String)])
    func captionsDescribeTheMilestone(
        type: String, value: Double?, category: String, context: [String: String], named: Bool, caption: String
    ) throws {
        let unlock = Self.unlock("x", type: type, value: value, category: category, context: context)
        let memory = try #require(Memory(unlock: unlock, subject: named ? Self.ollie : nil, offsetSeconds: 0))
        #expect(memory.caption == caption)
    }

    @Test func captionUsesTheContextNameWhenNoSubjectIsGiven() {
        let unlock = Self.unlock("x", type: "first", context: ["name": "Biscuit"])
        #expect(Memory(unlock: unlock, offsetSeconds: 0)!.caption == "Biscuit's first outdoor potty")
        #expect(Memory(unlock: unlock, subject: Self.ollie, offsetSeconds: 0)!.caption == "Ollie's first outdoor potty")
    }

    /// A category holds several firsts: a first's title says which, not the category.
    @Test func aFirstIsCaptionedByItsOwnTitle() {
        let night = Memory.caption(
            category: "lifestyle", milestoneType: "first", value: nil, title: "First overnight stay away from home",
            name: "Ollie")
        #expect(night == "Ollie's first overnight stay away from home")
        let weight = Memory.caption(
            category: "health", milestoneType: "first", value: nil, title: "First healthy weight at the vet", name: nil)
        #expect(weight == "First healthy weight at the vet")
        // Every first in the bundled packs names itself, never another first of its category.
        for rule in RulePack.ollie.achievements where rule.kind == .first {
            #expect(rule.title.lowercased().hasPrefix("first "), "\(rule.id): \(rule.title)")
        }
    }

    @Test func retroactiveCaptionsStayFactual() {
        let now = Memory(unlock: Self.unlock("x"), subject: Self.ollie, offsetSeconds: 0)!
        let late = Memory(unlock: Self.unlock("x", retroactive: true), subject: Self.ollie, offsetSeconds: 0)!
        #expect(late.retroactive)
        #expect(late.caption == now.caption)
        #expect(!late.caption.contains("Looks like") && !late.caption.contains("last week"))
    }

    // MARK: - Notes and photos

    @Test func notesCanBeSetAndCleared() {
        var book = MemoryBook()
        let memory = book.record(Self.unlock("a"), offsetSeconds: 0)!

        let result4 = book.setNote("So proud of our little guy!", forMemory: memory.id)

        #expect(result4)
        #expect(book[memory.id]?.note == "So proud of our little guy!")
        let result5 = book.setNote("   ", forMemory: memory.id)
        #expect(result5)
        #expect(book[memory.id]?.note == nil)
        book.setNote("Again", forMemory: memory.id)
        let result6 = book.clearNote(forMemory: memory.id)
        #expect(result6)
        #expect(book[memory.id]?.note == nil)
        let result7 = book.setNote("x", forMemory: "memory:unknown")
        #expect(!result7)
    }

    @Test func photosCanBeAttachedAndRemoved() throws {
        var book = MemoryBook()
        let memory = book.record(Self.unlock("a"), offsetSeconds: 0)!
        let photo = try MemoryPhoto(
            original: "memories/2026-02-27-potty-streak.jpg", shareCopy: "memories/share/2026-02-27-potty-streak.jpg")

        let result8 = book.attachPhoto(photo, toMemory: memory.id)

        #expect(result8)
        #expect(book[memory.id]?.photo == photo)
        #expect(book[memory.id]?.photo?.shareCopy == "memories/share/2026-02-27-potty-streak.jpg")
        let result9 = book.removePhoto(fromMemory: memory.id)
        #expect(result9)
        #expect(book[memory.id]?.photo == nil)
        let result10 = book.attachPhoto(photo, toMemory: "memory:unknown")
        #expect(!result10)
    }

    @Test func addingIsIdempotentAndKeepsTheFirstMemory() {
        var book = MemoryBook()
        let memory = book.record(Self.unlock("a"), offsetSeconds: 0)!
        book.setNote("Keep me", forMemory: memory.id)

        let result11 = book.add(memory)

        #expect(!result11)
        let result12 = book.record(Self.unlock("a"), offsetSeconds: 0)
        #expect(result12 == nil)
        #expect(book.count == 1)
        #expect(book[memory.id]?.note == "Keep me")
    }

    @Test(arguments: [
        "memories/2026-02-27-potty-streak.jpg", "memories/2026/02/walk.heic", "memories/.hidden.jpg",
        "memories/a..b.jpg",
    ])
    func photoPathsUnderMemoriesAreAccepted(path: String) throws {
        #expect(try MemoryPhoto(original: path).original == path)
    }

    @Test(arguments: [
        "/memories/a.jpg", "../a.jpg", "memories/../etc/passwd", "memories/x/../../a.jpg", "photos/a.jpg",
        "memories", "memories/", "memories//a.jpg", "memories/./a.jpg", "./memories/a.jpg", #"memories\a.jpg"#,
        "memories/a\n.jpg", "", "Memories/a.jpg",
    ])
    func photoPathsOutsideMemoriesAreRefused(path: String) {
        #expect(throws: MomentumError.self) { try MemoryPhoto(original: path) }
        let error = #expect(throws: MomentumError.self) {
            try MemoryPhoto(original: "memories/a.jpg", shareCopy: path)
        }
        #expect(error?.code == .invalidEvent)
        #expect(error?.field == "share_photo")
    }

    @Test func decodingAPhotoChecksItsPaths() throws {
        let good = #"{"original": "memories/a.jpg", "shareCopy": "memories/a-small.jpg"}"#
        let photo = try MomentumJSON.decoder().decode(MemoryPhoto.self, from: Data(good.utf8))
        #expect(photo == (try MemoryPhoto(original: "memories/a.jpg", shareCopy: "memories/a-small.jpg")))
        let bad = #"{"original": "memories/../../secret.jpg"}"#
        #expect(throws: DecodingError.self) {
            try MomentumJSON.decoder().decode(MemoryPhoto.self, from: Data(bad.utf8))
        }
    }

    // MARK: - Scrapbook, filters, on this day

    @Test func scrapbookIsNewestFirstAndFiltersByCategory() {
        let book = MemoryBook([
            Self.memory("b", day: "2026-02-10", category: "commands"),
            Self.memory("a", day: "2026-01-05", category: "potty_outdoor"),
            Self.memory("d", day: "2026-03-01", category: "potty"),
            Self.memory("c", day: "2026-02-20", category: "health"),
            Self.memory("e", day: "2026-03-02", category: "pottyish"),
        ])

        #expect(book.chronological.map(\.unlockID) == ["a", "b", "c", "d", "e"])
        #expect(book.scrapbook.map(\.unlockID) == ["e", "d", "c", "b", "a"])
        #expect(book.memories(inCategory: "potty").map(\.unlockID) == ["d", "a"])
        #expect(book.memories(inCategory: "potty_outdoor").map(\.unlockID) == ["a"])
        #expect(book.memories(inCategory: "health").map(\.unlockID) == ["c"])
        #expect(book.memories(inCategory: "time").isEmpty)
        #expect(book.categories == ["commands", "health", "potty", "potty_outdoor", "pottyish"])
    }

    @Test func onThisDayBringsBackTheSameDateInEarlierYears() {
        let book = MemoryBook([
            Self.memory("2024", day: "2024-03-14"),
            Self.memory("2025", day: "2025-03-14"),
            Self.memory("today", day: "2026-03-14"),
            Self.memory("other-day", day: "2025-03-13"),
            Self.memory("other-month", day: "2026-02-14"),
            Self.memory("leap", day: "2024-02-29"),
        ])

        #expect(book.onThisDay(Self.day("2026-03-14")).map(\.unlockID) == ["2025", "2024"])
        #expect(book.onThisDay(Self.day("2026-03-15")).isEmpty)
        // February 29 comes back on February 28 in common years, and on the 29th in leap years.
        #expect(book.onThisDay(Self.day("2025-02-28")).map(\.unlockID) == ["leap"])
        #expect(book.onThisDay(Self.day("2028-02-28")).isEmpty)
        #expect(book.onThisDay(Self.day("2028-02-29")).map(\.unlockID) == ["leap"])
    }

    @Test func onThisDayBringsBackMonthlyMemoriesWhileTheSubjectIsYoung() {
        // Given Ollie, born 2025-12-01, and memories on the 31st and the 15th of January.
        let book = MemoryBook([
            Self.memory("jan31", day: "2026-01-31", subject: "ollie"),
            Self.memory("jan15", day: "2026-01-15", subject: "ollie"),
            Self.memory("jan31-nobody", day: "2026-01-31"),
            Self.memory("jan31-stranger", day: "2026-01-31", subject: "stranger"),
        ])
        let subjects = [Self.ollie, Subject(id: "stranger", name: "Rex")]
        func shown(_ day: String) -> [String] {
            book.onThisDay(Self.day(day), subjects: subjects).map(\.unlockID)
        }

        // Then the 31st comes back on the last day of shorter months, including a 30-day April.
        #expect(shown("2026-02-28") == ["jan31"])
        #expect(shown("2026-03-31") == ["jan31"])
        #expect(shown("2026-03-30").isEmpty)
        #expect(shown("2026-04-30") == ["jan31"])
        #expect(shown("2026-04-29").isEmpty)
        #expect(shown("2026-02-15") == ["jan15"])
        #expect(shown("2026-01-31").isEmpty)
        // Ollie is younger than one year until 2026-12-01, so monthly memories stop then.
        #expect(shown("2026-11-30") == ["jan31"])
        #expect(shown("2026-12-15").isEmpty)
        // A year on, the yearly form brings back every one of them.
        #expect(shown("2027-01-31") == ["jan31-stranger", "jan31-nobody", "jan31"])
    }

    // MARK: - JSONL

    @Test func seedLineParsesToTheExpectedMemoryAndWritesBackIdentically() throws {
        let book = try MemoryBook(jsonl: Data((Self.seedLine + "\n").utf8))
        let memory = try #require(book.memories.first)

        #expect(book.count == 1)
        #expect(memory.time == Self.at("2026-02-27T13:30:00Z"))
        #expect(memory.offsetSeconds == 3600)
        #expect(memory.timestamp == "2026-02-27T14:30:00+01:00")
        #expect(memory.day == Self.day("2026-02-27"))
        #expect(memory.milestoneType == "streak_record")
        #expect(memory.milestoneValue == 7)
        #expect(memory.category == "potty_outdoor")
        #expect(memory.photo == (try MemoryPhoto(original: "memories/2026-02-27-potty-streak.jpg")))
        #expect(memory.note == "So proud of our little guy!")
        #expect(memory.unlockID == "potty_outdoor-streak_record-7@2026-02-27")
        #expect(memory.id == "memory:potty_outdoor-streak_record-7@2026-02-27")
        #expect(memory.rule == memory.unlockID)
        #expect(memory.title == "New record: 7 days of outdoor potty in a row")
        #expect(memory.caption == "New record: 7 days of outdoor potty in a row")
        #expect(memory.subjectID == nil)
        #expect(!memory.retroactive)

        #expect(memory.jsonLine == Self.seedLine)
        #expect(String(decoding: book.exportJSONL(), as: UTF8.self) == Self.seedLine + "\n")
    }

    /// A book exercising every field: unlock-made memories with subjects, retroactive flags,
    /// context captions, photos with share copies, awkward notes, offsets and values.
    static func richBook() throws -> MemoryBook {
        var book = try MemoryBook(jsonl: Data((seedLine + "\n").utf8))
        book.record(
            unlock("potty-first", type: "first", value: nil, achieved: "2026-01-03T07:15:00Z", day: "2026-01-03"),
            subject: ollie, offsetSeconds: -18_000)
        book.record(
            unlock(
                "walks-every-25#50", tier: .major, type: "count", value: 50, category: "lifestyle",
                achieved: "2026-03-01T01:30:00.25Z", day: "2026-02-28", retroactive: true, subject: "ollie"),
            offsetSeconds: 0)
        book.record(
            unlock(
                "savings-1k", type: "amount", value: 1234.5, category: "savings", achieved: "2026-02-01T18:00:00Z",
                day: "2026-02-01", context: ["name": "Ana"]),
            offsetSeconds: 19_800)
        book.record(
            unlock(
                "big", type: "amount", value: 1e20, category: "savings", achieved: "2026-02-02T18:00:00Z",
                day: "2026-02-02"),
            offsetSeconds: 3600)
        let first = Memory.id(forUnlock: "potty-first")
        book.setNote("He did it \"outside\"!\nLine two\tand a tab, é, 🐶, \\ and \u{1}", forMemory: first)
        book.attachPhoto(
            try MemoryPhoto(original: "memories/first.jpg", shareCopy: "memories/first-share.jpg"), toMemory: first)
        book.add(
            Memory(
                id: "custom-id", unlockID: "custom#1", rule: "custom-rule", title: "", category: "growth",
                milestoneType: "stage_reached", time: at("2026-02-15T10:00:00Z"), offsetSeconds: 3600,
                day: day("2026-02-15"), caption: "", note: ""))
        return book
    }

    @Test func exportImportExportIsByteIdentical() throws {
        let book = try Self.richBook()
        let first = book.exportJSONL()
        let imported = try MemoryBook(jsonl: first)
        let second = imported.exportJSONL()

        #expect(book.count == 6)
        #expect(second == first)
        #expect(imported.memories.map(\.id) == book.memories.map(\.id))
        for (a, b) in zip(imported.memories, book.memories) {
            #expect(a.jsonLine == b.jsonLine)
            #expect(a.unlockID == b.unlockID && a.rule == b.rule && a.title == b.title && a.caption == b.caption)
            #expect(a.day == b.day && a.offsetSeconds == b.offsetSeconds && a.subjectID == b.subjectID)
            #expect(a.note == b.note && a.photo == b.photo && a.retroactive == b.retroactive)
            #expect(a.milestoneValue == b.milestoneValue)
            #expect(abs(a.time.timeIntervalSince(b.time)) < 1e-6)
        }
        #expect(try MemoryBook(jsonl: second).exportJSONL() == first)
    }

    @Test func exportWritesTheExtraFieldsAMemoryNeeds() throws {
        let lines = String(decoding: try Self.richBook().exportJSONL(), as: UTF8.self).split(separator: "\n")
        let walks = try #require(lines.first { $0.contains("walks-every-25#50") })

        #expect(
            walks
                == #"{"time": "2026-03-01T01:30:00.250Z", "type": "milestone", "milestone_type": "count", "#
                + #""milestone_value": 50, "milestone_category": "lifestyle", "unlock": "walks-every-25#50", "#
                + #""title": "Title of walks-every-25#50", "subject": "ollie", "#
                + #""retroactive": true, "day": "2026-02-28"}"#)
        let custom = try #require(lines.first { $0.contains("custom") })
        #expect(
            custom
                == #"{"time": "2026-02-15T11:00:00+01:00", "type": "milestone", "milestone_type": "stage_reached", "#
                + #""milestone_category": "growth", "note": "", "id": "custom-id", "unlock": "custom#1", "#
                + #""rule": "custom-rule", "title": "", "caption": ""}"#)
        #expect(lines.contains { $0.contains(#""milestone_value": 1234.5"#) && $0.contains("+05:30") })
        #expect(lines.contains { $0.contains(#""milestone_value": 1e+20"#) })
        #expect(
            lines.contains {
                $0.contains(#""note": "He did it \"outside\"!\nLine two\tand a tab, é, 🐶, \\ and \u0001""#)
            })
    }

    @Test func badLinesAreAllReportedAndNothingIsImported() throws {
        // Given a book with one memory and a log mixing good lines and bad ones.
        var book = try Self.richBook()
        let before = book
        let health = #""type": "milestone", "milestone_type": "first", "milestone_category": "health""#
        let lines: [String] = [
            #"{"time": "2026-04-01T10:00:00Z", "# + health + "}",
            #"{"time": "2026-04-02T10:00:00Z", "type": "milestone""#,
            "{" + health + "}",
            "",
            "# a comment",
            #"{"time": "2026-04-03T10:00:00Z", "# + health
                + #", "milestone_value": "seven", "photo": "../secret.jpg"}"#,
            #"{"time": "2026-04-04 10:00", "type": "walk", "milestone_type": 3, "milestone_category": "health", "#
                + #""mood": "happy"}"#,
            #"[1, 2]"#,
            #"{"time": "2026-04-05T10:00:00Z", "# + health + #", "share_photo": "memories/a.jpg", "#
                + #""day": "2026-04-09", "retroactive": "yes"}"#,
            #"{"time": "2026-04-01T10:00:00Z", "# + health + #", "note": "changed"}"#,
        ]
        let log = lines.joined(separator: "\n")

        // When it is imported, then every problem is reported with its line and field.
        let error = #expect(throws: EventLogError.self) { try book.importJSONL(Data(log.utf8)) }
        let found = (error?.errors ?? []).map { "\($0.line ?? 0) \($0.field ?? "-") \($0.code)" }
        #expect(
            found == [
                "2 - malformed_event",
                "3 time malformed_event",
                "6 milestone_value malformed_event",
                "6 photo invalid_event",
                "7 mood malformed_event",
                "7 type malformed_event",
                "7 milestone_type malformed_event",
                "7 time malformed_event",
                "8 - malformed_event",
                "9 retroactive malformed_event",
                "9 share_photo invalid_event",
                "9 day invalid_event",
                "10 id invalid_event",
            ])
        #expect(error?.errors.first { $0.field == "photo" }?.message.contains("'..'") == true)
        #expect(error?.errors.first { $0.field == "type" }?.message == #"expected "milestone", found "walk""#)
        #expect(error?.errors.first { $0.line == 8 }?.message == "not a JSON object")
        // And nothing was imported.
        #expect(book == before)
        #expect(throws: EventLogError.self) { try MemoryBook(jsonl: Data(log.utf8)) }
    }

    @Test func importSkipsBlankLinesCommentsAndKnownMemories() throws {
        var book = try Self.richBook()
        let log =
            "# memories\r\n\r\n"
            + String(decoding: book.exportJSONL(), as: UTF8.self).replacingOccurrences(
                of: "\n", with: "\r\n")
        let added = try book.importJSONL(Data(log.utf8))
        #expect(added.isEmpty)
        #expect(book == (try Self.richBook()))

        var empty = MemoryBook()
        let all = try empty.importJSONL(Data((Self.seedLine + "\n" + Self.seedLine).utf8))
        #expect(all.count == 1)
        #expect(empty.exportJSONL() == Data((Self.seedLine + "\n").utf8))
    }

    @Test func bookIsCodableAsJSON() throws {
        let book = try Self.richBook()
        let data = try MomentumJSON.encoder().encode(book)
        let decoded = try MomentumJSON.decoder().decode(MemoryBook.self, from: data)
        #expect(decoded.exportJSONL() == book.exportJSONL())
    }
}
