import Foundation
import MomentumCore
import Testing

/// Builds a journal for the `ollie` pack: Ollie born on 2025-12-20, home on 2026-02-14, in
/// Europe/Berlin. `day(n)` is 2026-01-n; events happen at whole hours.
private struct Journal {
    var events: [Event] = []
    var serial = 0
    let zone = "Europe/Berlin"

    init(subject: Bool = true) {
        if subject {
            add(
                .subject(
                    Subject(
                        id: "ollie", name: "Ollie", kind: "puppy",
                        dates: [
                            "born": LocalDay(year: 2025, month: 12, day: 20)!,
                            "gotcha": LocalDay(year: 2026, month: 2, day: 14)!,
                        ])), on: LocalDay(year: 2026, month: 2, day: 14)!, hour: 8)
        }
    }

    func instant(_ day: LocalDay, hour: Double) -> Date {
        let table = ZoneOffsetTable.named(zone)!
        let local = Int64(day.number) * 86_400 + Int64(hour * 3600)
        return Date(timeIntervalSince1970: Double(local - Int64(table.offset(atSecond: local - 3600))))
    }

    mutating func add(_ payload: Event.Payload, on day: LocalDay, hour: Double = 12) {
        serial += 1
        events.append(Event(id: "j\(serial)", at: instant(day, hour: hour), timeZone: zone, payload: payload))
    }

    mutating func log(
        _ kind: String, _ item: String? = nil, group: String? = nil, on day: LocalDay, hour: Double = 12,
        backdated: LocalDay? = nil
    ) {
        add(
            .activity(Activity(kind: kind, item: item, group: group, subject: "ollie", day: backdated)), on: day,
            hour: hour)
    }

    /// Unlocks of replaying the journal as if live, then advancing to `now`.
    func unlocks(pack: RulePack = .ollie, until now: LocalDay) -> [Unlock] {
        var user = MomentumUser(pack: pack)
        return user.replay(events, now: instant(now, hour: 23))
    }
}

private let home = LocalDay(year: 2026, month: 2, day: 14)!
private func d(_ offset: Int) -> LocalDay { home.advanced(by: offset) }

private func ids(_ unlocks: [Unlock]) -> [String] { unlocks.map(\.id) }

@Suite struct OlliePottyTrainingTests {
    @Test func firstOutdoorPotty() {
        var journal = Journal()
        journal.log("potty", "indoor", on: d(0), hour: 9)
        journal.log("potty", "outdoor", on: d(0), hour: 10)
        let unlocks = journal.unlocks(until: d(0))
        let first = unlocks.first { $0.rule == "potty-first-outdoor" }
        #expect(first?.tier == .notable)
        #expect(first?.category == "potty")
        #expect(first?.achievedAt == journal.instant(d(0), hour: 10))
        #expect(first?.context["name"] == "Ollie")
        #expect(unlocks.filter { $0.rule == "potty-first-outdoor" }.count == 1)
    }

    @Test func threeSevenAndFourteenDayStreaksPottyTrained() {
        var journal = Journal()
        for n in 0..<14 { journal.log("potty", "outdoor", on: d(n)) }
        let unlocks = journal.unlocks(until: d(13))
        let streaks = unlocks.filter { ["potty-streak-3", "potty-streak-7", "potty-trained"].contains($0.rule) }
        #expect(streaks.map(\.achievedDay) == [d(2), d(6), d(13)])
        #expect(streaks.map(\.tier) == [.acknowledgment, .notable, .major])
        #expect(streaks.last?.title == "Potty trained! 14 days of outdoor success")
        // Tier 1 every day the streak continues (from day 2).
        #expect(unlocks.filter { $0.rule == "potty-streak-day" }.count == 13)
    }

