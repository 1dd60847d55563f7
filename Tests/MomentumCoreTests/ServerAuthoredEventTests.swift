import Foundation
import MomentumCore
import Testing

/// The events only the server writes: an operator's grant, the rewards kept when a pack's
/// rules change, and an outage's amnesty (issue 49).
struct ServerAuthoredEventTests {
    static let freezing = StreakPolicy(grace: 0, penalty: .reset, freezes: .automatic)

    static func amnesty(
        _ id: String = "am_1", from start: Date, to end: Date, reason: String = "Sync was down"
    )
        -> Event.Payload
    {
        .amnesty(Amnesty(id: id, start: start, end: end, reason: reason))
    }

    static func decode(_ json: String) throws -> Event {
        try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
    }

    @Test func onlyTheNewTypesAreServerAuthored() {
        let grant = Event.Payload.grant(Grant(diamonds: 5, freezes: 0, reason: "Sorry"))
        #expect(grant.isServerAuthored)
        #expect(Event.Payload.amnestyLifted(id: "am_1").isServerAuthored)
        #expect(!Event.Payload.completion(habit: "run", day: nil, value: 1, note: nil).isServerAuthored)
        #expect(!Event.Payload.unknown(type: "grant.v2").isServerAuthored)
        #expect(Event.Payload.serverAuthoredTypes == ["grant", "rewards.kept", "amnesty", "amnesty.lifted"])
    }

