import Foundation
import MomentumCore
import MomentumTestSupport
import Testing

/// Milestones of the user's own (seed 000, open question 5): defined by `milestone`
/// events, they unlock, celebrate and make memories like the pack's.
@Suite struct CustomMilestoneTests {
    private func milestone(
        _ id: String, _ title: String, rule: CustomMilestone.Rule, kind: String? = nil, item: String? = nil,
        breaks: String? = nil, breaksItem: String? = nil, habit: String? = nil, target: Int? = nil,
        tier: CelebrationTier = .notable, message: String? = nil
    ) -> Event.Payload {
        .milestone(
            CustomMilestone(
                id: id, title: title, message: message, tier: tier, badge: "🏅", rule: rule, kind: kind, item: item,
                breaks: breaks, breaksItem: breaksItem, habit: habit, target: target))
    }

    private func walk(_ item: String? = nil) -> Event.Payload { .activity(Activity(kind: "walk", item: item)) }

    /// Appends every event as it arrives (at its own instant) and returns the user.
    private func live(_ log: Log, pack: RulePack = .habits) throws -> MomentumUser {
        var user = MomentumUser(pack: pack)
        for event in log.events { try user.append(event, now: event.at) }
        return user
    }

    private func custom(_ user: MomentumUser) -> [Unlock] {
        user.unlocks.filter { CustomMilestone.isCustom($0.rule) }
    }

    @Test func aMomentHappensWhenItIsDefined() throws {
        var log = Log()
        log.add(
            milestone("beach", "First beach day", rule: .moment, tier: .major, message: "Sand in every paw!"),
            on: day(10), hour: 15)
        let user = try live(log)
        let unlock = try #require(custom(user).first)
        #expect(custom(user).count == 1)
        #expect(unlock.rule == "custom:beach")
        // One occurrence per generation: the id names the event that defined it.
        #expect(unlock.id == "custom:beach#e1")
        #expect(unlock.title == "First beach day")
        #expect(unlock.tier == .major)
        #expect(unlock.category == "custom")
        #expect(unlock.milestoneType == "moment")
        #expect(unlock.badge == "🏅")
        #expect(unlock.achievedAt == log.instant(day(10), hour: 15))
        #expect(!unlock.retroactive)
        #expect(unlock.context["message"] == "Sand in every paw!")
        #expect(user.achievements.customMilestones.map(\.id) == ["beach"])
    }

    @Test func aCountAlreadyReachedUnlocksRetroactivelyOnTheDayItWasReached() throws {
        var log = Log()
        for n in 1...5 { log.add(walk(), on: day(n)) }
        log.add(milestone("walks-3", "3 walks", rule: .count, kind: "walk", target: 3), on: day(20))
        let user = try live(log)
        let unlock = try #require(custom(user).first)
        #expect(custom(user).count == 1)
        #expect(unlock.id == "custom:walks-3#e6")
        #expect(unlock.achievedDay == day(3))
        #expect(unlock.retroactive)
        #expect(unlock.value == 3)
        #expect(user.achievements.progress(ofMilestone: "walks-3", in: user.streaks) == .init(current: 3, target: 3))
    }

    @Test func aCountDefinedAheadUnlocksWhenReachedAndShowsProgress() throws {
        var log = Log()
        log.add(
            milestone("beach-3", "Three beach walks", rule: .count, kind: "walk", item: "beach", target: 3), on: day(1))
        log.add(walk("beach"), on: day(2))
        log.add(walk("park"), on: day(3))
        log.add(walk("beach"), on: day(4))
        var user = try live(log)
        #expect(custom(user).isEmpty)
        #expect(user.achievements.progress(ofMilestone: "beach-3", in: user.streaks) == .init(current: 2, target: 3))
        let event = Event(id: "last", at: log.instant(day(5)), timeZone: "UTC", payload: walk("beach"))
        let (_, unlocks) = try user.append(event, now: event.at)
        #expect(unlocks.map(\.id) == ["custom:beach-3#e1"])
        #expect(unlocks.first?.retroactive == false)
        #expect(user.achievements.unlock(ofMilestone: "beach-3")?.achievedDay == day(5))
    }