    @Test func anAccidentBreaksTheStreakAndRecoveryIsCelebrated() {
        var journal = Journal()
        for n in 0..<5 { journal.log("potty", "outdoor", on: d(n)) }
        journal.log("potty", "indoor", on: d(5), hour: 9)
        journal.log("potty", "outdoor", on: d(6))
        journal.log("potty", "outdoor", on: d(7))
        let unlocks = journal.unlocks(until: d(7))
        let recovery = unlocks.filter { $0.rule == "potty-recovery" }
        #expect(recovery.map(\.achievedDay) == [d(7)])
        #expect(recovery.first?.milestoneType == "recovery")
        // The 7-day streak was never reached.
        #expect(!unlocks.contains { $0.rule == "potty-streak-7" })
    }

    @Test func aNewPersonalRecordAfterABreak() {
        var journal = Journal()
        for n in 0..<4 { journal.log("potty", "outdoor", on: d(n)) }  // best 4
        journal.log("potty", "indoor", on: d(4))
        for n in 5..<10 { journal.log("potty", "outdoor", on: d(n)) }  // 5 beats 4 on d(9)
        let records = journal.unlocks(until: d(9)).filter { $0.rule == "potty-record" }
        #expect(records.count == 1)
        #expect(records.first?.achievedDay == d(9))
        #expect(records.first?.value == 5)
        #expect(records.first?.milestoneType == "streak_record")
    }
}

@Suite struct OllieCommandTests {
    @Test func firstCommandEachNewCommandFiveAndTen() {
        var journal = Journal()
        let commands = ["sit", "down", "come", "stay", "leave-it", "paw", "wait", "heel", "spin", "place"]
        for (n, command) in commands.enumerated() { journal.log("command", command, on: d(n)) }
        journal.log("command", "sit", on: d(11))  // practised again: not new
        let unlocks = journal.unlocks(until: d(12))
        let first = unlocks.first { $0.rule == "command-first" }
        #expect(first?.title == "First command learned: sit")
        #expect(unlocks.filter { $0.rule == "command-each" }.count == 9)
        #expect(unlocks.first { $0.rule == "commands-5" }?.achievedDay == d(4))
        #expect(unlocks.first { $0.rule == "commands-10" }?.title == "10 commands mastered: star pupil!")
    }
}

@Suite struct OllieSocializationTests {
    @Test func firstDogAndTenDogs() {
        var journal = Journal()
        for n in 0..<10 { journal.log("social", "dog-\(n)", group: "dogs", on: d(n)) }
        journal.log("social", "dog-0", group: "dogs", on: d(11))
        let unlocks = journal.unlocks(until: d(12))
        #expect(unlocks.first { $0.rule == "social-first-dog" }?.title == "First dog met: dog-0")
        #expect(ids(unlocks.filter { $0.rule == "social-dogs-10" }) == ["social-dogs-10#10"])
        #expect(unlocks.first { $0.rule == "social-items" }?.value == 10)
    }

    @Test func aCategoryCompletedAllVehicleTypes() {
        var journal = Journal()
        for (n, vehicle) in ["car", "bus", "train", "bicycle"].enumerated() {
            journal.log("social", vehicle, group: "vehicles", on: d(n))
        }
        #expect(!journal.unlocks(until: d(5)).contains { $0.rule == "social-vehicles" })
        journal.log("social", "truck", group: "vehicles", on: d(6))
        let unlock = journal.unlocks(until: d(6)).first { $0.rule == "social-vehicles" }
        #expect(unlock?.milestoneType == "set_completed")
        #expect(unlock?.achievedDay == d(6))
    }

    @Test func socializationWindowCompleteAt16WeeksWithGoodCoverage() {
        // 16 weeks after 2025-12-20 is 2026-04-11.
        let sixteenWeeks = LocalDay(year: 2026, month: 4, day: 11)!
        var good = Journal()
        for n in 0..<18 { good.log("social", "thing-\(n)", group: "things", on: d(n)) }  // 18 of 30 = 60%
        let unlock = good.unlocks(until: sixteenWeeks).first { $0.rule == "social-window" }
        #expect(unlock?.achievedDay == sixteenWeeks)
        #expect(unlock?.tier == .major)
        var poor = Journal()
        for n in 0..<17 { poor.log("social", "thing-\(n)", group: "things", on: d(n)) }  // 57%
        #expect(!poor.unlocks(until: sixteenWeeks.advanced(by: 10)).contains { $0.rule == "social-window" })
    }
}

