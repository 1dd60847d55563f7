import Foundation
import MomentumCore
import Testing

/// Seed 004's worked cases: strict streaks, best streak, offered and earned freezes.
struct StrictStreakTests {
    @Test func firstCompletionSetsCurrentAndBestToOne() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", on: day(3))
        let floss = try log.state(on: day(3), hour: 22)[habit: "floss"]
        #expect(floss.current == 1)
        #expect(floss.best == 1)
        #expect(floss.today.state == .completed)
    }

    @Test func consecutiveDaysIncrementAndAMissResetsToZero() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...4)
        log.complete("floss", on: day(6))
        let floss = try log.state(on: day(7))[habit: "floss"]
        #expect(floss.calendar.prefix(6).map(\.streak) == [1, 2, 3, 4, 0, 1])
        #expect(floss[day(5)].state == .missed)
        #expect(floss.current == 1)
        #expect(floss.best == 4)
        #expect(floss.breaks == 1)
    }

    @Test func missWithAFreezeIsOfferedAndProtectedUntilAnswered() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...10)
        log.buy(days: 2, on: day(10))
        let nextDay = try log.state(on: day(12))
        #expect(nextDay[habit: "floss"][day(11)].state == .frozen)
        #expect(nextDay[habit: "floss"].current == 10)
        #expect(nextDay.freezeOffers == [OpenFreezeOffer(habit: "floss", day: day(11), expires: day(12))])
        #expect(nextDay[habit: "floss"].shieldActive)
    }

    @Test func unansweredOfferIsAcceptedAfterTheNextDay() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...10)
        log.buy(days: 2, on: day(10))
        log.complete("floss", on: day(12))
        let later = try log.state(on: day(13))
        #expect(later.freezeOffers.isEmpty)
        #expect(later[habit: "floss"][day(11)].state == .frozen)
        #expect(later.wallet.freezes == 1)
    }

    @Test func declinedOfferResetsTheStreakAndKeepsTheFreeze() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...10)
        log.buy(days: 2, on: day(10))
        log.answer("floss", missed: day(11), accept: false, on: day(12))
        let state = try log.state(on: day(12), hour: 20)
        #expect(state[habit: "floss"][day(11)].state == .missed)
        #expect(state[habit: "floss"].current == 0)
        #expect(state.wallet.freezes == 2)
        #expect(state.freezeOffers.isEmpty)
    }

    @Test func withoutFreezesNoOfferIsMade() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...5)
        let state = try log.state(on: day(7))
        #expect(state.freezeOffers.isEmpty)
        #expect(state[habit: "floss"][day(6)].state == .missed)
        #expect(state[habit: "floss"].shieldActive == false)
    }

    @Test func oneFreezeIsEarnedAtEveryThirtyDayMilestone() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...61)
        let state = try log.state(on: day(62))
        #expect(state.ledger.filter { $0.source == .earnedFreeze }.map(\.streak) == [30, 60])
        #expect(state.wallet.freezes == 2)
    }

    @Test func answeringAnOfferThatDoesNotExistIsRejected() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...5)
        log.answer("floss", missed: day(6), accept: true, on: day(7))
        var engine = UserEngine()
        for event in log.events.dropLast() { try engine.append(event) }
        let result = try engine.append(log.events.last!)
        #expect(result.rejectionCode == .noFreezeOffer)
        #expect(try log.state(on: day(7), hour: 20).rejected.map(\.code) == [.noFreezeOffer])
    }

    @Test func answeringAfterTheNextDayIsRefused() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...10)
        log.buy(days: 2, on: day(10))
        log.answer("floss", missed: day(11), accept: false, on: day(13))
        #expect(throws: EventLogError.self) { try log.state(on: day(13), hour: 20) }
    }

    @Test func customPolicyIsDataNotCode() throws {
        let json = #"{"grace": 2, "penalty": {"decrement": 3}, "freezes": "never"}"#
        let policy = try JSONDecoder().decode(StreakPolicy.self, from: Data(json.utf8))
        var log = Log()
        log.habit("yoga", policy: policy)
        log.complete("yoga", days: 1...8)
        let yoga = try log.state(on: day(13))[habit: "yoga"]
        #expect(yoga.states(from: day(9), through: day(12)) == [.grace, .grace, .missed, .missed])
        #expect(yoga.current == 2)
    }

    @Test func aWithdrawnDeclineRestoresTheFreeze() throws {
        var log = Log()
        log.habit("floss", policy: .strict)
        log.complete("floss", days: 1...10)
        log.buy(days: 2, on: day(10))
        log.complete("floss", on: day(12))
        log.answer("floss", missed: day(11), accept: false, on: day(12))
        let declineID = log.events.last!.id
        log.add(.removal(event: declineID), on: day(12), hour: 10)
        let state = try log.state(on: day(13))
        #expect(state[habit: "floss"][day(11)].state == .frozen)
        #expect(state[habit: "floss"].current == 11)

        var engine = UserEngine()
        for event in log.events { try engine.append(event) }
        #expect(engine.state(at: log.instant(day(13), hour: 12)) == state)
    }
}