    @Test func aLogStreakIsBrokenByItsBreakingKind() throws {
        var log = Log()
        log.add(
            milestone(
                "dry-week", "A week without an accident", rule: .streak, kind: "potty", item: "outdoor",
                breaks: "potty", breaksItem: "indoor", target: 7),
            on: day(1), hour: 7)
        for n in 1...6 { log.add(.activity(Activity(kind: "potty", item: "outdoor")), on: day(n)) }
        log.add(.activity(Activity(kind: "potty", item: "indoor")), on: day(6), hour: 18)
        for n in 7...12 { log.add(.activity(Activity(kind: "potty", item: "outdoor")), on: day(n)) }
        var user = try live(log)
        #expect(custom(user).isEmpty)
        #expect(user.achievements.progress(ofMilestone: "dry-week", in: user.streaks) == .init(current: 6, target: 7))
        let event = Event(
            id: "d13", at: log.instant(day(13)), timeZone: "UTC",
            payload: .activity(Activity(kind: "potty", item: "outdoor")))
        let (_, unlocks) = try user.append(event, now: event.at)
        #expect(unlocks.map(\.id) == ["custom:dry-week#e1"])
        #expect(unlocks.first?.title == "A week without an accident")
    }

    @Test func habitCountsAndStreaksReadTheHabitsDays() throws {
        var log = Log()
        log.habit("run")
        log.habit("read")
        log.complete("run", days: 1...10, except: [4])
        log.complete("read", days: 1...3)
        log.add(milestone("runs-5", "5 runs", rule: .count, habit: "run", target: 5), on: day(10), hour: 20)
        log.add(milestone("run-6", "6 days running", rule: .streak, habit: "run", target: 6), on: day(10), hour: 21)
        log.add(milestone("runs-20", "20 runs", rule: .count, habit: "run", target: 20), on: day(10), hour: 22)
        let user = try live(log)
        let unlocks = custom(user)
        #expect(unlocks.map(\.id).sorted() == ["custom:run-6#e16", "custom:runs-5#e15"])
        // Day 4 was missed: the fifth run was on day 6. The habits pack forgives a first
        // miss (grace), so the streak went on: 6 on day 7.
        #expect(unlocks.first { $0.rule == "custom:runs-5" }?.achievedDay == day(6))
        #expect(unlocks.first { $0.rule == "custom:run-6" }?.achievedDay == day(7))
        #expect(unlocks.allSatisfy { $0.habit == "run" && $0.context["habit"] == "Run" })
        #expect(user.achievements.progress(ofMilestone: "runs-20", in: user.streaks) == .init(current: 9, target: 20))
        #expect(user.achievements.progress(ofMilestone: "run-6", in: user.streaks) == .init(current: 6, target: 6))
        #expect(user.streaks.events.count == log.events.count)
        // The pack's own habit rules still fire once each, as before.
        let pack = user.unlocks.filter { !CustomMilestone.isCustom($0.rule) }
        #expect(Set(pack.map(\.id)).count == pack.count)
    }