@Suite struct OllieHealthLifestyleAndTimeTests {
    @Test func firstVaccinationAndAllPuppyVaccinations() {
        var journal = Journal()
        for (n, shot) in ["dhpp-1", "dhpp-2", "dhpp-3"].enumerated() { journal.log("vaccination", shot, on: d(7 * n)) }
        var unlocks = journal.unlocks(until: d(20))
        #expect(unlocks.first { $0.rule == "health-first-vaccination" }?.achievedDay == d(0))
        #expect(!unlocks.contains { $0.rule == "health-vaccinations" })
        journal.log("vaccination", "rabies", on: d(30))
        unlocks = journal.unlocks(until: d(30))
        #expect(unlocks.first { $0.rule == "health-vaccinations" }?.tier == .major)
    }

    @Test func firstVetCheckupAndHealthyWeight() {
        var journal = Journal()
        journal.log("vet", "checkup", on: d(2))
        journal.log("weight", "heavy", on: d(3))
        journal.log("weight", "healthy", on: d(40))
        let unlocks = journal.unlocks(until: d(40))
        #expect(unlocks.first { $0.rule == "health-first-vet" }?.achievedDay == d(2))
        #expect(unlocks.first { $0.rule == "health-weight" }?.achievedDay == d(40))
    }

    @Test func firstWalkFiftyAndHundredWalksAndFirstOvernight() {
        var journal = Journal()
        for n in 0..<100 { journal.log("walk", on: d(n)) }
        journal.log("overnight", "grandma", on: d(50), hour: 20)
        let unlocks = journal.unlocks(until: d(100))
        #expect(unlocks.first { $0.rule == "walk-first" }?.achievedDay == d(0))
        #expect(ids(unlocks.filter { $0.rule == "walks" }) == ["walks#25", "walks#50", "walks#100"])
        #expect(unlocks.first { $0.id == "walks#50" }?.title == "50 walks logged")
        #expect(unlocks.first { $0.rule == "overnight-first" }?.achievedDay == d(50))
    }

    @Test func weeksOldMonthlyBirthdaysFirstBirthdayAndGotchaDay() {
        let journal = Journal()
        let unlocks = journal.unlocks(until: LocalDay(year: 2027, month: 2, day: 14)!)
        // Weeks old from the day Ollie came home (8 weeks) to 16 weeks; earlier ones are not celebrated.
        #expect(unlocks.filter { $0.rule == "weeks-old" }.compactMap(\.value) == [8, 9, 10, 11, 12, 13, 14, 15, 16])
        #expect(unlocks.first { $0.id == "weeks-old#ollie#12" }?.title == "Ollie is 12 weeks old!")
        // Monthly birthdays from 3 to 11 months, on the 20th.
        let months = unlocks.filter { $0.rule == "month-birthday" }
        #expect(months.compactMap(\.value) == [3, 4, 5, 6, 7, 8, 9, 10, 11])
        #expect(months.first?.achievedDay == LocalDay(year: 2026, month: 3, day: 20)!)
        let birthday = unlocks.first { $0.rule == "first-birthday" }
        #expect(birthday?.achievedDay == LocalDay(year: 2026, month: 12, day: 20)!)
        #expect(birthday?.tier == .major)
        #expect(birthday?.title == "Ollie's first birthday!")
        let gotcha = unlocks.first { $0.rule == "gotcha-day" }
        #expect(gotcha?.achievedDay == LocalDay(year: 2027, month: 2, day: 14)!)
        #expect(gotcha?.milestoneType == "anniversary")
        #expect(gotcha?.title == "Gotcha day: 1 year together")
    }

