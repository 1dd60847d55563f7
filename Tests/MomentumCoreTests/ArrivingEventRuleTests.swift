import Foundation
import MomentumCore
import Testing

/// What an event appended as it arrives (with `now`) may not do: remove an event that was
/// never stored, contribute to a goal that does not exist, or carry control characters in
/// its names, ids and notes.
struct ArrivingEventRuleTests {
    static let now = RFC3339.parse("2026-03-10T12:00:00Z")!

    func event(_ id: String, _ payload: Event.Payload, minutesAgo: Double = 10) -> Event {
        Event(id: id, at: Self.now.addingTimeInterval(-minutesAgo * 60), timeZone: "UTC", payload: payload)
    }

    @Test func removingAnIdThatWasNeverStoredIsRefused() throws {
        var user = MomentumUser(pack: .habits)
        _ = try user.append(event("h", .habitCreated(HabitDefinition(id: "read", name: "Read"))), now: Self.now)
        _ = try user.append(event("c1", .completion(habit: "read", day: nil, value: 1, note: nil)), now: Self.now)
        #expect(throws: MomentumError.self) {
            try user.append(event("rm-ghost", .removal(event: "never-sent"), minutesAgo: 1), now: Self.now)
        }
        do {
            _ = try user.append(event("rm-ghost", .removal(event: "never-sent"), minutesAgo: 1), now: Self.now)
        } catch {
            #expect(error.code == .invalidEvent)
            #expect(error.field == "event")
            #expect(error.message == "there is no event 'never-sent' to remove")
        }
        #expect(user.streaks.event(id: "rm-ghost") == nil)
        // Removing a stored event still works.
        let (result, _) = try user.append(event("rm-c1", .removal(event: "c1"), minutesAgo: 1), now: Self.now)
        #expect(result == .applied)
    }

    @Test func aLogLoadedWithoutNowKeepsItsTombstones() throws {
        // A removal that precedes its target in a stored log is still honoured on replay.
        var engine = UserEngine()
        try engine.append(event("h", .habitCreated(HabitDefinition(id: "read", name: "Read")), minutesAgo: 30))
        try engine.append(event("rm", .removal(event: "c1"), minutesAgo: 5))
        let late = try engine.append(event("c1", .completion(habit: "read", day: nil, value: 1, note: nil)))
        #expect(late == .duplicate)
    }

    @Test func contributingToAGoalThatDoesNotExistIsRefused() throws {
        var user = MomentumUser(pack: .savings)
        _ = try user.append(
            event("g", .goal(SavingsGoal(id: "bali", name: "Bali", category: "vacation", target: 3_000))),
            now: Self.now)
        #expect(throws: MomentumError.self) {
            try user.append(
                event("x1", .contribution(goal: "nowhere", amount: 100, day: nil, note: nil)), now: Self.now)
        }
        #expect(user.streaks.event(id: "x1") == nil)
        let (result, _) = try user.append(
            event("x2", .contribution(goal: "bali", amount: 100, day: nil, note: nil)), now: Self.now)
        #expect(result == .applied)
        // A retry of a stored contribution is a duplicate, as before.
        let (retry, _) = try user.append(
            event("x2", .contribution(goal: "bali", amount: 100, day: nil, note: nil)), now: Self.now)
        #expect(retry == .duplicate)
    }

    @Test(arguments: ["Read\u{0}", "Re\u{7}ad", "Read\u{1B}[31m", "Read\u{85}", "\u{7F}"])
    func controlCharactersInNamesAreRefused(name: String) throws {
        var user = MomentumUser(pack: .habits)
        do {
            _ = try user.append(event("h", .habitCreated(HabitDefinition(id: "read", name: name))), now: Self.now)
            Issue.record("a name with a control character was accepted")
        } catch {
            #expect(error.field == "name")
            #expect(error.message.contains("control characters"))
        }
    }

    @Test func notesMayHoldLineBreaksButNoOtherControlCharacter() throws {
        var user = MomentumUser(pack: .habits)
        _ = try user.append(event("h", .habitCreated(HabitDefinition(id: "read", name: "Read"))), now: Self.now)
        let (fine, _) = try user.append(
            event("c1", .completion(habit: "read", day: nil, value: 1, note: "ch. 3\nch. 4\tdone")), now: Self.now)
        #expect(fine == .applied)
        #expect(throws: MomentumError.self) {
            try user.append(
                event("c2", .completion(habit: "read", day: nil, value: 1, note: "bell\u{7}")), now: Self.now)
        }
        #expect(throws: MomentumError.self) {
            try user.append(
                event("id\u{0}", .completion(habit: "read", day: nil, value: 1, note: nil)), now: Self.now)
        }
    }

    @Test func textRulesAllowEveryPrintableScript() {
        for text in ["Lire 📚", "読書", "Leitura diária", "قراءة", "A\u{200D}B"] {
            #expect(!TextRules.hasControlCharacter(text))
        }
        #expect(TextRules.hasControlCharacter("a\nb"))
        #expect(!TextRules.hasControlCharacter("a\nb", allowingLineBreaks: true))
    }
}