    @Test func aMilestoneHappensOnceAndAnEditChangesOnlyWhatIsStillToCome() throws {
        var log = Log()
        log.add(milestone("walks", "3 walks", rule: .count, kind: "walk", target: 3, message: "Three!"), on: day(1))
        log.add(milestone("later", "10 walks", rule: .count, kind: "walk", target: 10), on: day(1), hour: 10)
        for n in 2...4 { log.add(walk(), on: day(n)) }
        // Reached: an edit of its words or of its condition never makes it happen again.
        log.add(milestone("walks", "5 walks", rule: .count, kind: "walk", target: 5, message: "Five!"), on: day(5))
        log.add(milestone("walks", "2 walks", rule: .count, kind: "walk", target: 2), on: day(5), hour: 10)
        log.add(walk(), on: day(6))
        log.add(walk(), on: day(7))
        // Not reached yet: a new condition the history already meets happens at once.
        log.add(milestone("later", "4 walks", rule: .count, kind: "walk", target: 4), on: day(8))
        let user = try live(log)
        let unlocks = custom(user)
        #expect(unlocks.map(\.id) == ["custom:walks#e1", "custom:later#e2"])
        #expect(unlocks.map(\.title) == ["3 walks", "4 walks"])
        #expect(unlocks.map { $0.context["message"] } == ["Three!", nil])
        #expect(unlocks.last?.achievedDay == day(6) && unlocks.last?.retroactive == true)
        #expect(user.achievements.customMilestones.map(\.title) == ["2 walks", "4 walks"])
        #expect(user.achievements.unlock(ofMilestone: "walks")?.title == "3 walks")
    }

    @Test func theDefinitionThatArrivedLastHoldsWhateverItsInstant() throws {
        var user = MomentumUser(pack: .habits)
        let log = Log()
        let late = Event(
            id: "late", at: log.instant(day(3)), timeZone: "UTC",
            payload: milestone("m", "Written first", rule: .moment))
        let early = Event(
            id: "early", at: log.instant(day(2)), timeZone: "UTC",
            payload: milestone("m", "Written last", rule: .moment))
        try user.append(late, now: late.at)
        try user.append(early, now: late.at)
        #expect(user.achievements.customMilestones.map(\.title) == ["Written last"])
        // The moment happened at the definition that began it, which arrived first.
        #expect(user.unlocks.map(\.id) == ["custom:m#late"])
    }

    @Test func aDeletedMilestoneKeepsItsUnlockAndDefinedAgainIsANewOne() throws {
        var log = Log()
        log.add(milestone("beach", "Beach!", rule: .moment), on: day(1))
        log.add(milestone("walks", "2 walks", rule: .count, kind: "walk", target: 2), on: day(1), hour: 10)
        log.add(walk(), on: day(2))
        log.add(.milestoneDeleted(milestone: "beach"), on: day(3))
        log.add(.milestoneDeleted(milestone: "walks"), on: day(3), hour: 10)
        var user = try live(log)
        #expect(user.achievements.customMilestones.isEmpty)
        #expect(user.achievements.rules.count == RulePack.habits.achievements.count)
        #expect(custom(user).map(\.id) == ["custom:beach#e1"])
        #expect(user.achievements.unlock(ofMilestone: "beach") == nil)
        // Deleting it again, or one that never was, is refused by name.
        let again = Event(
            id: "again", at: log.instant(day(4)), timeZone: "UTC", payload: .milestoneDeleted(milestone: "beach"))
        #expect(throws: MomentumError.self) { try user.append(again, now: again.at) }
        // Defined again: a new milestone, which happens again; the walk before still counts.
        for (id, payload) in [
            ("b2", milestone("beach", "Beach again!", rule: .moment)),
            ("w2", milestone("walks", "2 walks", rule: .count, kind: "walk", target: 2)),
            ("walk", walk()),
        ] {
            let event = Event(id: id, at: log.instant(day(5)), timeZone: "UTC", payload: payload)
            try user.append(event, now: event.at)
        }
        #expect(custom(user).map(\.id) == ["custom:beach#e1", "custom:beach#b2", "custom:walks#w2"])
        #expect(user.achievements.unlock(ofMilestone: "beach")?.title == "Beach again!")
        #expect(user.achievements.milestoneEventCount == 6)
    }