    @Test func oneWeekOldWhenTheBirthDateWasEnteredFromTheStart() {
        var journal = Journal(subject: false)
        let born = LocalDay(year: 2026, month: 1, day: 5)!
        journal.add(.subject(Subject(id: "ollie", name: "Ollie", kind: "puppy", dates: ["born": born])), on: born)
        let unlocks = journal.unlocks(until: born.advanced(by: 8))
        let week = unlocks.first { $0.id == "weeks-old#ollie#1" }
        #expect(week?.title == "Ollie is 1 week old!")
        #expect(week?.achievedDay == born.advanced(by: 7))
        #expect(week?.retroactive == true)  // detected when the clock moved to day 8 (nothing was logged on day 7)
    }

    @Test func fiveDaysOfCompleteLogs() {
        var journal = Journal()
        for n in 0..<5 {
            journal.log("potty", "outdoor", on: d(n))
            if n != 2 { journal.log("meal", on: d(n)) }
        }
        #expect(!journal.unlocks(until: d(5)).contains { $0.rule == "complete-logs" })
        for n in 5..<10 {
            journal.log("potty", "outdoor", on: d(n))
            journal.log("meal", on: d(n))
        }
        // Day 2 lacked a meal: the run is days 3…7.
        #expect(journal.unlocks(until: d(10)).first { $0.rule == "complete-logs" }?.achievedDay == d(7))
    }
}

@Suite struct UnlockSemanticsTests {
    @Test func backfilledEventsGiveRetroactiveUnlocksDatedWhenTheyHappened() {
        var journal = Journal()
        for n in 0..<6 { journal.log("potty", "outdoor", on: d(n)) }
        // Day 6 is logged on day 8, after day 7 was logged: the 7-day streak happened on day 6.
        journal.log("potty", "outdoor", on: d(7))
        journal.log("potty", "outdoor", on: d(8), hour: 9, backdated: d(6))
        let unlock = journal.unlocks(until: d(8)).first { $0.rule == "potty-streak-7" }
        #expect(unlock?.achievedDay == d(6))  // d(0)…d(6) once day 6 fills the gap
        #expect(unlock?.retroactive == true)
        #expect(unlock?.detectedAt == journal.instant(d(8), hour: 9))
        #expect(unlock.map { $0.achievedAt < $0.detectedAt } == true)
    }

    @Test func importedLogsAreRetroactive() {
        var journal = Journal()
        for n in 0..<7 { journal.log("potty", "outdoor", on: d(n)) }
        var user = MomentumUser(pack: .ollie)
        let later = journal.instant(d(30), hour: 12)
        for event in journal.events { _ = try? user.append(event, detectedAt: later) }
        let unlock = user.unlocks.first { $0.rule == "potty-streak-7" }
        #expect(unlock?.achievedDay == d(6))
        #expect(unlock?.retroactive == true)
        #expect(unlock?.detectedAt == later)
    }

    @Test func anUnlockNeverFiresTwiceForTheSameOccurrence() throws {
        var journal = Journal()
        for n in 0..<8 { journal.log("walk", on: d(n)) }
        var user = MomentumUser(pack: .ollie)
        user.replay(journal.events, now: journal.instant(d(8), hour: 23))
        let before = user.unlocks
        // Re-sending the same events, and an out-of-order event that forces a replay.
        for event in journal.events { _ = try user.append(event) }
        var late = journal
        late.log("walk", on: d(9), backdated: d(0))
        _ = try user.append(late.events.last!, detectedAt: journal.instant(d(9), hour: 12))
        #expect(Set(user.unlocks.map(\.id)).count == user.unlocks.count)
        #expect(Array(user.unlocks.prefix(before.count)) == before)
    }

