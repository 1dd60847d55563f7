import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import Testing

/// Two devices of one user against a real server on loopback: one offline for a week.
@Suite(.serialized) struct OfflineSyncTests {
    @Test(arguments: Backend.allCases)
    func twoDevicesOneOfflineForAWeekEndEqualToTheServer(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            let laptop = try MomentumClient.make(server, files: files, device: "laptop")
            try await phone.register(.test("sam"))
            try await laptop.signIn(email: "sam@example.com", password: "correct horse", deviceName: "laptop")
            try await phone.record(habit("read", "Read"))
            try await phone.record(habit("walk", "Walk"))
            try await phone.sync()
            try await laptop.sync()

            // Given a week in which the phone is offline (it never syncs) and checks in
            // every day, while the laptop checks in and syncs every day …
            for day in 1...7 {
                server.clock.advance(days: 1)
                let read = try await phone.checkIn("read")
                // … each check-in shows its streak at once, offline.
                #expect(read.habit?.current == day, "day \(day): \(String(describing: read.habit))")
                let walk = try await laptop.checkIn("walk", note: "day \(day)")
                #expect(walk.habit?.current == day)
                let report = try await laptop.sync()
                #expect(report.pushed == 1 && report.refused == [])
            }
            #expect(try await phone.pendingEvents().count == 7)

            // When both sync …
            let phoneReport = try await phone.sync()
            #expect(phoneReport.pushed == 7 && phoneReport.refused == [], "\(phoneReport)")
            try await laptop.sync()

            // … then each device's dashboard is the server's, byte for byte, and each holds
            // the server's log in the server's order.
            let token = try await RawHTTP.signIn(server, email: "sam@example.com", device: "observer")
            let answer = try await RawHTTP.get(server.url.appending(path: "v1/today"), token: token)
            #expect(answer.status == 200)
            for client in [phone, laptop] {
                let local = try MomentumJSON.encodeBytes(try await client.today(at: server.clock.now))
                let remote = withoutFinalNewline(answer.body)
                let same = local == remote
                #expect(same, "\(firstDifference(local, remote))")
                #expect(try await client.pendingEvents() == [])
            }
            let pulled = try await RawHTTP.get(
                server.url.appending(path: "v1/events").appending(queryItems: [
                    .init(name: "limit", value: "1000")
                ]), token: token)
            let serverIDs = (pulled.json["events"] as? [[String: Any]] ?? []).compactMap {
                ($0["event"] as? [String: Any])?["id"] as? String
            }
            #expect(serverIDs.count == 2 + 7 + 7)
            #expect(try await phone.syncedEvents().map(\.id) == serverIDs)
            #expect(try await laptop.syncedEvents().map(\.id) == serverIDs)
            let today = try await phone.today(at: server.clock.now)
            #expect(today.habits.map(\.current) == [7, 7], "\(today.habits.map(\.definition.id))")
        }
    }

    /// The rules refuse on the device what the server would refuse: nothing is recorded.
    @Test func aRefusedEventIsNeitherRecordedNorQueued() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("kim"))
            await #expect(throws: ClientError.refused("unknown_habit", "")) { try await phone.checkIn("nothing") }
            await #expect(throws: ClientError.refused("insufficient_diamonds", "")) {
                try await phone.buy(item: "freeze-50")
            }
            #expect(try await phone.pendingEvents() == [])
            // The same client id twice records one event.
            try await phone.record(habit("read", "Read"), id: "c_habit")
            let again = try await phone.record(habit("read", "Read"), id: "c_habit")
            #expect(again.duplicate)
            #expect(try await phone.pendingEvents().map(\.id) == ["c_habit"])
        }
    }

    /// An account that tracks a puppy and savings gets both packs' forms on the device, and
    /// logs from them offline under each pack's rules.
    @Test func theCombinedPacksFormsAreOnTheDevice() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            var registration = Components.Schemas.RegisterRequest.test("kim")
            registration.packs = ["savings", "ollie"]
            try await phone.register(registration)
            let pack = try await phone.pack()
            #expect(pack.memberNames == ["ollie", "savings"])
            #expect(pack.forms.map(\.id).contains("potty"))
            #expect(pack.forms.map(\.id).contains("contribution"))
            let logged = try await phone.record(.activity(Activity(kind: "potty", item: "outdoor")))
            #expect(logged.unlocks.map(\.rule) == ["potty-first-outdoor"])
            // A profile stored by a client from before `packs` existed still decodes.
            let profile = try await phone.profile()
            #expect(profile.packs == ["ollie", "savings"])
            var object = try #require(
                try JSONSerialization.jsonObject(with: MomentumJSON.encoder().encode(profile)) as? [String: Any])
            object["packs"] = nil
            let older = try MomentumJSON.decoder().decode(
                Components.Schemas.Profile.self, from: JSONSerialization.data(withJSONObject: object))
            #expect(older.pack == "ollie+savings" && older.packs == nil)
        }
    }

    /// Another account cannot sign in over events that have not reached the server: that
    /// would clear them. The same account can (a new session, which sends them); then
    /// anyone can.
    @Test func anotherAccountCannotSignInOverUnsentEvents() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let setup = try MomentumClient.make(server, files: files, device: "setup")
            try await setup.register(.test("eve"))
            let phone = try MomentumClient.make(server, files: files, device: "phone")
            try await phone.register(.test("dan"))
            try await phone.record(habit("read", "Read"))
            await #expect(throws: ClientError.pendingEvents) {
                try await phone.signIn(email: "eve@example.com", password: "correct horse")
            }
            await #expect(throws: ClientError.pendingEvents) { try await phone.register(.test("fay")) }
            #expect(try await phone.pendingEvents().count == 1)
            // The same account signs in again (any case of its email): the outbox is kept,
            // and the sync that follows a sign-in sends it.
            try await phone.signIn(email: "DAN@example.com", password: "correct horse", deviceName: "phone")
            #expect(try await phone.pendingEvents() == [])
            #expect(try await phone.syncedEvents().count == 1)
            try await phone.signIn(email: "eve@example.com", password: "correct horse")
            #expect(try await phone.account?.email == "eve@example.com")
            #expect(try await phone.syncedEvents() == [])
        }
    }
}