    @Test func removingTheDefinitionDeletesTheMilestoneAndKeepsItsUnlock() throws {
        var log = Log()
        log.add(milestone("walks", "2 walks", rule: .count, kind: "walk", target: 2), on: day(1))
        log.add(walk(), on: day(2))
        log.add(walk(), on: day(3))
        log.add(milestone("later", "4 walks", rule: .count, kind: "walk", target: 4), on: day(3), hour: 20)
        log.add(.removal(event: "e4"), on: day(4))
        log.add(walk(), on: day(5))
        log.add(walk(), on: day(6))
        let user = try live(log)
        #expect(user.achievements.customMilestones.map(\.id) == ["walks"])
        #expect(custom(user).map(\.id) == ["custom:walks#e1"])
        #expect(user.achievements.rules.filter { CustomMilestone.isCustom($0.id) }.map(\.id) == ["custom:walks"])
    }

    @Test func aReloadedLogGivesTheUnlocksTheLiveOneGave() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", days: 1...8)
        for n in 1...8 { log.add(walk(n.isMultiple(of: 2) ? "beach" : nil), on: day(n), hour: 18) }
        log.add(milestone("beach", "Beach!", rule: .first, kind: "walk", item: "beach", message: "Waves"), on: day(3))
        log.add(milestone("runs", "Runs", rule: .count, habit: "run", target: 4), on: day(5), hour: 22)
        log.add(milestone("runs", "Four runs", rule: .count, habit: "run", target: 4), on: day(6), hour: 22)
        log.add(milestone("now", "A moment", rule: .moment), on: day(7))
        let user = try live(log)
        var reloaded = MomentumUser(pack: .habits)
        reloaded.replay(log.events.reversed(), now: log.instant(day(8), hour: 23))
        func summary(_ user: MomentumUser) -> [String] {
            custom(user).map { "\($0.id) \($0.title) \($0.achievedDay) \($0.context["message"] ?? "")" }.sorted()
        }
        #expect(summary(user) == summary(reloaded))
        #expect(summary(user).count == 3)
        #expect(custom(user).first { $0.rule == "custom:beach" }?.achievedDay == day(2))
    }

    @Test func theMessageAndCaptionAreTheUsersOwn() throws {
        var log = Log()
        log.add(milestone("beach", "First beach day", rule: .moment, message: "Sand in every paw!"), on: day(3))
        log.add(milestone("quiet", "Quiet {week}", rule: .moment), on: day(3), hour: 10)
        let user = try live(log)
        let beach = try #require(custom(user).first { $0.rule == "custom:beach" })
        let quiet = try #require(custom(user).first { $0.rule == "custom:quiet" })
        #expect(quiet.title == "Quiet {week}")
        let catalog = MessageCatalog.standard
        let message = catalog.message(for: beach, today: day(3))
        #expect(message.text == "Sand in every paw!")
        #expect(message.templateID == MessageCatalog.customTemplateID)
        // Without a message of its own, the catalog's generic words celebrate it.
        #expect(catalog.message(for: quiet, today: day(3)).templateID != MessageCatalog.customTemplateID)
        let caption = Memory.caption(
            category: beach.category, milestoneType: beach.milestoneType, value: nil, title: beach.title,
            name: "Ollie")
        #expect(caption == "First beach day")
    }

    @Test func theEventRoundTripsAndBadDefinitionsAreRefusedByField() throws {
        let json =
            #"{"id":"m1","type":"milestone","at":"2026-03-01T10:00:00Z","tz":"UTC","milestone":"dry","title":"Dry week","#
            + #""rule":"streak","kind":"potty","item":"outdoor","breaks":"potty","breaksItem":"indoor","target":7,"tier":3}"#
        let event = try JSONDecoder().decode(Event.self, from: Data(json.utf8))
        guard case .milestone(let milestone) = event.payload else {
            Issue.record("not a milestone: \(event.payload)")
            return
        }
        #expect(milestone.target == 7 && milestone.tier == .major && milestone.breaksItem == "indoor")
        let again = try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(event))
        #expect(again == event)

        func refusal(_ fields: String) -> String? {
            let text =
                #"{"id":"m","type":"milestone","at":"2026-03-01T10:00:00Z","tz":"UTC","milestone":"x","#
                + fields + "}"
            do {
                _ = try JSONDecoder().decode(Event.self, from: Data(text.utf8))
                return nil
            } catch DecodingError.dataCorrupted(let context) {
                return context.codingPath.last?.stringValue
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(#""title":"A","rule":"count","kind":"walk","target":0"#) == "target")
        #expect(refusal(#""title":"A","rule":"count","kind":"walk","target":2.5"#) == "target")
        #expect(refusal(#""title":"A","rule":"count","kind":"walk","target":1e300"#) == "target")
        #expect(refusal(#""title":"A","rule":"count","target":3"#) == "kind")
        #expect(refusal(#""title":"A","rule":"streak","kind":"walk","habit":"run","target":3"#) == "kind")
        #expect(refusal(#""title":"A","rule":"streak","habit":"run","breaks":"x","target":3"#) == "breaks")
        #expect(refusal(#""title":"A","rule":"moment","target":3"#) == "target")
        #expect(refusal(#""title":"A","rule":"sometimes""#) == "rule")
        #expect(refusal(#""title":"A","rule":"moment","tier":4"#) == "tier")
        #expect(refusal(#""title":"  ","rule":"moment""#) == "title")
        #expect(refusal(#""title":"A","rule":"first","item":"beach""#) == "item")
        #expect(refusal(#""title":"A","rule":"moment","badge":"too long a badge""#) == "badge")
        #expect(refusal(#""title":"A","rule":"moment","badge":" ""#) == "badge")
        #expect(refusal(#""title":"A","rule":"moment","item":"beach""#) == "item")
        #expect(refusal(#""title":"A","rule":"streak","kind":"potty","breaks":"potty","target":3"#) == "breaks")
        #expect(
            refusal(
                #""title":"A","rule":"streak","kind":"potty","item":"out","breaks":"potty","breaksItem":"out","target":3"#
            )
                == "breaks")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                Event.self,
                from: Data(
                    #"{"id":"m","type":"milestone","at":"2026-03-01T10:00:00Z","tz":"UTC","milestone":"a#3","title":"A","rule":"moment"}"#
                        .utf8))
        }
        let deletion = try JSONDecoder().decode(
            Event.self,
            from: Data(
                #"{"id":"d","type":"milestone.deleted","at":"2026-03-01T10:00:00Z","tz":"UTC","milestone":"dry"}"#.utf8)
        )
        #expect(deletion.payload == .milestoneDeleted(milestone: "dry"))
        #expect(try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(deletion)) == deletion)
    }

    @Test func anUnknownHabitAndTooManyMilestonesAreRefused() throws {
        var user = MomentumUser(pack: .habits)
        let at = Log().instant(day(1))
        func define(_ id: String, habit: String? = nil) throws {
            let payload =
                habit == nil
                ? milestone(id, id, rule: .moment) : milestone(id, id, rule: .count, habit: habit, target: 3)
            try user.append(Event(id: "ev-\(id)", at: at, timeZone: "UTC", payload: payload), now: at)
        }
        #expect(throws: MomentumError.self) { try define("ghost", habit: "nope") }
        for n in 0..<EventLimits.maximumCustomMilestones { try define("m\(n)") }
        do {
            try define("one-more")
            Issue.record("the milestone beyond the limit was stored")
        } catch let error as MomentumError {
            #expect(error.code == .limitExceeded)
            #expect(error.field == "milestone")
        }
        // Editing one that exists is still allowed.
        let edit = Event(id: "edit", at: at, timeZone: "UTC", payload: milestone("m0", "Renamed", rule: .moment))
        #expect(try user.append(edit, now: at).result == .applied)
        #expect(user.achievements.customMilestones.count == EventLimits.maximumCustomMilestones)
        // Edits are bounded too: each may make the history be read again.
        var edits = user.achievements.milestoneEventCount
        while edits < EventLimits.maximumMilestoneEvents {
            let payload = milestone("m1", "Edit \(edits)", rule: .moment)
            try user.append(Event(id: "edit-\(edits)", at: at, timeZone: "UTC", payload: payload), now: at)
            edits += 1
        }
        do {
            try user.append(
                Event(id: "too-many", at: at, timeZone: "UTC", payload: milestone("m1", "No", rule: .moment)), now: at)
            Issue.record("an edit beyond the limit was stored")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    @Test func definingAMilestoneCostsAReadOfEveryEvent() throws {
        var log = Log()
        for n in 1...40 { log.add(walk(), on: day(n)) }
        var engine = UserEngine(pack: .habits)
        for event in log.events { try engine.append(event, now: event.at) }
        let define = Event(
            id: "m", at: log.instant(day(40), hour: 20), timeZone: "UTC",
            payload: milestone("m", "M", rule: .count, kind: "walk", target: 3))
        #expect(engine.evaluationCost(of: define) == 40)
        #expect(engine.evaluationCost(of: log.events[39]) == 0)
    }

    /// Random journals (one potty log a day, outdoor or indoor, some walks) with milestones
    /// defined on random days, against a direct count of the days.
    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func randomJournalsAgreeWithADirectCount(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var log = Log()
        let days = 40
        var potty: [Int: Bool] = [:]  // day → outdoor
        var walks: [Int] = []
        for n in 1...days {
            switch rng.next() % 10 {
            case 0: break
            case 1, 2: potty[n] = false
            default: potty[n] = true
            }
            if let outdoor = potty[n] {
                log.add(.activity(Activity(kind: "potty", item: outdoor ? "outdoor" : "indoor")), on: day(n), hour: 9)
            }
            if rng.next() % 2 == 0 {
                walks.append(n)
                log.add(walk(), on: day(n), hour: 12)
            }
        }
        var expected: [String: LocalDay] = [:]
        for m in 0..<6 {
            let target = Int(rng.next() % 8) + 1
            let defined = Int(rng.next() % UInt64(days)) + 1
            let id = "m\(m)"
            let unlockID = "custom:\(id)#e\(log.events.count + 1)"
            if m.isMultiple(of: 2) {
                log.add(milestone(id, "Walks", rule: .count, kind: "walk", target: target), on: day(defined), hour: 20)
                if walks.count >= target { expected[unlockID] = day(walks[target - 1]) }
            } else {
                log.add(
                    milestone(
                        id, "Dry", rule: .streak, kind: "potty", item: "outdoor", breaks: "potty", breaksItem: "indoor",
                        target: target),
                    on: day(defined), hour: 20)
                var run = 0
                for n in 1...days {
                    run = potty[n] == true ? run + 1 : 0
                    if run == target {
                        expected[unlockID] = day(n)
                        break
                    }
                }
            }
        }
        let user = try live(log)
        let found = Dictionary(custom(user).map { ($0.id, $0.achievedDay) }, uniquingKeysWith: { a, _ in a })
        #expect(found == expected)
        #expect(custom(user).count == found.count)
    }

    @Test func aPackCannotUseTheCustomPrefixOrAMomentRule() throws {
        let rule = AchievementRule(id: "x", kind: .moment, title: "X", category: "c", tier: .notable)
        #expect(rule.problem?.field == "kind")
        let count = AchievementRule(
            id: "runs", kind: .count, title: "{value} runs", category: "c", tier: .notable, at: [10], source: .habit)
        #expect(count.problem == nil)
        let pack =
            #"{"name": "x", "achievements": [{"id": "custom:walks", "kind": "count", "title": "t", "category": "c", "#
            + #""tier": 2, "match": {"kind": "walk"}, "at": [3]}]}"#
        do {
            _ = try RulePack.decode(Data(pack.utf8), source: "mine.json")
            Issue.record("a pack rule took a custom milestone's id")
        } catch {
            #expect(error.field == "achievements[0].id")
        }
    }
}
