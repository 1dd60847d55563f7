import Foundation
import MomentumCore
import Testing

/// Seed 001: progression history, timeline, statistics, highlights and celebrations.
@Suite struct ProgressionTests {
    static func at(_ text: String) -> Date { RFC3339.parse(text)! }

    static let angion = ProgressionMethod(
        id: "angion", name: "Angion Method",
        stages: [
            ProgressionStage(id: "s3", name: "Advanced", order: 3),
            ProgressionStage(id: "s1", name: "Beginner", order: 1, description: "Learn the basics"),
            ProgressionStage(id: "s4", name: "Master", order: 4),
            ProgressionStage(id: "s2", name: "Intermediate", order: 2),
        ])

    static let jelq = ProgressionMethod(
        id: "jelq", name: "Jelq Routine",
        stages: [
            ProgressionStage(id: "j1", name: "Foundation", order: 10),
            ProgressionStage(id: "j2", name: "Building", order: 20),
            ProgressionStage(id: "j3", name: "Peak", order: 30),
        ])

    /// Angion: start, +23 days, +157.5 days, +425 days 1 hour (final). Jelq: start, a skip to
    /// the final stage after 3 days, a regression 16 days later.
    static let advances = [
        StageAdvance(eventID: "e1", methodID: "angion", from: nil, to: "s1", at: at("2026-01-01T08:00:00Z")),
        StageAdvance(eventID: "e2", methodID: "angion", from: "s1", to: "s2", at: at("2026-01-24T08:00:00Z")),
        StageAdvance(eventID: "j-e1", methodID: "jelq", from: nil, to: "j1", at: at("2026-02-01T00:00:00Z")),
        StageAdvance(eventID: "j-e2", methodID: "jelq", from: "j1", to: "j3", at: at("2026-02-04T00:00:00Z")),
        StageAdvance(eventID: "j-e3", methodID: "jelq", from: "j3", to: "j2", at: at("2026-02-20T00:00:00Z")),
        StageAdvance(
            eventID: "e3", methodID: "angion", from: "s2", to: "s3", at: at("2026-06-30T20:00:00Z"), note: "Finally!"),
        StageAdvance(eventID: "e4", methodID: "angion", from: "s3", to: "s4", at: at("2027-08-29T21:00:00Z")),
    ]

    static func history() throws -> ProgressionHistory {
        try ProgressionHistory(methods: [angion, jelq], advances: advances)
    }

    // MARK: - Timeline

    @Test func methodStagesAreSortedByOrder() {
        #expect(Self.angion.stages.map(\.id) == ["s1", "s2", "s3", "s4"])
        #expect(Self.angion.finalStage?.name == "Master")
        #expect(Self.jelq.stageNumber(of: "j2") == 2)
    }

