import Foundation
import MomentumCore
import Testing

/// Packs as data: logging forms, combinations of packs, and the journal they feed.
struct PackFormTests {
    private static let zone = "UTC"

    private static func at(_ day: LocalDay, hour: Int = 12) -> Date {
        Date(timeIntervalSince1970: Double(day.number * 86_400 + hour * 3_600))
    }

    private static let today = LocalDay(year: 2026, month: 11, day: 20)!

    // MARK: Forms

    @Test func everyBundledFormIsSoundAndLogsWhatTheRulesWatch() throws {
        for name in RulePack.bundledOrder {
            let pack = try #require(RulePack.bundled[name])
            for form in pack.forms {
                #expect(form.problem == nil, "\(name).\(form.id): \(String(describing: form.problem))")
            }
        }
        // Seed 000: every journal kind its achievements watch has a form.
        let ollie = RulePack.ollie
        let kinds = Set(ollie.forms.compactMap(\.kind))
        let watched = Set(ollie.achievements.compactMap { $0.match?.kind })
        #expect(watched.subtracting(kinds).isEmpty, "kinds without a form: \(watched.subtracting(kinds))")
        // The checklist holds the seven groups and every item the set rules need.
        let checklist = try #require(ollie.forms.first { $0.id == "social" }?.fields.first)
        #expect(checklist.input == .checklist)
        #expect(
            Set(checklist.options.compactMap(\.group))
                == ["people", "animals", "places", "sounds", "vehicles", "surfaces", "handling"])
        for rule in ollie.achievements where rule.kind == .setCompleted && rule.match?.kind == "social" {
            let group = rule.match?.group
            let offered = Set(checklist.options.filter { $0.group == group }.map(\.value))
            #expect(Set(rule.items ?? []).isSubset(of: offered), "\(rule.id)")
        }
        // Savings and growth take their choices from the user's own goals and the methods.
        #expect(RulePack.savings.forms.first { $0.type == "contribution" }?.fields.first?.from == .goals)
        #expect(RulePack.growth.forms.first { $0.type == "stage" }?.fields.map(\.from) == [.methods, .stages, nil])
    }

    @Test func aFormWithAFieldItsEventDoesNotTakeIsRefusedByName() {
        func problem(_ forms: String) -> String? {
            do {
                _ = try RulePack.decode(Data(#"{"name": "p", "forms": \#(forms)}"#.utf8), source: "p.json")
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            problem(
                #"[{"id": "a", "title": "A", "type": "log", "kind": "x", "fields": [{"name": "amount", "label": "A"}]}]"#
            )
                == "p.json: forms[0].fields[0].name: 'amount' is not a field of a log event (form 'a')")
        #expect(
            problem(#"[{"id": "a", "title": "A", "type": "log", "fields": []}]"#)
                == "p.json: forms[0].kind: a log form needs the activity's kind (form 'a')")
        #expect(
            problem(#"[{"id": "a", "title": "A", "type": "wish", "fields": []}]"#)?.hasPrefix(
                "p.json: forms[0].type: 'wish' is not one of contribution, goal, log, stage, subject") == true)
        #expect(
            problem(
                #"[{"id": "a", "title": "A", "type": "log", "kind": "x", "fields": [{"name": "item", "label": "I", "input": "buttons"}]}]"#
            )
                == "p.json: forms[0].fields[0].options: buttons need options (form 'a')")
        #expect(
            problem(
                #"[{"id": "a", "title": "A", "type": "log", "kind": "x", "fields": [{"name": "item", "label": "I", "colour": 1}]}]"#
            )?
            .contains("colour") == true)
        #expect(
            problem(
                #"[{"id": "a", "title": "A", "type": "goal", "fields": []}, {"id": "a", "title": "B", "type": "stage", "fields": []}]"#
            )
                == "p.json: forms[1].id: 'a' is used twice")
        #expect(
            problem(#"[{"id": "a", "title": "A", "type": "stage", "backdate": true, "fields": []}]"#)
                == "p.json: forms[0].backdate: a stage event has no day to backdate (form 'a')")
    }

    @Test func aPackWithFormsSurvivesEncodingAndDecoding() throws {
        for pack in RulePack.bundled.values {
            let data = try JSONEncoder().encode(pack)
            let decoded = try RulePack.decode(data, source: "round trip")
            #expect(decoded == pack, "\(pack.name)")
        }
    }

    // MARK: Combinations

    @Test func packsCombineInCanonicalOrderAndRefuseWhatIsNotBundled() throws {
        let all = try #require(RulePack.named("growth+ollie+habits+savings"))
        #expect(all.name == "habits+ollie+savings+growth")
        #expect(all.memberNames == RulePack.bundledOrder)
        #expect(RulePack.named("ollie")?.memberNames == ["ollie"])
        #expect(RulePack.named("ollie") == RulePack.ollie)
        for bad in ["", "+", "ollie+ollie", "ollie+cats", "habits+", "HABITS"] {
            #expect(RulePack.named(bad) == nil, "\(bad)")
        }
        // Every member's achievements, methods and forms; ids stay unique.
        let members = RulePack.bundledOrder.compactMap { RulePack.bundled[$0] }
        #expect(all.achievements.count == members.map(\.achievements.count).reduce(0, +))
        #expect(Set(all.achievements.map(\.id)).count == all.achievements.count)
        #expect(Set(all.methods.map(\.id)).count == all.methods.count)
        #expect(all.forms.count == members.map(\.forms.count).reduce(0, +))
        // Habit settings are the habits pack's, even when it is not the first named.
        let journalFirst = try #require(RulePack.named("ollie+habits"))
        #expect(journalFirst.rewards == RulePack.habits.rewards)
        #expect(journalFirst.store == RulePack.habits.store)
        #expect(journalFirst.earnedFreezeEvery == RulePack.habits.earnedFreezeEvery)
    }

    @Test func eachEventTypeKeepsItsOwnPacksBackfillWindow() throws {
        let all = try #require(RulePack.named("habits+ollie+savings+growth"))
        #expect(all.backfillDays(forEventType: "completion") == 1)
        #expect(all.backfillDays(forEventType: "log") == nil)
        #expect(all.backfillDays(forEventType: "contribution") == 31)
        var user = MomentumUser(pack: all)
        let now = Self.at(Self.today, hour: 18)
        func event(_ id: String, _ payload: Event.Payload) -> Event {
            Event(id: id, at: Self.at(Self.today, hour: 9), timeZone: Self.zone, payload: payload)
        }
        try user.append(
            event(
                "h", .habitCreated(HabitDefinition(id: "read", name: "Read", startDay: Self.today.advanced(by: -60)))),
            now: now)
        // A journal entry from months ago is kept (seed 000: no limit) …
        try user.append(
            event("l", .activity(Activity(kind: "walk", day: Self.today.advanced(by: -90)))), now: now)
        try user.append(event("g", .goal(SavingsGoal(id: "bali", name: "Bali", target: 100))), now: now)
        // … a contribution 20 days back too (savings: 31) …
        try user.append(
            event("c", .contribution(goal: "bali", amount: 10, day: Self.today.advanced(by: -20), note: nil)), now: now)
        // … but a completion 2 days back is refused: habits accept 1 day.
        #expect {
            try user.append(
                event("x", .completion(habit: "read", day: Self.today.advanced(by: -2), value: 1, note: nil)),
                now: now)
        } throws: { ($0 as? MomentumError)?.code == .outsideBackfillWindow }
        #expect {
            try user.append(
                event("y", .contribution(goal: "bali", amount: 1, day: Self.today.advanced(by: -40), note: nil)),
                now: now)
        } throws: {
            ($0 as? MomentumError)?.message.contains("the savings pack accepts contributions up to 31 days back")
                == true
        }
    }

    @Test func aStageThatDoesNotFollowTheMethodsHistoryIsRefusedWhenItArrives() throws {
        var user = MomentumUser(pack: .growth)
        let now = Self.at(Self.today, hour: 20)
        func stage(_ id: String, from: String?, to: String, hour: Int) -> Event {
            Event(
                id: id, at: Self.at(Self.today, hour: hour), timeZone: Self.zone,
                payload: .stage(method: "meditation", from: from, to: to, note: nil))
        }
        try user.append(stage("s1", from: nil, to: "beginner", hour: 9), now: now)
        // Without `from`, or from a stage the method is not at: refused, naming `from`.
        for wrong in [
            stage("s2", from: nil, to: "steady", hour: 10), stage("s3", from: "steady", to: "deepening", hour: 10),
        ] {
            #expect {
                try user.append(wrong, now: now)
            } throws: { ($0 as? MomentumError)?.field == "from" }
        }
        #expect {
            try user.append(stage("s4", from: "beginner", to: "levitating", hour: 10), now: now)
        } throws: { ($0 as? MomentumError)?.field == "to" }
        try user.append(stage("s5", from: "beginner", to: "steady", hour: 11), now: now)
        // A retry of a stored event is a duplicate, not a refusal.
        #expect(try user.append(stage("s5", from: "beginner", to: "steady", hour: 11), now: now).result == .duplicate)
        #expect(user.summary(at: now).progression.timelines["meditation"]?.map(\.toStage.id) == ["beginner", "steady"])
    }

    // MARK: Streaks that read right

    @Test func daysBeforeTheFirstCompletionHaveNotStartedAndNothingIsRedBeforeItBreaks() throws {
        var user = MomentumUser(pack: .habits)
        let start = Self.today.advanced(by: -4)
        func at(_ day: LocalDay, _ hour: Int) -> Date { Self.at(day, hour: hour) }
        try user.append(
            Event(
                id: "h", at: at(start, 22), timeZone: Self.zone,
                payload: .habitCreated(HabitDefinition(id: "read", name: "Read", startDay: start))), now: at(start, 22))
        try user.append(
            Event(
                id: "w", at: at(start, 22), timeZone: Self.zone,
                payload: .habitCreated(
                    HabitDefinition(
                        id: "gym", name: "Gym", schedule: .timesPerWeek(3), policy: .strict, startDay: start))),
            now: at(start, 22))
        // Created late in the evening, never done: grey days, a neutral border, not red.
        var state = user.state(at: at(Self.today, 9), zone: Self.zone)
        let read = try #require(state.habits.first { $0.definition.id == "read" })
        #expect(read.calendar.dropLast().allSatisfy { $0.state == .notStarted && $0.border == .neutral })
        #expect(read.border == .neutral)
        #expect(read.streakUnit == "day")
        // The first check-in: counting begins; the days before stay grey.
        try user.append(
            Event(
                id: "c1", at: at(Self.today, 10), timeZone: Self.zone,
                payload: .completion(habit: "read", day: nil, value: 1, note: nil)),
            now: at(Self.today, 10))
        try user.append(
            Event(
                id: "c2", at: at(Self.today, 10), timeZone: Self.zone,
                payload: .completion(habit: "gym", day: nil, value: 1, note: nil)),
            now: at(Self.today, 10))
        state = user.state(at: at(Self.today, 11), zone: Self.zone)
        let done = try #require(state.habits.first { $0.definition.id == "read" })
        #expect(done.calendar.last?.state == .completed)
        #expect(done.calendar.dropLast().allSatisfy { $0.state == .notStarted })
        #expect(done.border == .yellow)
        // A strict 3-a-week habit, checked in once in a week still open: building, not red;
        // its streak is told in weeks.
        let gym = try #require(state.habits.first { $0.definition.id == "gym" })
        #expect(gym.current == 0)
        #expect(gym.border != .red)
        #expect(gym.streakUnit == "week")
        // The first check-in is a milestone of its own, once per habit.
        #expect(user.unlocks.filter { $0.rule == "first-check-in" }.map(\.title) == ["First day done: Read"])
    }

    @Test func aPuppysNameStaysOutOfTheSavingsMemories() throws {
        var user = MomentumUser(pack: try #require(RulePack.named("ollie+savings")))
        let now = Self.at(Self.today, hour: 20)
        func event(_ id: String, _ payload: Event.Payload) -> Event {
            Event(id: id, at: Self.at(Self.today, hour: 9), timeZone: Self.zone, payload: payload)
        }
        try user.append(event("p", .subject(Subject(id: "ollie", name: "Ollie", kind: "puppy"))), now: now)
        try user.append(
            event("g", .goal(SavingsGoal(id: "bali", name: "Bali", category: "vacation", target: 5000))), now: now)
        try user.append(event("c", .contribution(goal: "bali", amount: 1200, day: nil, note: nil)), now: now)
        try user.append(event("w", .activity(Activity(kind: "walk"))), now: now)
        let saved = try #require(user.unlocks.first { $0.rule == "savings-small" })
        #expect(saved.subject == nil)
        let memory = try #require(Memory(unlock: saved, offsetSeconds: 0))
        #expect(!memory.caption.contains("Ollie"), "\(memory.caption)")
        // A journal's milestone is still about the puppy.
        #expect(user.unlocks.first { $0.rule == "walk-first" }?.subject == "ollie")
    }

    @Test func completionRatesBeginAtTheFirstCompletion() throws {
        var user = MomentumUser(pack: .habits)
        // Made on a Monday three weeks ago, first done this Monday: the weeks before are not due.
        let monday = LocalDay(year: 2026, month: 11, day: 16)!
        let start = monday.advanced(by: -14)
        func at(_ day: LocalDay, _ hour: Int) -> Date { Self.at(day, hour: hour) }
        for (id, schedule) in [("daily", Schedule.daily), ("gym", .timesPerWeek(2))] {
            try user.append(
                Event(
                    id: "h-\(id)", at: at(start, 8), timeZone: Self.zone,
                    payload: .habitCreated(HabitDefinition(id: id, name: id, schedule: schedule, startDay: start))),
                now: at(start, 8))
        }
        for offset in [0, 2] {
            for id in ["daily", "gym"] {
                try user.append(
                    Event(
                        id: "c-\(id)-\(offset)", at: at(monday.advanced(by: offset), 9), timeZone: Self.zone,
                        payload: .completion(habit: id, day: nil, value: 1, note: nil)),
                    now: at(monday.advanced(by: offset), 9))
            }
        }
        var streaks = user.streaks
        let analytics = streaks.analytics(at: at(monday.advanced(by: 7), 12), zone: Self.zone)
        let daily = try #require(analytics.habits.first { $0.habit == "daily" })
        // Mon…Sun of this week: 2 of 7 done; nothing of the two weeks before.
        #expect(daily.rates.allTime.done == 2 && daily.rates.allTime.due == 7, "\(daily.rates.allTime)")
        let gym = try #require(analytics.habits.first { $0.habit == "gym" })
        #expect(gym.rates.allTime.done == 2 && gym.rates.allTime.due == 2, "\(gym.rates.allTime)")
    }

    // MARK: The journal

    @Test func theJournalCountsChecksOffAndFollowsStreaksAndGoals() throws {
        var user = MomentumUser(pack: try #require(RulePack.named("ollie+savings")))
        var serial = 0
        func add(_ payload: Event.Payload, _ day: LocalDay, hour: Int = 12) throws {
            serial += 1
            try user.append(
                Event(id: "e\(serial)", at: Self.at(day, hour: hour), timeZone: Self.zone, payload: payload),
                now: Self.at(day, hour: 23))
        }
        let start = Self.today.advanced(by: -5)
        for offset in 0..<4 { try add(.activity(Activity(kind: "potty", item: "outdoor")), start.advanced(by: offset)) }
        try add(.activity(Activity(kind: "potty", item: "indoor")), start.advanced(by: 4), hour: 8)
        try add(.activity(Activity(kind: "potty", item: "outdoor")), start.advanced(by: 4), hour: 10)
        try add(.activity(Activity(kind: "social", item: "bus", group: "vehicles")), start.advanced(by: 4))
        try add(.activity(Activity(kind: "weight", value: 7.5)), start.advanced(by: 1))
        try add(.activity(Activity(kind: "weight", value: 8.25)), start.advanced(by: 4))
        try add(.goal(SavingsGoal(id: "bali", name: "Bali", category: "vacation", target: 200)), start)
        try add(.contribution(goal: "bali", amount: 50, day: nil, note: "first"), start.advanced(by: 4), hour: 20)
        try add(.contribution(goal: "bali", amount: 25.5, day: nil, note: nil), start.advanced(by: 4), hour: 21)

        let journal = user.achievements.journal(recent: 3)
        #expect(journal.recent.map(\.event) == ["e12", "e11", "e9"])
        #expect(journal.recent.first?.type == "contribution")
        #expect(journal.recent.first?.activity.value == 25.5)
        #expect(journal.counts["potty"] == 6)
        #expect(journal.items["social"] == ["vehicles/bus"])
        #expect(journal.items["potty"] == ["outdoor", "indoor"])
        #expect(journal.latestValues["weight"]?.value == 8.25)
        // The accident broke the run of four; one outdoor day since.
        let potty = try #require(journal.streaks.first { $0.kind == "potty" && $0.item == "outdoor" })
        #expect(potty.current == 1)
        #expect(potty.best == 4)
        #expect(journal.streaks.filter { $0.kind == "potty" }.count == 1)
        #expect(journal.goals.map(\.goal.id) == ["bali"])
        #expect(journal.goals.first?.saved == 75.5)
        #expect(abs((journal.goals.first?.fraction ?? 0) - 0.3775) < 1e-9)
        #expect(journal.goals.first?.completed == false)
        #expect(journal.totalSaved == 75.5)
        // Two days without an outdoor break: the streak has lapsed.
        _ = user.advance(to: Self.at(Self.today.advanced(by: 2)), zone: Self.zone)
        #expect(user.achievements.journal().streaks.first { $0.kind == "potty" }?.current == 0)
    }
}