    @Test func removingAnEventKeepsWhatItUnlocked() throws {
        var journal = Journal()
        journal.log("walk", on: d(0))
        var user = MomentumUser(pack: .ollie)
        user.replay(journal.events, now: journal.instant(d(0), hour: 23))
        let removal = Event(
            id: "rm", at: journal.instant(d(1), hour: 9), timeZone: journal.zone, payload: .removal(event: "j2"))
        _ = try user.append(removal)
        #expect(user.unlocks.contains { $0.rule == "walk-first" })
    }

    @Test func aSubjectKeepsItsPhotoAcrossEditsUntilAnEventRemovesIt() throws {
        var journal = Journal()
        var ollie = Subject(id: "ollie", name: "Ollie", kind: "puppy", photo: "subjects/p_1.jpg")
        journal.add(.subject(ollie), on: d(1))
        // The web's form and other devices send name and dates only: the photo stays.
        ollie.photo = nil
        ollie.name = "Ollie B."
        journal.add(.subject(ollie), on: d(2))
        var user = MomentumUser(pack: .ollie)
        user.replay(journal.events, now: journal.instant(d(2), hour: 23))
        #expect(user.achievements.subjects["ollie"]?.photo == "subjects/p_1.jpg")
        #expect(user.achievements.subjects["ollie"]?.name == "Ollie B.")
        #expect(user.achievements.subjects["ollie"]?.dates.isEmpty == true)

        ollie.photo = ""
        _ = try user.append(
            Event(id: "no-photo", at: journal.instant(d(3), hour: 9), timeZone: journal.zone, payload: .subject(ollie)))
        #expect(user.achievements.subjects["ollie"]?.photo == nil)
        // Replayed from scratch (after a removal), the same events give the same subject.
        _ = try user.append(
            Event(
                id: "rm", at: journal.instant(d(3), hour: 10), timeZone: journal.zone,
                payload: .removal(event: "no-photo")))
        #expect(user.achievements.subjects["ollie"]?.photo == "subjects/p_1.jpg")
    }

    @Test func aSubjectEventsPhotoRoundTripsThroughJSONAndBadPathsAreRefused() throws {
        let event = Event(
            id: "s", at: Date(timeIntervalSince1970: 1_780_000_000), timeZone: "Europe/Berlin",
            payload: .subject(Subject(id: "ollie", name: "Ollie", kind: "puppy", photo: "subjects/p_1.jpg")))
        let json = try JSONEncoder().encode(event)
        #expect(String(decoding: json, as: UTF8.self).contains(#""photo":"subjects\/p_1.jpg""#))
        #expect(try JSONDecoder().decode(Event.self, from: json) == event)
        let removal = Event(
            id: "s2", at: event.at, timeZone: "Europe/Berlin",
            payload: .subject(Subject(id: "ollie", name: "Ollie", kind: "puppy", photo: "")))
        #expect(try JSONDecoder().decode(Event.self, from: try JSONEncoder().encode(removal)) == removal)
        let plain = Event(
            id: "s3", at: event.at, timeZone: "Europe/Berlin", payload: .subject(Subject(id: "ollie", name: "Ollie")))
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("photo"))

