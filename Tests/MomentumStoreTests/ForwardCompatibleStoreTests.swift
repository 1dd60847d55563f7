import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Events from the future in the store (issue 47), on every backend: stored as sent, read
/// back equal, exported and imported unchanged, and changing no projection.
@Suite(.serialized)
struct ForwardCompatibleStoreTests {
    static func events() throws -> [Event] {
        [
            try Fixtures.createHabit(),
            try Fixtures.event(
                """
                {"id":"c1","type":"completion","at":"\(RFC3339.format(Fixtures.day(1, hour: 20)))","tz":"UTC",
                 "habit":"read","mood":{"level":3,"tags":["sun",null,false]}}
                """),
            try Fixtures.event(
                """
                {"id":"u1","type":"mood.logged","at":"\(RFC3339.format(Fixtures.day(1, hour: 21)))","tz":"Asia/Tokyo",
                 "mood":"great","score":-0.5,"nested":{"a":[1,2,{"b":"é"}]}}
                """),
        ]
    }

    @Test(arguments: Backend.allCases)
    func unknownEventsAreStoredReadExportedAndImportedAsSent(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let events = try Self.events()
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createAccount(Fixtures.account("bea"), profile: Fixtures.profile())
            let stored = try await store.append(events, for: "ada", receivedAt: Fixtures.day(2), device: "phone")
            #expect(stored.outcomes.map(\.status) == [.applied(seq: 1), .applied(seq: 2), .applied(seq: 3)])
            _ = try await store.append(
                Array(events.prefix(2)), for: "bea", receivedAt: Fixtures.day(2), device: "phone")

            let read = try await store.events(of: "ada", after: 0, limit: 10)
            #expect(read.map(\.event) == events)
            #expect(read[2].event.payload == .unknown(type: "mood.logged"))
            #expect(read[1].event.unknownFields["mood"] != nil)
            // The unknown event changes no projection: the habits are those of the same log
            // without it.
            let with = try await store.projection(of: "ada")
            let without = try await store.projection(of: "bea")
            #expect(with.habits == without.habits)
            #expect(with.wallet == without.wallet)

            // Exported, imported under another id, exported again: the same events.
            var archive = try await store.exportAccount("ada")
            #expect(archive.events.map(\.event) == events)
            archive.account = Fixtures.account("cy")
            try await store.importAccount(archive, now: Fixtures.day(3))
            let again = try await store.exportAccount("cy")
            #expect(
                try again.events.map { try MomentumJSON.encodeBytes($0.event) }
                    == archive.events.map { try MomentumJSON.encodeBytes($0.event) })
            // Imported at the same instant, the log without the unknown event gives the
            // same habits.
            var plain = try await store.exportAccount("bea")
            plain.account = Fixtures.account("dan")
            try await store.importAccount(plain, now: Fixtures.day(3))
            #expect(try await store.projection(of: "cy").habits == store.projection(of: "dan").habits)
        }
    }
}
