import Foundation
import MomentumAPI
import MomentumCore
import Testing

/// Answers may grow: a client built before issue 49 keeps reading what a server with
/// amnesties, grants and kept rewards sends — a `covered` calendar day, the `amnesties` of
/// `/v1/today`, and pulled events of the server-only types it does not know.
struct ServerAuthoredCompatibilityTests {
    /// The recorded `/v1/today` answer as a server with an amnesty sends it.
    static func todayWithACoveredDay() throws -> Data {
        let exchange = try #require(try RecordedExchange.all()["getToday"])
        let answer = try #require(exchange.answer)
        var today = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        var habits = try #require(today["habits"] as? [[String: Any]])
        var calendar = try #require(habits.first?["calendar"] as? [[String: Any]])
        let day = try #require(calendar.first?["day"] as? String)
        calendar[0]["state"] = "covered"
        habits[0]["calendar"] = calendar
        today["habits"] = habits
        today["amnesties"] = [
            [
                "id": "am_1", "start": "\(day)T02:00:00Z", "end": "\(day)T09:00:00Z", "from": day, "until": day,
                "reason": "Sync was down",
            ]
        ]
        return try JSONSerialization.data(withJSONObject: today)
    }

    @Test func todaysClientReadsACoveredDayAndItsAmnesty() throws {
        let report = try MomentumJSON.decoder().decode(TodayReport.self, from: try Self.todayWithACoveredDay())
        #expect(report.habits.first?.calendar.first?.state == .covered)
        #expect(report.amnesties?.map(\.reason) == ["Sync was down"])
    }

    /// An engine that predates the server-only types (its vocabulary lacks them) keeps such
    /// a pulled event as an unknown one, changing nothing, and writes it back as sent.
    @Test func anOlderEngineKeepsServerOnlyEventsAsUnknown() throws {
        let lines = [
            #"{"id":"amnesty.am_1","type":"amnesty","at":"2026-03-14T10:00:00Z","tz":"UTC","amnesty":"am_1","start":"2026-03-14T02:00:00Z","end":"2026-03-14T09:00:00Z","reason":"Sync was down"}"#,
            #"{"id":"g1","type":"grant","at":"2026-03-14T10:00:00Z","tz":"UTC","diamonds":50,"freezes":1,"reason":"Sorry"}"#,
            #"{"id":"l1","type":"amnesty.lifted","at":"2026-03-15T10:00:00Z","tz":"UTC","amnesty":"am_1"}"#,
        ]
        let decoder = MomentumJSON.decoder()
        decoder.userInfo[Event.vocabularyKey] = Set(Event.fieldsByType.keys).subtracting(
            Event.Payload.serverAuthoredTypes)
        for line in lines {
            let event = try decoder.decode(Event.self, from: Data(line.utf8))
            #expect(event.payload.isUnknown)
            let written = try MomentumJSON.encoder().encode(event)
            let sent = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
            #expect(try JSONSerialization.jsonObject(with: written) as? NSDictionary == sent)
            // Today's engine knows them.
            #expect(!(try MomentumJSON.decoder().decode(Event.self, from: Data(line.utf8))).payload.isUnknown)
        }
    }
}