        for bad in ["memories/a.jpg", "/subjects/a.jpg", "subjects/../a.jpg", "subjects//a.jpg", "subjects/a\u{7}.jpg"]
        {
            var user = MomentumUser(pack: .ollie)
            let subject = Event(
                id: "bad", at: event.at, timeZone: "Europe/Berlin",
                payload: .subject(Subject(id: "ollie", name: "Ollie", kind: "puppy", photo: bad)))
            #expect(throws: MomentumError.self, "\(bad)") { try user.append(subject) }
            #expect(user.achievements.subjects.isEmpty)
        }
    }

    @Test func habitStreakMilestonesPersonalBestsAndPerfectWeeks() throws {
        var log = Log()
        log.add(
            .habitCreated(HabitDefinition(id: "read", name: "Read", policy: .strict, difficulty: .hard)), on: day(1),
            hour: 7)
        log.complete("read", days: 1...5)
        log.complete("read", days: 8...38)
        var user = MomentumUser(pack: .habits)
        let unlocks = user.replay(log.events, now: log.instant(day(38), hour: 22))
        // 1…5, reset on day 7 (strict, no freezes), then 1… from day 8.
        #expect(unlocks.first { $0.id == "streak-7#read#7" }?.achievedDay == day(14))
        #expect(unlocks.first { $0.id == "streak-7#read#7" }?.title == "7-day streak: Read")
        #expect(unlocks.first { $0.id == "personal-best#read#2026-01-08" }?.achievedDay == day(13))
        #expect(unlocks.first { $0.id == "back-on-track#read#2026-01-08" }?.achievedDay == day(10))
        #expect(unlocks.first { $0.id == "streak-milestone#read#30" }?.achievedDay == day(37))
        #expect(unlocks.first { $0.id == "hard-habit#read#30" }?.tier == .major)
        #expect(unlocks.first { $0.rule == "perfect-week" }?.achievedDay == day(7 + 7))
        #expect(unlocks.allSatisfy { !$0.retroactive })
    }
}

@Suite struct RulePackTests {
    @Test func bundledPacksLoad() {
        #expect(RulePack.bundled.keys.sorted() == ["growth", "habits", "ollie", "savings"])
        #expect(RulePack.ollie.achievements.count == 29)
        #expect(RulePack.habits.rewards.count == 3)
        #expect(RulePack.growth.methods.map(\.id) == ["meditation", "journaling"])
    }

    @Test func everyRuleKindIsUsedByABundledPack() {
        let used = Set(RulePack.bundled.values.flatMap { $0.achievements.map(\.kind) })
        // A moment belongs to a user's own milestone (CustomMilestoneTests), never to a pack.
        #expect(used == Set(AchievementRule.Kind.allCases).subtracting([.moment]))
    }

    @Test func invalidPacksNameTheFileTheFieldAndTheReason() {
        func problem(_ json: String) -> String? {
            do {
                _ = try RulePack.decode(Data(json.utf8), source: "mine.json")
                return nil
            } catch {
                return error.message
            }
        }
        #expect(problem(#"{"achievements": []}"#) == "mine.json: name: is required")
        #expect(
            problem(
                #"{"name": "x", "achievements": [{"id": "a", "kind": "count", "title": "t", "category": "c", "tier": 2, "match": {"kind": "walk"}}]}"#
            )
                == "mine.json: achievements[0].at: needs thresholds (at) or every (rule 'a')")
        #expect(
            problem(
                #"{"name": "x", "achievements": [{"id": "a", "kind": "explode", "title": "t", "category": "c", "tier": 2}]}"#
            )?
            .hasPrefix("mine.json: achievements[0].kind") == true)
        #expect(
            problem(
                #"{"name": "x", "achievements": [{"id": "a", "kind": "stageReached", "method": "m", "title": "t", "category": "c", "tier": 2}]}"#
            )
                == "mine.json: achievements[0].method: no method 'm' in this pack")
        #expect(problem(#"{"name": "x", "backfillDays": -1}"#) == "mine.json: backfillDays: must be ≥ 0 or null")
    }

    @Test func packsRoundTripThroughJSON() throws {
        for pack in RulePack.bundled.values {
            let data = try JSONEncoder().encode(pack)
            #expect(try RulePack.decode(data, source: pack.name) == pack)
        }
    }
}

@Suite struct SavingsAndGrowthTests {
    private func event(_ id: String, _ payload: Event.Payload, day n: Int) -> Event {
        Event(id: id, at: Log().instant(day(n), hour: 12), timeZone: "UTC", payload: payload)
    }