    @Test func timelineOfFourStagesAndThreeAdvancesIsExact() throws {
        let timeline = try Self.history().timeline(for: "angion")

        #expect(timeline.map(\.advance.eventID) == ["e1", "e2", "e3", "e4"])
        #expect(
            timeline.map(\.date) == [
                Self.at("2026-01-01T08:00:00Z"), Self.at("2026-01-24T08:00:00Z"), Self.at("2026-06-30T20:00:00Z"),
                Self.at("2027-08-29T21:00:00Z"),
            ])
        #expect(timeline.map(\.fromStageName) == [nil, "Beginner", "Intermediate", "Advanced"])
        #expect(timeline.map(\.toStageName) == ["Beginner", "Intermediate", "Advanced", "Master"])
        #expect(timeline.map(\.kind) == [.start, .advance, .advance, .advance])
        #expect(timeline.map(\.stageNumber) == [1, 2, 3, 4])
        #expect(timeline.allSatisfy { $0.stageCount == 4 })
        #expect(timeline.map(\.isFinalStage) == [false, false, false, true])
        #expect(timeline.allSatisfy { $0.skippedStages.isEmpty })
        #expect(
            timeline.map { $0.timeAtPreviousStage?.description } == [
                nil, "3 weeks, 2 days", "5 months, 1 week", "1 year, 2 months",
            ])
        #expect(timeline.map { $0.timeAtPreviousStage?.wholeDays } == [nil, 23, 157, 425])
        #expect(timeline[1].timeAtPreviousStage?.seconds == TimeInterval(23 * 86_400))
        #expect(timeline[2].timeAtPreviousStage?.seconds == TimeInterval(157 * 86_400 + 12 * 3_600))
        #expect(timeline[3].timeAtPreviousStage?.seconds == TimeInterval(425 * 86_400 + 3_600))
        #expect(timeline[2].advance.note == "Finally!")
    }

    @Test func achievementsBelongToTheStageThatWasLeft() throws {
        let accomplishments = ["s1": ["12 sessions"], "s2": ["30 sessions", "first 20-minute session"]]
        let timeline = try Self.history().timeline(for: "angion", accomplishments: accomplishments)

        #expect(timeline.map(\.achievements) == [[], ["12 sessions"], ["30 sessions", "first 20-minute session"], []])
    }

    @Test func skippingForwardRecordsSkippedStagesAndGoingBackIsARegression() throws {
        let timeline = try Self.history().timeline(for: "jelq")

        #expect(timeline.map(\.kind) == [.start, .advance, .regression])
        #expect(timeline[1].skippedStages.map(\.name) == ["Building"])
        #expect(timeline[1].isFinalStage)
        #expect(timeline[2].skippedStages.isEmpty)
        #expect(timeline[2].timeAtPreviousStage?.description == "2 weeks, 2 days")
    }

    @Test func practicedMethodsAndCurrentStages() throws {
        let unused = ProgressionMethod(id: "unused", name: "Unused", stages: [.init(id: "u", name: "U", order: 1)])
        let history = try ProgressionHistory(methods: [Self.angion, unused, Self.jelq], advances: Self.advances)

        #expect(history.practicedMethods.map(\.id) == ["angion", "jelq"])
        #expect(history.currentStage(of: "angion")?.id == "s4")
        #expect(history.currentStage(of: "jelq")?.id == "j2")
        #expect(history.currentStage(of: "unused") == nil)
        #expect(history.timeline(for: "unused").isEmpty)
        #expect(history.timeline(for: "nope").isEmpty)
    }

    // MARK: - Durations

    static let hour: TimeInterval = 3_600
    static let day: TimeInterval = 86_400
    /// Seconds at a stage and the phrase for them, worked out by hand from the documented rules.
    static let durationTable: [(seconds: TimeInterval, phrase: String)] = [
        (0, "less than a day"),
        (23 * Self.hour, "less than a day"),
        (Self.day - 1, "less than a day"),
        (Self.day, "1 day"),
        (47 * Self.hour, "1 day"),
        (2 * Self.day, "2 days"),
        (7 * Self.day, "1 week"),
        (16 * Self.day, "2 weeks, 2 days"),
        (23 * Self.day, "3 weeks, 2 days"),
        (29 * Self.day, "4 weeks, 1 day"),
        (30 * Self.day, "1 month"),
        (45 * Self.day, "1 month, 2 weeks"),
        (157 * Self.day, "5 months, 1 week"),
        (365 * Self.day, "1 year"),
        (368 * Self.day, "1 year, 3 days"),
        (400 * Self.day, "1 year, 1 month"),
        (425 * Self.day, "1 year, 2 months"),
        (800 * Self.day, "2 years, 2 months"),
        (-5, "less than a day"),
    ]

    @Test(arguments: durationTable)
    func durationPhrases(seconds: Double, phrase: String) {
        #expect(StageDuration(seconds: seconds).description == phrase)
    }

    @Test func wholeDaysRoundDown() {
        #expect(StageDuration(seconds: 23 * 3_600).wholeDays == 0)
        #expect(StageDuration(seconds: 47 * 3_600).wholeDays == 1)
        #expect(StageDuration(seconds: -10).seconds == 0)
        #expect(StageDuration(from: Self.at("2026-01-02T00:00:00Z"), to: Self.at("2026-01-01T00:00:00Z")).seconds == 0)
    }

    // MARK: - Statistics

    @Test func statisticsAcrossTwoMethods() throws {
        // Given records up to 2026-03-01: Angion s1 → s2; Jelq j1 → j3 (3 days) → j2 (16 days later)
        let stats = try Self.history().statistics(at: Self.at("2026-03-01T00:00:00Z"))

        // Then the later Angion advances do not count yet
        #expect(stats.methodsPracticed == 2)
        #expect(stats.totalAdvances == 2)
        #expect(stats.regressions == 1)
        #expect(stats.currentStages.map(\.methodID) == ["angion", "jelq"])
        #expect(stats.currentStages.map(\.stage.id) == ["s2", "j2"])
        #expect(stats.currentStages.map(\.stageNumber) == [2, 2])
        #expect(stats.currentStages.map(\.stageCount) == [4, 3])
        #expect(stats.standing(in: "angion")?.timeAtStage.seconds == TimeInterval(35 * 86_400 + 16 * 3_600))
        #expect(stats.standing(in: "angion")?.timeAtStage.description == "1 month, 5 days")
        #expect(stats.standing(in: "jelq")?.since == Self.at("2026-02-20T00:00:00Z"))
        // Stays: s1 23 days, j1 3 days, j3 16 days → mean 14 days
        #expect(stats.averageTimeAtStage == StageDuration(seconds: 14 * 86_400))
        #expect(stats.averageTimeAtStage?.description == "2 weeks")
        #expect(stats.longestStay?.stage.id == "s1")
        #expect(stats.longestStay?.duration.wholeDays == 23)
        #expect(stats.longestStay?.endedBy.eventID == "e2")
        #expect(stats.fastestAdvance?.stage.id == "j1")
        #expect(stats.fastestAdvance?.duration.description == "3 days")
        #expect(stats.fastestAdvance?.methodName == "Jelq Routine")
        // The last advance was j1 → j3 on 2026-02-04; the regression is not an advance.
        #expect(stats.timeSinceLastAdvance?.description == "3 weeks, 4 days")
        #expect(stats.methodsAtFinalStage.isEmpty)
    }

    @Test func statisticsAreComputedAtTheGivenInstant() throws {
        let history = try Self.history()

        let early = history.statistics(at: Self.at("2026-02-10T00:00:00Z"))
        #expect(early.methodsAtFinalStage == ["jelq"])
        #expect(early.regressions == 0)
        #expect(early.timeSinceLastAdvance?.wholeDays == 6)

        let late = history.statistics(at: Self.at("2028-01-01T00:00:00Z"))
        #expect(late.totalAdvances == 4)
        #expect(late.methodsAtFinalStage == ["angion"])
        #expect(late.longestStay?.stage.name == "Advanced")
        #expect(late.longestStay?.duration.description == "1 year, 2 months")
        #expect(late.fastestAdvance?.endedBy.eventID == "j-e2")

        let before = history.statistics(at: Self.at("2025-12-31T00:00:00Z"))
        #expect(before.methodsPracticed == 0)
        #expect(before.averageTimeAtStage == nil)
        #expect(before.longestStay == nil)
        #expect(before.fastestAdvance == nil)
        #expect(before.timeSinceLastAdvance == nil)
    }

    @Test func equalStaysGoToTheOneThatEndedFirst() throws {
        let method = ProgressionMethod(
            id: "m", name: "M", stages: (1...3).map { ProgressionStage(id: "m\($0)", name: "M\($0)", order: $0) })
        let history = try ProgressionHistory(
            methods: [method],
            advances: [
                StageAdvance(eventID: "a", methodID: "m", from: nil, to: "m1", at: Self.at("2026-01-01T00:00:00Z")),
                StageAdvance(eventID: "b", methodID: "m", from: "m1", to: "m2", at: Self.at("2026-01-05T00:00:00Z")),
                StageAdvance(eventID: "c", methodID: "m", from: "m2", to: "m3", at: Self.at("2026-01-09T00:00:00Z")),
            ])

        let stats = history.statistics(at: Self.at("2026-01-10T00:00:00Z"))

        #expect(stats.longestStay?.endedBy.eventID == "b")
        #expect(stats.fastestAdvance?.endedBy.eventID == "b")
    }

    // MARK: - Highlights

    @Test func highlightsAreRecentAdvancesNewestFirst() throws {
        let history = try Self.history()
        let utc = try #require(ZoneOffsetTable.named("UTC"))
        let now = Self.at("2026-02-05T10:00:00Z")

        let week = history.recentHighlights(at: now, withinDays: 7, limit: 3, zone: utc)
        #expect(week.map(\.item.advance.eventID) == ["j-e2"])
        #expect(week.map(\.sentence) == ["Reached Peak, the final stage of Jelq Routine, yesterday."])

        let fortnight = history.recentHighlights(at: now, withinDays: 14, limit: 3, zone: utc)
        #expect(fortnight.map(\.item.advance.eventID) == ["j-e2", "e2"])
        #expect(fortnight.map(\.daysAgo) == [1, 12])
        #expect(fortnight.last?.sentence == "Reached Intermediate in Angion Method 12 days ago.")
        #expect(fortnight.last?.day == LocalDay(year: 2026, month: 1, day: 24))

        #expect(history.recentHighlights(at: now, withinDays: 14, limit: 1, zone: utc).count == 1)
        #expect(history.recentHighlights(at: now, withinDays: 0, zone: utc).isEmpty)
    }

    @Test func highlightsSkipStartsRegressionsAndTheFuture() throws {
        let history = try Self.history()
        let utc = try #require(ZoneOffsetTable.named("UTC"))

        let today = history.recentHighlights(at: Self.at("2026-01-24T09:00:00Z"), withinDays: 30, zone: utc)
        #expect(today.map(\.sentence) == ["Reached Intermediate in Angion Method today."])

        let afterRegression = history.recentHighlights(at: Self.at("2026-02-21T00:00:00Z"), withinDays: 3, zone: utc)
        #expect(afterRegression.isEmpty)
    }

    @Test func highlightWindowCountsLocalDaysInTheUsersZone() throws {
        // j-e2 at 2026-02-04T00:00Z is Feb 3, 16:00 in Los Angeles; now is Feb 5, 02:00 there.
        let history = try Self.history()
        let losAngeles = try #require(ZoneOffsetTable.named("America/Los_Angeles"))
        let utc = try #require(ZoneOffsetTable.named("UTC"))
        let now = Self.at("2026-02-05T10:00:00Z")

        let inLA = history.recentHighlights(at: now, withinDays: 3, zone: losAngeles)
        #expect(inLA.map(\.daysAgo) == [2])
        #expect(inLA.first?.sentence == "Reached Peak, the final stage of Jelq Routine, 2 days ago.")
        #expect(history.recentHighlights(at: now, withinDays: 2, zone: losAngeles).isEmpty)
        #expect(history.recentHighlights(at: now, withinDays: 2, zone: utc).count == 1)
    }

    // MARK: - Affirmations and celebrations

    @Test func affirmationsArePersonalized() throws {
        let catalog = AffirmationCatalog(
            templates: [
                AffirmationTemplate(
                    id: "all", kind: .advance,
                    text: "{name}: {method} {from} to {to} after {duration}, stage {stage_number}/{stage_count}."),
                AffirmationTemplate(
                    id: "plain", kind: .advance, text: "{to} in {method}. {unknown} stays as {written."),
            ],
            titles: [.advance: "Stage {stage_number}: {to}"])
        let item = try #require(try Self.history().item(forEvent: "e2"))

        let named = catalog.affirmation(for: item, name: "Sam", recentTemplateIDs: ["plain"])
        #expect(named.templateID == "all")
        #expect(named.text == "Sam: Angion Method Beginner to Intermediate after 3 weeks, 2 days, stage 2/4.")

        // Without a (non-blank) name, templates that use {name} are not candidates.
        for name in [nil, "", "   "] {
            let anonymous = catalog.affirmation(for: item, name: name, recentTemplateIDs: [])
            #expect(anonymous.templateID == "plain")
            #expect(anonymous.text == "Intermediate in Angion Method. {unknown} stays as {written.")
        }
        #expect(catalog.templates[1].placeholders == ["to", "method"])
        #expect(catalog.celebration(for: item).title == "Stage 2: Intermediate")
    }

    @Test func standardCatalogChoiceIsPinnedByTheEventIDHash() throws {
        // FNV-1a 64 of the event id, modulo the number of allowed templates, indexes them in catalog order.
        let history = try Self.history()
        func text(_ eventID: String, name: String? = nil) throws -> String {
            try #require(history.celebration(forEvent: eventID, name: name)).affirmation.text
        }

        #expect(try text("e1") == "A fresh start: Beginner in Angion Method. Show up, and the stages follow.")
        #expect(try text("e2") == "From Beginner to Intermediate: your Angion Method practice keeps growing.")
        #expect(
            try text("e2", name: "Sam")
                == "After 3 weeks, 2 days at Beginner, you've reached Intermediate. Your practice is paying off.")
        #expect(
            try text("j-e3") == "Back to Building in Jelq Routine. Every journey has switchbacks, and you've got this.")
        #expect(history.celebration(forEvent: "missing") == nil)
    }

    @Test func aTemplateAmongTheLastThreeIsNeverRepeated() throws {
        let history = try Self.history()
        let item = try #require(history.item(forEvent: "e2"))
        let catalog = AffirmationCatalog.standard

        // The four name-free advance templates; three were just used, so the fourth is the only choice.
        let recent = ["advance.1", "advance.2", "advance.3"]
        #expect(catalog.affirmation(for: item, recentTemplateIDs: recent).templateID == "advance.4")
        // Only the last three count: advance.4 four messages ago may come back.
        let older = ["advance.4"] + recent
        #expect(catalog.affirmation(for: item, recentTemplateIDs: older).templateID == "advance.4")

        // Simulate a long run of celebrations: no choice repeats any of the previous three.
        var used: [String] = []
        for n in 0..<60 {
            let advance = StageAdvance(
                eventID: "event-\(n)", methodID: "angion", from: "s1", to: "s2", at: Self.at("2026-01-24T08:00:00Z"))
            let synthetic = ProgressionTimelineItem(
                advance: advance, methodName: item.methodName, kind: item.kind, fromStage: item.fromStage,
                toStage: item.toStage, skippedStages: [], stageNumber: 2, stageCount: 4,
                timeAtPreviousStage: item.timeAtPreviousStage)
            let chosen = catalog.affirmation(
                for: synthetic, name: n.isMultiple(of: 2) ? "Sam" : nil, recentTemplateIDs: used)
            #expect(!used.suffix(3).contains(chosen.templateID))
            #expect(
                catalog.affirmation(for: synthetic, name: n.isMultiple(of: 2) ? "Sam" : nil, recentTemplateIDs: used)
                    == chosen)
            used.append(chosen.templateID)
        }
        #expect(Set(used).count >= 4)
    }

    @Test func whenEveryCandidateWasRecentTheOldestIsReused() throws {
        let catalog = AffirmationCatalog(
            templates: [
                AffirmationTemplate(id: "x", kind: .advance, text: "X {to}"),
                AffirmationTemplate(id: "y", kind: .advance, text: "Y {to}"),
            ],
            titles: [:])
        let item = try #require(try Self.history().item(forEvent: "e2"))

        #expect(catalog.affirmation(for: item, recentTemplateIDs: ["y", "x"]).templateID == "y")
        #expect(catalog.affirmation(for: item, recentTemplateIDs: ["x", "y"]).templateID == "x")
        #expect(catalog.affirmation(for: item, recentTemplateIDs: ["x", "y", "x"]).templateID == "y")
    }

    @Test func reachingTheFinalStageHasItsOwnWording() throws {
        let history = try Self.history()

        let celebration = try #require(history.celebration(forEvent: "e4"))
        #expect(celebration.isFinalStage)
        #expect(!celebration.isFastAdvance)
        #expect(celebration.title == "Final stage reached: Master")
        #expect(celebration.affirmation.kind == .finalStage)
        #expect(
            celebration.affirmation.text == "You've reached Master, the final stage of Angion Method. What a journey!")
        let named = try #require(history.celebration(forEvent: "e4", name: "Sam"))
        #expect(named.affirmation.text == "All 4 stages of Angion Method: you made it to the top!")

        // A final stage reached fast is worded as final, and still flagged fast.
        let quickFinal = try #require(history.celebration(forEvent: "j-e2"))
        #expect(quickFinal.isFinalStage)
        #expect(quickFinal.isFastAdvance)
        #expect(quickFinal.affirmation.templateID == "final.4")
        #expect(quickFinal.affirmation.text == "Final stage reached! Peak is the reward for every session you put in.")
    }

    @Test func fastAdvancesStartsAndRegressionsHaveTheirOwnWording() throws {
        let history = try ProgressionHistory(
            methods: [Self.angion],
            advances: [
                StageAdvance(
                    eventID: "q1", methodID: "angion", from: nil, to: "s1", at: Self.at("2026-01-01T00:00:00Z")),
                StageAdvance(
                    eventID: "q2", methodID: "angion", from: "s1", to: "s2", at: Self.at("2026-01-03T00:00:00Z")),
                StageAdvance(
                    eventID: "q3", methodID: "angion", from: "s2", to: "s1", at: Self.at("2026-01-20T00:00:00Z")),
            ])

        let fast = try #require(history.celebration(forEvent: "q2"))
        #expect(fast.isFastAdvance)
        #expect(!fast.isFinalStage)
        #expect(fast.affirmation.kind == .fastAdvance)
        #expect(fast.affirmation.templateID.hasPrefix("fast."))
        #expect(fast.title == "Quick climb to Intermediate")
        #expect(try #require(history.celebration(forEvent: "q1")).title == "Angion Method started")
        let back = try #require(history.celebration(forEvent: "q3"))
        #expect(back.title == "Back to Beginner")
        #expect(back.affirmation.kind == .regression)
        #expect(!back.isFastAdvance)
    }

    // MARK: - Validation

    func refusal(_ advance: StageAdvance) throws -> MomentumError? {
        var history = try Self.history()
        let before = history
        do {
            try history.record(advance)
            return nil
        } catch {
            #expect(history == before)
            return error
        }
    }

    @Test func unknownMethodsAndStagesAreRefused() throws {
        let at = Self.at("2028-01-01T00:00:00Z")

        let method = try #require(
            try refusal(StageAdvance(eventID: "x", methodID: "yoga", from: nil, to: "s1", at: at)))
        #expect(method.code == .invalidEvent)
        #expect(method.field == "method")
        #expect(method.message == "advance 'x' names method 'yoga', which is not declared")

        let to = try #require(try refusal(StageAdvance(eventID: "x", methodID: "jelq", from: "j2", to: "j9", at: at)))
        #expect(to.field == "to")
        #expect(to.message == "advance 'x': 'Jelq Routine' has no stage 'j9'")

        let from = try #require(try refusal(StageAdvance(eventID: "x", methodID: "jelq", from: "j0", to: "j3", at: at)))
        #expect(from.field == "from")
    }

    @Test func aFromStageThatIsNotTheCurrentStageIsRefused() throws {
        let at = Self.at("2028-01-01T00:00:00Z")

        let wrong = try #require(
            try refusal(StageAdvance(eventID: "x", methodID: "jelq", from: "j1", to: "j3", at: at)))
        #expect(wrong.code == .invalidEvent)
        #expect(wrong.field == "from")
        #expect(wrong.message == "advance 'x' leaves stage 'j1', but the user is at stage 'j2' of 'Jelq Routine'")

        let missing = try #require(
            try refusal(StageAdvance(eventID: "x", methodID: "jelq", from: nil, to: "j3", at: at)))
        #expect(missing.field == "from")
        #expect(missing.message.contains("has no 'from'"))

        let unstarted = ProgressionMethod(
            id: "new", name: "New",
            stages: [.init(id: "n1", name: "N1", order: 1), .init(id: "n2", name: "N2", order: 2)])
        let first = #expect(throws: MomentumError.self) {
            try ProgressionHistory(
                methods: [unstarted],
                advances: [StageAdvance(eventID: "n", methodID: "new", from: "n1", to: "n2", at: at)])
        }
        #expect(first?.field == "from")
        #expect(
            first?.message
                == "advance 'n' leaves stage 'n1', but 'New' has not been started, and the first advance of a method "
                + "has no 'from'")
    }

    @Test func outOfOrderSameStageAndReusedIDsAreRefused() throws {
        let early = try #require(
            try refusal(
                StageAdvance(eventID: "x", methodID: "jelq", from: "j2", to: "j3", at: Self.at("2026-02-19T00:00:00Z")))
        )
        #expect(early.field == "at")
        #expect(
            early.message
                == "advance 'x' at 2026-02-19T00:00:00Z is earlier than the previous advance of 'Jelq Routine' "
                + "('j-e3' at 2026-02-20T00:00:00Z)")

        let same = try #require(
            try refusal(
                StageAdvance(eventID: "x", methodID: "jelq", from: "j2", to: "j2", at: Self.at("2026-03-01T00:00:00Z")))
        )
        #expect(same.field == "to")

        let reused = try #require(
            try refusal(
                StageAdvance(eventID: "e1", methodID: "jelq", from: "j2", to: "j3", at: Self.at("2026-03-01T00:00:00Z"))
            ))
        #expect(reused.code == .conflictingEventID)
        #expect(reused.field == "id")
    }

    @Test func recordingTheSameAdvanceTwiceIsHarmless() throws {
        var history = try Self.history()
        let item = try history.record(Self.advances[1])

        #expect(item.advance.eventID == "e2")
        #expect(history.allItems.count == Self.advances.count)
        #expect(history == (try Self.history()))
    }

    @Test func invalidMethodsAreRefusedAsInvalidPacks() {
        func refusal(of methods: [ProgressionMethod]) -> MomentumError? {
            do {
                _ = try ProgressionHistory(methods: methods)
                return nil
            } catch {
                return error
            }
        }
        let empty = ProgressionMethod(id: "e", name: "E", stages: [])
        let twiceID = ProgressionMethod(
            id: "d", name: "D", stages: [.init(id: "a", name: "A", order: 1), .init(id: "a", name: "B", order: 2)])
        let twiceOrder = ProgressionMethod(
            id: "o", name: "O", stages: [.init(id: "a", name: "A", order: 1), .init(id: "b", name: "B", order: 1)])

        #expect(refusal(of: [empty])?.field == "stages")
        #expect(refusal(of: [twiceID])?.field == "stages.id")
        #expect(refusal(of: [twiceOrder])?.field == "stages.order")
        #expect(refusal(of: [Self.jelq, Self.jelq])?.field == "id")
        #expect(refusal(of: [Self.jelq, empty])?.code == .invalidPack)
        #expect(refusal(of: [Self.angion, Self.jelq]) == nil)
    }

    // MARK: - Wire format

    @Test func methodsAndAdvancesReadFromJSON() throws {
        let pack = Data(
            #"""
            {"id": "angion", "name": "Angion Method", "stages": [
                {"id": "s2", "name": "Intermediate", "order": 2},
                {"id": "s1", "name": "Beginner", "order": 1, "description": "Learn the basics"},
                {"id": "s4", "name": "Master", "order": 4},
                {"id": "s3", "name": "Advanced", "order": 3}
            ]}
            """#.utf8)
        let method = try MomentumJSON.decoder().decode(ProgressionMethod.self, from: pack)
        #expect(method == Self.angion)

        let line = Data(#"{"id":"e2","at":"2026-01-24T08:00:00Z","method":"angion","from":"s1","to":"s2"}"#.utf8)
        let advance = try MomentumJSON.decoder().decode(StageAdvance.self, from: line)
        #expect(advance == Self.advances[1])
        let encoded = String(decoding: try MomentumJSON.encoder().encode(advance), as: UTF8.self)
        #expect(encoded == #"{"at":"2026-01-24T08:00:00Z","from":"s1","id":"e2","method":"angion","to":"s2"}"#)

        let catalog = try MomentumJSON.decoder().decode(
            AffirmationCatalog.self, from: try MomentumJSON.encoder().encode(AffirmationCatalog.standard))
        #expect(catalog == .standard)
    }
}