    @Test func aGrantCreditsTheWalletWithALedgerEntryOfItsOwn() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", on: day(1))
        log.add(
            .grant(Grant(diamonds: 50, freezes: 2, reason: "Sorry about the outage", operatorID: "op_1")), on: day(2))
        let state = try log.state(on: day(2))
        #expect(state.wallet == Wallet(diamonds: 50, freezes: 2))
        let entry = try #require(state.ledger.last)
        #expect(entry.source == .grant)
        #expect(entry.reason == "Sorry about the outage")
        #expect(entry.diamonds == 50 && entry.freezes == 2 && entry.streak == nil)
    }

    @Test func aGrantOutsideItsBoundsIsRefusedNamingTheField() throws {
        let envelope = #""id": "g1", "type": "grant", "at": "2026-01-02T09:00:00Z", "tz": "UTC""#
        for (fields, field) in [
            (#""diamonds": 100001, "reason": "x""#, "diamonds"),
            (#""freezes": 1001, "reason": "x""#, "freezes"),
            (#""diamonds": 0, "freezes": 0, "reason": "x""#, "diamonds"),
            (#""diamonds": 5, "reason": """#, "reason"),
            (#""diamonds": 5, "reason": "a\u0007b""#, "reason"),
            ("\"diamonds\": 5, \"reason\": \"\(String(repeating: "y", count: 201))\"", "reason"),
        ] {
            #expect(throws: DecodingError.self, "\(field)") { try Self.decode("{\(envelope), \(fields)}") }
        }
        let grant = Grant(diamonds: 100_001, freezes: 0, reason: "x")
        #expect(grant.problem?.field == "diamonds")
    }

    @Test func theNewEventsTravelAsJSONAndBack() throws {
        let at = Date(timeIntervalSince1970: 1_767_340_800)
        let events = [
            Event(id: "g1", at: at, timeZone: "UTC", payload: .grant(Grant(diamonds: 5, freezes: 1, reason: "Hi"))),
            Event(
                id: "k1", at: at, timeZone: "UTC",
                payload: .rewardsKept(
                    KeptRewards(
                        pack: "habits", version: "1.1.0",
                        unlocks: [.init(rule: "streak-7", key: "streak-7", title: "7-Day Streak", at: at)],
                        diamondsEarned: 120, freezesEarned: 2))),
            Event(
                id: "a1", at: at, timeZone: "UTC",
                payload: Self.amnesty(from: at.addingTimeInterval(-7200), to: at.addingTimeInterval(-3600))),
            Event(id: "l1", at: at, timeZone: "UTC", payload: .amnestyLifted(id: "am_1")),
        ]
        for event in events {
            let json = try MomentumJSON.encoder().encode(event)
            #expect(try MomentumJSON.decoder().decode(Event.self, from: json) == event)
        }
        let text = String(decoding: try MomentumJSON.encoder().encode(events[2]), as: UTF8.self)
        #expect(text.contains(#""amnesty":"am_1""#))
    }

    // MARK: - Amnesty

    /// Given a streak with freezes in the pool, when an outage covers a day the user
    /// missed, then the day is covered: the streak stands, no freeze is spent, and the
    /// streak does not grow on it.
    @Test func anAmnestyCoversAMissedDayKeepingTheStreakWithoutAFreeze() throws {
        var log = Log()
        log.habit("run", policy: Self.freezing)
        log.complete("run", days: 1...10)
        log.buy(days: 1, on: day(10), hour: 21)
        log.complete("run", days: 12...13)
        log.add(
            Self.amnesty(from: log.instant(day(11), hour: 2), to: log.instant(day(11), hour: 9)), on: day(13), hour: 10)
        let state = try log.state(on: day(13), hour: 20)
        #expect(
            state[habit: "run"].states(from: day(10), through: day(13)) == [
                .completed, .covered, .completed, .completed,
            ])
        #expect(state[habit: "run"].current == 12)
        #expect(state[habit: "run"][day(11)].streak == 10)
        #expect(state.wallet.freezes == 1)
        #expect(!state.ledger.contains { $0.source == .freezeUsed })
        #expect(
            state.amnesties.map(\.reason) == ["Sync was down"] && state.amnesties.first?.from == day(11)
                && state.amnesties.first?.until == day(11))
        #expect(AmnestyPeriod.reason(on: day(11), in: state.amnesties) == "Sync was down")
        #expect(AmnestyPeriod.reason(on: day(12), in: state.amnesties) == nil)
    }

    @Test func liftingAnAmnestyRestoresTheMiss() throws {
        var log = Log()
        log.habit("run", policy: .strict)
        log.complete("run", days: 1...3)
        log.complete("run", days: 5...6)
        log.add(
            Self.amnesty(from: log.instant(day(4), hour: 1), to: log.instant(day(4), hour: 23)), on: day(6), hour: 10)
        let covered = try log.state(on: day(6), hour: 20)
        #expect(covered[habit: "run"][day(4)].state == .covered)
        #expect(covered[habit: "run"].current == 5)
        log.add(.amnestyLifted(id: "am_1"), on: day(6), hour: 11)
        let lifted = try log.state(on: day(6), hour: 20)
        #expect(lifted[habit: "run"][day(4)].state == .missed)
        #expect(lifted[habit: "run"].current == 2)
        #expect(lifted.amnesties.isEmpty)
    }

    /// A done day stays done; a window that crosses midnight touches both days, in the
    /// user's zone and day start hour.
    @Test func anAmnestyTouchesEveryLocalDayOfItsWindowThatWasNotDone() throws {
        var log = Log(zone: "America/New_York")
        log.habit("read")
        log.complete("read", days: 1...3)
        log.complete("read", on: day(5))
        // 22:00 on day 4 to 02:00 on day 6, New York time.
        log.add(
            Self.amnesty(from: log.instant(day(4), hour: 22), to: log.instant(day(6), hour: 2)), on: day(7), hour: 8)
        let state = try log.state(on: day(7), hour: 12)
        #expect(
            state[habit: "read"].states(from: day(4), through: day(7)) == [.covered, .completed, .covered, .pending])
        #expect(state[habit: "read"].current == 4)
    }

    /// An amnesty appended after its days closed rewinds them: the incremental state is the
    /// one a full evaluation gives.
    @Test func anAmnestyAppendedLaterGivesTheSameStateAsAFullEvaluation() throws {
        var log = Log()
        log.habit("run", policy: Self.freezing)
        log.habit("read", .timesPerWeek(3))
        log.complete("run", days: 1...12, except: [8, 9])
        log.complete("read", days: 1...12, except: [6, 7, 8, 9, 10])
        log.add(
            Self.amnesty(from: log.instant(day(8), hour: 0), to: log.instant(day(10), hour: 0)), on: day(12), hour: 22)
        let now = log.instant(day(12), hour: 23)
        var engine = UserEngine()
        for event in log.events { try engine.append(event, now: now) }
        let incremental = engine.state(at: now)
        let full = try UserEngine.evaluate(log.events, now: now)
        #expect(incremental == full)
        #expect(full[habit: "run"].states(from: day(8), through: day(9)) == [.covered, .covered])
    }

    @Test func anAmnestyThatIsTooLongEndsBeforeItStartsOrHasNoReasonIsRefused() throws {
        let start = Date(timeIntervalSince1970: 1_767_340_800)
        #expect(Amnesty(id: "a", start: start, end: start, reason: "x").problem?.field == "end")
        #expect(Amnesty(id: "a", start: start, end: start - 60, reason: "x").problem?.field == "end")
        #expect(Amnesty(id: "a", start: start, end: start + 40 * 86_400, reason: "x").problem?.field == "end")
        #expect(Amnesty(id: "a", start: start, end: start + 31 * 86_400, reason: "x").problem == nil)
        #expect(Amnesty(id: "a", start: start, end: start + 60, reason: "").problem?.field == "reason")
        #expect(Amnesty(id: "", start: start, end: start + 60, reason: "x").problem?.field == "amnesty")
        var log = Log()
        log.habit("run")
        log.add(Self.amnesty(from: log.instant(day(2)), to: log.instant(day(3))), on: day(2), hour: 12)
        // The outage has not ended when the event is written.
        #expect(throws: EventLogError.self) { try log.state(on: day(4)) }
    }

    @Test func anEventTheServerWroteCannotBeRemoved() throws {
        var log = Log()
        log.habit("run")
        log.add(.grant(Grant(diamonds: 5, freezes: 0, reason: "Thanks")), on: day(1))
        log.add(.removal(event: "e2"), on: day(2))
        #expect(throws: EventLogError.self) { try log.state(on: day(2)) }
    }

    // MARK: - Kept rewards

    /// Under the rules that earned them the kept rewards are all there: the event changes
    /// nothing.
    @Test func rewardsKeptUnderTheSameRulesChangeNothing() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", days: 1...30)
        let before = try log.state(on: day(31))
        let earnedDiamonds = before.ledger.filter { [.reward, .difficultyBonus].contains($0.source) }.map(\.diamonds)
            .reduce(0, +)
        let earnedFreezes = before.ledger.filter { $0.source == .earnedFreeze }.map(\.freezes).reduce(0, +)
        #expect(earnedDiamonds > 0 && earnedFreezes > 0)
        log.add(
            .rewardsKept(
                KeptRewards(
                    pack: "habits", version: "1.1.0", unlocks: [], diamondsEarned: earnedDiamonds,
                    freezesEarned: earnedFreezes)), on: day(31))
        let after = try log.state(on: day(31))
        #expect(after.wallet == before.wallet)
        #expect(after.ledger == before.ledger)
        #expect(after.habits == before.habits)
    }

    /// Rules that pay less than the ones that earned the rewards: the shortfall is credited
    /// once, as kept.
    @Test func rewardsKeptCreditTheShortfallOnce() throws {
        var log = Log()
        log.habit("run")
        log.complete("run", days: 1...3)
        let kept = KeptRewards(pack: "habits", version: "1.1.0", unlocks: [], diamondsEarned: 40, freezesEarned: 1)
        log.add(.rewardsKept(kept), on: day(4))
        log.add(.rewardsKept(kept), on: day(4), hour: 10)
        let state = try log.state(on: day(4))
        #expect(state.wallet == Wallet(diamonds: 40, freezes: 1))
        let credits = state.ledger.filter { $0.source == .kept }
        #expect(credits.count == 1)
        #expect(credits.first?.diamonds == 40 && credits.first?.freezes == 1)
    }
}