    @Test func amountMilestonesAndGoalCompletedInTheGoalsCategory() {
        var user = MomentumUser(pack: .savings)
        let events = [
            event("g", .goal(SavingsGoal(id: "hawaii", name: "Hawaii", category: "vacation", target: 6000)), day: 1),
            event("c1", .contribution(goal: "hawaii", amount: 800, day: nil, note: nil), day: 2),
            event("c2", .contribution(goal: "hawaii", amount: 4500, day: nil, note: nil), day: 3),
            event("c3", .contribution(goal: "hawaii", amount: 700, day: nil, note: nil), day: 4),
        ]
        let unlocks = user.replay(events, now: Log().instant(day(4), hour: 20))
        #expect(
            ids(unlocks) == [
                "first-contribution", "savings-small#1000", "savings-medium#5000", "goal-completed#hawaii",
            ])
        let goal = unlocks.last
        #expect(goal?.category == "vacation")
        #expect(goal?.title == "Goal reached: Hawaii")
        #expect(goal?.tier == .major)
    }

    @Test func stageReachedAndTheFinalStage() {
        var user = MomentumUser(pack: .growth)
        let events = [
            event("s1", .stage(method: "journaling", from: nil, to: "first-pages", note: nil), day: 1),
            event("s2", .stage(method: "journaling", from: "first-pages", to: "daily-writer", note: nil), day: 20),
            event("s3", .stage(method: "journaling", from: "daily-writer", to: "reflective", note: nil), day: 60),
        ]
        let unlocks = user.replay(events, now: Log().instant(day(60), hour: 20))
        #expect(
            ids(unlocks) == [
                "journaling-stage#journaling#first-pages", "journaling-stage#journaling#daily-writer",
                "journaling-final#journaling#reflective",
            ])
        #expect(unlocks.last?.tier == .major)
        #expect(unlocks[1].title == "Journaling: reached Daily Writer")
        #expect(unlocks[1].value == 2)
    }
}

@Suite struct EngagementSummaryTests {
    @Test func memoriesForTier2And3MessagesAndTodaysCelebrationQueue() {
        var journal = Journal()
        for n in 0..<7 { journal.log("potty", "outdoor", on: d(n)) }
        var user = MomentumUser(pack: .ollie)
        let now = journal.instant(d(6), hour: 23)
        user.replay(journal.events, now: now)
        let summary = user.summary(at: now)
        // Tier 2 and 3 unlocks make memories; tier 1 do not.
        let memorable = summary.unlocks.filter { $0.tier != .acknowledgment }
        #expect(summary.memories.map(\.unlockID).sorted() == memorable.map(\.id).sorted())
        #expect(summary.messages.count == summary.unlocks.count)
        // Today (d6): the 7-day streak (tier 2) and the daily tier-1 streak note are queued.
        #expect(summary.celebrations.enqueued.map(\.unlockID).contains("potty-streak-7#7"))
        #expect(summary.celebrations.next != nil)
    }

    @Test func progressionTimelineAndAffirmations() {
        var user = MomentumUser(pack: .growth)
        let events = [
            Event(
                id: "s1", at: Log().instant(day(1)), timeZone: "UTC",
                payload: .stage(method: "meditation", from: nil, to: "beginner", note: nil)),
            Event(
                id: "s2", at: Log().instant(day(24)), timeZone: "UTC",
                payload: .stage(method: "meditation", from: "beginner", to: "steady", note: nil)),
            Event(
                id: "s3", at: Log().instant(day(30)), timeZone: "UTC",
                payload: .stage(method: "meditation", from: "deepening", to: "master", note: nil)),
        ]
        for event in events { _ = try? user.append(event) }
        let summary = user.summary(at: Log().instant(day(30), hour: 20))
        let timeline = summary.progression.timelines["meditation"] ?? []
        #expect(timeline.map(\.toStageName) == ["Beginner", "Steady Sitter"])
        #expect(timeline.last?.timeAtPreviousStage?.description == "3 weeks, 2 days")
        #expect(summary.progression.rejected.map(\.event) == ["s3"])  // from the wrong stage
        #expect(summary.progression.celebrations["s2"]?.affirmation.text.isEmpty == false)
    }
}
