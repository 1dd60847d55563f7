import Foundation
import MomentumCore
import Testing

/// Seed 003's worked cases: grace, the shared freeze pool, −1 per missed day, the floor at
/// 0, diamonds and the freeze store. Days are in 2026 (`day(1)` is January 1st), in UTC.
struct ForgivingStreakTests {
    @Test func oneDayMissIsGraceWithNoPenalty() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...8, except: [6])
        let read = try log.state(on: day(9))[habit: "read"]
        #expect(read[day(6)].state == .grace)
        #expect(read[day(6)].streak == 5)
        #expect(read[day(8)].streak == 7)
        #expect(read.current == 7)
        #expect(read.today.state == .pending)
    }

    @Test func secondMissedDayUsesFreezeFromSharedPool() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...10)
        log.buy(days: 2, on: day(10))
        log.complete("read", on: day(14))
        let state = try log.state(on: day(15))
        let read = state[habit: "read"]
        #expect(read.states(from: day(11), through: day(14)) == [.grace, .frozen, .frozen, .completed])
        #expect(read.calendar.filter { $0.day >= day(11) && $0.day <= day(13) }.allSatisfy { $0.streak == 10 })
        #expect(read.current == 11)
        #expect(state.wallet == Wallet(diamonds: 0, freezes: 0))
        #expect(state.ledger.map(\.source) == [.reward, .purchase, .freezeUsed, .freezeUsed])
    }

    @Test func missesBeyondGraceWithoutFreezesCostOnePerDay() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...5)
        log.complete("read", on: day(9))
        let read = try log.state(on: day(10))[habit: "read"]
        #expect(read.states(from: day(6), through: day(9)) == [.grace, .missed, .missed, .completed])
        #expect(read.calendar.filter { $0.day >= day(6) && $0.day <= day(9) }.map(\.streak) == [5, 4, 3, 4])
    }

    @Test func streakNeverGoesBelowZero() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...2)
        let read = try log.state(on: day(12))[habit: "read"]
        #expect(
            read.calendar.filter { $0.day >= day(3) && $0.day <= day(11) }.map(\.streak) == [2, 1, 0, 0, 0, 0, 0, 0, 0])
        #expect(read.current == 0)
        #expect(read.best == 2)
        #expect(read.border == .red)
    }

    @Test func everyTenStreakDaysPayTwentyDiamonds() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...30)
        let state = try log.state(on: day(31))
        #expect(state.wallet.diamonds == 60)
        #expect(state.ledger.filter { $0.source == .reward }.map(\.streak) == [10, 20, 30])
    }

    @Test func ninetyToHundredPaysOneHundredTwenty() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...100)
        let state = try log.state(on: day(101))
        let atHundred = state.ledger.filter { $0.streak == 100 && $0.source == .reward }.map(\.diamonds)
        #expect(atHundred.reduce(0, +) == 120)
        #expect(state.ledger.filter { $0.streak == 90 && $0.source == .reward }.map(\.diamonds) == [20])
        #expect(state.wallet.diamonds == 10 * 20 + 100)
    }

    @Test func rewardsArePaidOnlyAboveHighestStreakAchieved() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...10)  // 10: +20
        log.complete("read", days: 13...23)  // 11 grace, 12 → 9; 13 → 10 again (no reward); 23 → 20: +20
        let state = try log.state(on: day(24))
        let read = state[habit: "read"]
        #expect(read[day(13)].streak == 10)
        #expect(read.current == 20)
        #expect(read.highestStreakAchieved == 20)
        #expect(state.ledger.filter { $0.source == .reward }.map(\.streak) == [10, 20])
        #expect(state.wallet.diamonds == 40)
    }

    @Test func purchasedFreezesDoNotCoverEarlierMisses() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...10)
        log.buy(days: 2, on: day(14), hour: 8)  // after missing 11, 12 and 13
        log.complete("read", on: day(14))
        let state = try log.state(on: day(15))
        let read = state[habit: "read"]
        #expect(read.states(from: day(11), through: day(13)) == [.grace, .missed, .missed])
        #expect(read.current == 9)
        #expect(state.wallet.freezes == 2)
    }

    @Test func freezeBoughtOnAMissedDayCoversThatDay() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...10)
        log.buy(days: 1, on: day(12), hour: 23)  // day 12 is still open when the freeze arrives
        let read = try log.state(on: day(13))[habit: "read"]
        #expect(read.states(from: day(11), through: day(12)) == [.grace, .frozen])
        #expect(read.current == 10)
    }

    @Test func habitsShareOnePoolAndDrawInCreationOrder() throws {
        var log = Log()
        log.habit("alpha")
        log.habit("beta")
        log.complete("alpha", days: 1...10)
        log.complete("beta", days: 1...10)
        log.buy(days: 1, on: day(10))
        let state = try log.state(on: day(13))
        #expect(state[habit: "alpha"].states(from: day(11), through: day(12)) == [.grace, .frozen])
        #expect(state[habit: "beta"].states(from: day(11), through: day(12)) == [.grace, .missed])
        #expect(state[habit: "alpha"].current == 10)
        #expect(state[habit: "beta"].current == 9)
        #expect(state.wallet == Wallet(diamonds: 30, freezes: 0))
    }

    @Test func freezeIsNeverSpentOnAStreakThatIsAlreadyZero() throws {
        var log = Log()
        log.habit("earner")
        log.habit("idle")
        log.complete("earner", days: 1...10)
        log.buy(days: 2, on: day(10))
        log.complete("earner", days: 11...14)
        let state = try log.state(on: day(15))
        // Never done: its days have not started counting (neither missed nor protected).
        #expect(
            state[habit: "idle"].states(from: day(11), through: day(14))
                == [.notStarted, .notStarted, .notStarted, .notStarted])
        #expect(state.wallet.freezes == 2)
        #expect(state[habit: "idle"].shieldActive == false)
        #expect(state[habit: "earner"].shieldActive == true)
    }

    @Test func purchaseWithTooFewDiamondsIsRejectedAndChangesNothing() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...10)
        log.buy("freeze-5", on: day(10))
        let state = try log.state(on: day(11))
        #expect(state.rejected.map(\.code) == [.insufficientDiamonds])
        #expect(state.wallet == Wallet(diamonds: 20, freezes: 0))
        #expect(state.ledger.map(\.source) == [.reward])

        var engine = UserEngine()
        for event in log.events.dropLast() { try engine.append(event) }
        #expect(try engine.append(log.events.last!).rejectionCode == .insufficientDiamonds)
        #expect(engine.eventCount == log.events.count - 1)
    }

    @Test func aRefusedPurchaseStaysReportedAfterLaterEdits() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...20)
        log.buy("freeze-5", on: day(3))
        var engine = UserEngine()
        try engine.load(log.events)
        // A backfill for yesterday rewinds past the refused purchase.
        let backfill = Event(
            id: "late", at: log.instant(day(22), hour: 8), timeZone: "UTC",
            payload: .completion(habit: "read", day: day(21), value: 1, note: nil))
        #expect(try engine.append(backfill) == .applied)
        let state = engine.state(at: log.instant(day(22), hour: 12))
        #expect(state.rejected.map(\.code) == [.insufficientDiamonds])
        #expect(state.wallet == Wallet(diamonds: 40, freezes: 0))
        #expect(state[habit: "read"].current == 21)
    }

    @Test func storeCatalogMatchesSeed003() throws {
        let store = StoreCatalog.standard
        #expect(
            store.items.map { [$0.freezes, $0.diamonds] } == [[5, 50], [10, 100], [20, 200], [30, 300], [50, 500]])
        #expect(try store.quote(item: nil, days: 7) == (7, 70))
        #expect(throws: MomentumError.self) { try store.quote(item: "freeze-6", days: nil) }
        #expect(throws: MomentumError.self) { try store.quote(item: nil, days: 0) }
        #expect(throws: MomentumError.self) { try store.quote(item: nil, days: 366) }
    }

    @Test func bordersFollowTheStreakAfterEachDay() throws {
        var log = Log()
        log.habit("read")
        log.complete("read", days: 1...6)
        let read = try log.state(on: day(7))[habit: "read"]
        #expect(read.calendar.prefix(6).map(\.border) == [.yellow, .yellow, .yellow, .yellow, .green, .green])
        #expect(read.currentStreakStart == day(1))
    }
}

extension AppendResult {
    /// The code of a rejection, or `nil`.
    var rejectionCode: MomentumError.Code? {
        if case .rejected(let error) = self { error.code } else { nil }
    }
}
