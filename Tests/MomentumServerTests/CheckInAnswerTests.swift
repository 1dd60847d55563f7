import Foundation
import HummingbirdTesting
import MomentumCore
import MomentumTestSupport
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// A check-in answers with the habit's state as the append stored it, spliced into the
/// answer unencoded: the bytes must be those of encoding a fresh evaluation.
@Suite struct CheckInAnswerTests {
    /// Three weeks of check-ins (streak rewards and unlocks on the way, a missed day, a
    /// second check-in on one day, a note), each answer compared byte for byte with the
    /// answer built from the habit's detail read at the same instant.
    @Test func theAnswerIsTheFreshEvaluationByteForByte() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await client.register("ines")
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "difficulty": "hard"}"#)
            #expect(created.status == .created, "\(created.text)")
            var unlocked = 0
            for day in 0..<21 where day != 9 {
                harness.clock.value.withLock { $0 = $0.addingTimeInterval(86_400) }
                for round in 0..<(day == 4 ? 2 : 1) {
                    let body = round == 0 ? #"{"note": "day \#(day)"}"# : "{}"
                    let checkIn = try await client.call(.post, "/v1/habits/read/check-ins", token: token, json: body)
                    #expect(checkIn.status == .ok, "\(checkIn.text)")
                    let answer = try MomentumJSON.decoder().decode(CheckInAnswer.self, from: Data(buffer: checkIn.body))
                    unlocked += answer.unlocks.count

                    let detail = try await client.call(.get, "/v1/habits/read?days=7", token: token)
                    let habit = try MomentumJSON.decoder().decode(Detail.self, from: Data(buffer: detail.body)).habit
                    let expected =
                        try MomentumJSON.encodeBytes(
                            CheckInResponse(habit: habit, wallet: answer.wallet, unlocks: answer.unlocks))
                        + [UInt8(ascii: "\n")]
                    #expect(checkIn.text == String(decoding: expected, as: UTF8.self), "day \(day), round \(round)")
                }
            }
            #expect(unlocked > 0, "the check-ins unlocked nothing; the test would not cover unlocks")
        }
    }

    @Test func theSplicedAnswerEncodesLikeTheValue() throws {
        let user = try Self.evaluatedUser()
        let state = user.state
        try #require(!state.habits.isEmpty)
        for habit in state.habits {
            for unlocks in [[], user.unlocks] {
                let spliced = try CheckInResponse.encoded(
                    habitJSON: String(decoding: try MomentumJSON.encodeBytes(habit), as: UTF8.self),
                    wallet: state.wallet, unlocks: unlocks)
                let whole = try MomentumJSON.encodeBytes(
                    CheckInResponse(habit: habit, wallet: state.wallet, unlocks: unlocks))
                #expect(String(decoding: spliced, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
            }
        }
    }

    /// A generated user's state and unlocks after four months of events.
    static func evaluatedUser() throws -> (state: UserState, unlocks: [Unlock]) {
        var options = LogGenerator.Options()
        options.habits = 4
        options.days = 120
        options.seed = 7
        options.schedules = [.daily, .timesPerWeek(3)]
        let events = LogGenerator(options).events()
        var user = MomentumUser(pack: .habits)
        var unlocks: [Unlock] = []
        for event in events {
            if let (_, granted) = try? user.append(event, now: nil, detectedAt: event.at) { unlocks += granted }
        }
        let end = try #require(events.last).at.addingTimeInterval(3_600)
        return (user.state(at: end, calendarDays: 7), unlocks)
    }

    private struct CheckInAnswer: Decodable {
        var wallet: Wallet
        var unlocks: [Unlock]
    }

    private struct Detail: Decodable {
        var habit: HabitState
    }
}
