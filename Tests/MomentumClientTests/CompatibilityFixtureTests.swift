import Foundation
import HTTPTypes
import MomentumAPI
import MomentumCore
import OpenAPIRuntime
import Testing

@testable import MomentumClient

/// An app built today keeps working against the servers of later releases of `/v1`, and
/// those servers keep accepting what it sends (docs/api-versioning.md).
///
/// `Fixtures/Answers` holds the requests today's SDK sent and the answers today's server
/// gave, recorded from a real server run (`MOMENTUM_RECORD_FIXTURES=1 swift test --filter
/// CompatibilityFixtureTests` writes them again; a normal run only reads them). A fixture
/// is never re-recorded to make a test pass: an answer schema closed again, a field made
/// required, a field renamed or retyped, a request the server stops taking, each fails here.
@Suite(.serialized) struct CompatibilityFixtureTests {
    static let recording = ProcessInfo.processInfo.environment["MOMENTUM_RECORD_FIXTURES"] == "1"

    /// Records the fixtures from a real server, through the SDK and the generated client.
    @Test(.enabled(if: recording)) func recordTheAnswersOfTodaysServer() async throws {
        try await LiveServer.with(.sqlite) { server in
            let files = try ClientFiles()
            let recorder = ExchangeRecorder()
            let other = ExchangeRecorder()
            let ada = try MomentumClient.make(server, files: files, device: "ada-phone", middlewares: [recorder])
            let bob = try MomentumClient.make(server, files: files, device: "bob-phone", middlewares: [other])
            try await ada.register(.test("ada"))
            try await bob.register(.test("bob"))
            let adaID = try #require(await ada.account?.userID)
            try await ada.record(habit("read", "Read"))
            let checkedIn = try await ada.checkIn("read")
            let milestone = try #require(checkedIn.unlocks.first)
            try await ada.sync()
            let invitation = try await ada.invite(expiresInDays: 2)
            _ = try await ada.invitations()
            _ = try await bob.invitation(code: invitation.code)
            _ = try await bob.acceptInvitation(code: invitation.code)
            _ = try await ada.share(habits: ["read"])
            _ = try await ada.sharing()
            let post = try await ada.sharePost(unlock: milestone.id)
            _ = try await bob.react(.party, to: post.id, of: adaID)
            _ = try await ada.friends()
            _ = try await ada.posts()
            _ = try await ada.reactions(to: post.id, of: adaID)
            _ = try await ada.feed()
            _ = try await ada.blocked()
            _ = try await ada.families()
            _ = try await ada.pushTargets()
            try await ada.sync()
            // What the SDK computes on the device, other apps read from the server.
            let api = Client(
                serverURL: server.url, configuration: .momentum, transport: MomentumClient.defaultTransport(),
                middlewares: [RecordedToken(recorder: recorder), recorder])
            for (_, read) in Self.generatedReads { try await read(api) }

            for exchange in recorder.exchanges.withLock({ $0 }).values { try exchange.write() }
            for exchange in other.exchanges.withLock({ $0 }).values
            where recorder.exchanges.withLock({ $0[exchange.operation] == nil }) {
                try exchange.write()
            }
        }
    }

    /// The main answers the SDK and apps read were recorded.
    @Test func theMainAnswersAreRecorded() throws {
        let recorded = Set(try RecordedExchange.all().keys)
        let main: Set = [
            "register", "getProfile", "pullEvents", "pushEvents", "getToday", "listHabits", "getHabit",
            "listMilestones", "listNotifications", "listFriends", "listPosts", "getFeed", "listReactions",
            "listFamilies", "listMemories", "nextCelebration", "createInvitation", "acceptInvitation",
        ]
        #expect(main.subtracting(recorded).sorted() == [], "answers not recorded: run with MOMENTUM_RECORD_FIXTURES=1")
    }

    /// Today's generated client reads every recorded answer, as recorded and as a later
    /// server could send it: with fields at every object level it does not know, values of
    /// every enumeration it does not know, and events of types it does not know.
    @Test(arguments: FutureAnswer.allCases)
    func theGeneratedClientReadsEveryAnswer(_ future: FutureAnswer) async throws {
        let exchanges = try RecordedExchange.all()
        let api = Client(
            serverURL: URL(string: "http://127.0.0.1:1")!, configuration: .momentum,
            transport: ReplayTransport(exchanges: exchanges) { future.apply(to: $2, operation: $0, status: $1) })
        var read = 0
        for (operation, exchange) in exchanges.sorted(by: { $0.key < $1.key }) where exchange.answer != nil {
            guard let call = Self.generatedReads.first(where: { $0.0 == operation })?.1 ?? Self.sdkOnly[operation]
            else {
                Issue.record("\(operation) is recorded but no test reads it: add it to generatedReads")
                continue
            }
            do {
                try await call(api)
                read += 1
            } catch {
                Issue.record("\(operation), \(future): \(error)")
            }
        }
        #expect(read >= 25, "\(read) answers read")
        // The changes are real: so many recorded answers differ from what a later server sends.
        var changed: [String] = []
        for (operation, exchange) in exchanges {
            guard let answer = exchange.answer else { continue }
            let value = try JSONSerialization.jsonObject(with: answer)
            let later = future.apply(to: value, operation: operation, status: exchange.status)
            if try JSONSerialization.data(withJSONObject: later, options: .sortedKeys)
                != JSONSerialization.data(withJSONObject: value, options: .sortedKeys)
            {
                changed.append(operation)
            }
        }
        switch future {
        case .asRecorded: #expect(changed == [])
        case .unknownFields: #expect(changed.count == read, "\(changed.count) of \(read)")
        case .unknownEnumValues: #expect(changed.count >= 8, "\(changed.sorted())")
        case .unknownEventTypes: #expect(changed == ["pullEvents"])
        }
    }

    /// The SDK itself reads them too: it signs up and syncs (pull, profile, …) against the
    /// recorded answers, changed as a later server could send them, and its online methods
    /// give an unknown enumeration value to the app as `.unknown`.
    @Test(arguments: FutureAnswer.allCases)
    func theSDKReadsEveryAnswer(_ future: FutureAnswer) async throws {
        let exchanges = try RecordedExchange.all()
        let files = try ClientFiles()
        let phone = try MomentumClient(
            server: URL(string: "http://127.0.0.1:1")!, databasePath: files.path("phone"), timeZone: "Europe/Berlin",
            clock: { Date(timeIntervalSince1970: 1_773_475_200) },
            transport: ReplayTransport(exchanges: exchanges) { future.apply(to: $2, operation: $0, status: $1) })
        try await phone.register(.test("ada"))
        let report = try await phone.sync()
        #expect(report.pulled > 0)
        if future == .unknownEventTypes {
            #expect(report.pulled == (try pulledCount(exchanges)) + 1, "the event of an unknown type is pulled too")
        }
        _ = try await phone.today()
        let friends = try await phone.friends()
        let invitations = try await phone.invitations()
        let reactions = try await phone.reactions(to: "post", of: "owner")
        _ = try await phone.posts()
        _ = try await phone.feed()
        _ = try await phone.families()
        _ = try await phone.sharing()
        _ = try await phone.blocked()
        _ = try await phone.pushTargets()
        _ = try await phone.invitation(code: "code")
        _ = try await phone.acceptInvitation(code: "code")
        #expect(!friends.isEmpty && !invitations.isEmpty && !reactions.isEmpty)
        let state = invitations.first?.state.value
        let reaction = reactions.first?.reaction.value
        if future == .unknownEnumValues {
            #expect(state == .unknown(FutureAnswer.unknownValue) && reaction == .unknown(FutureAnswer.unknownValue))
        } else {
            #expect(state == .known(.pending) && reaction == .known(.party))
        }
    }

    /// The other way round: the server accepts every request today's SDK sent, so a later
    /// server that still passes this accepts today's shipped apps.
    @Test(arguments: Backend.allCases)
    func theServerAcceptsEveryRecordedRequest(_ backend: Backend) async throws {
        let exchanges = try RecordedExchange.all()
        // In the order an app sends them; each needs only what the ones before it made.
        let replayed = ["register", "signIn", "pushEvents", "setSharing", "createInvitation"]
        #expect(
            Set(exchanges.values.filter { $0.request != nil }.map(\.operation)).subtracting(replayed).subtracting(
                Self.needsServerIDs
            ).sorted() == [], "requests recorded but not replayed")
        try await LiveServer.with(backend) { server in
            var token: String?
            #expect(exchanges["register"]?.request != nil && exchanges["pushEvents"]?.request != nil)
            for operation in replayed {
                guard let exchange = exchanges[operation] else { continue }
                let answer = try await RawHTTP.send(
                    server.url.appending(path: String(exchange.path.dropFirst())),
                    method: .init(rawValue: exchange.method), token: token,
                    json: exchange.request.map { String(decoding: $0, as: UTF8.self) })
                #expect(
                    (200..<300).contains(answer.status), "\(operation): \(String(decoding: answer.body, as: UTF8.self))"
                )
                if let issued = answer.json["token"] as? String { token = issued }
                if operation == "pushEvents" {
                    let statuses = (answer.json["results"] as? [[String: Any]] ?? []).compactMap {
                        $0["status"] as? String
                    }
                    #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == "applied" }, "\(statuses)")
                }
            }
        }
    }

    /// Every open enumeration of the generated answers is an `OpenEnum`, which gives apps
    /// its value as `.known` or `.unknown`.
    @Test func everyOpenEnumerationIsAnOpenEnum() throws {
        let api = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Sources/MomentumAPI")
        let generated = try String(
            contentsOf: api.appending(path: "Generated/Types+Components+Schemas.swift"), encoding: .utf8)
        let conformances = try String(contentsOf: api.appending(path: "OpenEnum.swift"), encoding: .utf8)
        let remarks = generated.matches(
            of:
                /Generated from `#\/components\/schemas\/([^`]+)\/value1`\.\n\s+public var value1: Components\.Schemas\.\w+\?/
        )
        #expect(remarks.count >= 30)
        let declared = Set(
            conformances.matches(of: /extension Components\.Schemas\.([\w.]+): OpenEnum/).map { String($0.1) })
        #expect(declared.count == remarks.count, "OpenEnum.swift conforms \(declared.count) of \(remarks.count)")
    }

    private func pulledCount(_ exchanges: [String: RecordedExchange]) throws -> Int {
        let answer = try #require(exchanges["pullEvents"]?.answer)
        let page = try JSONSerialization.jsonObject(with: answer) as? [String: Any]
        return (page?["events"] as? [Any])?.count ?? 0
    }

    /// Operations whose recorded request names what the recording server made (an
    /// invitation code, a post id): the route tests cover them.
    static let needsServerIDs: Set = ["acceptInvitation", "reactToPost", "sharePost"]

    /// Each read of the generated client the fixtures cover, forcing its answer's decoding.
    static let generatedReads: [(String, @Sendable (Client) async throws -> Void)] = [
        ("getToday", { _ = try await $0.getToday().ok.body.json }),
        ("listHabits", { _ = try await $0.listHabits().ok.body.json }),
        ("getHabit", { _ = try await $0.getHabit(path: .init(habit: "read")).ok.body.json }),
        ("listMilestones", { _ = try await $0.listMilestones().ok.body.json }),
        ("listNotifications", { _ = try await $0.listNotifications().ok.body.json }),
        ("listMemories", { _ = try await $0.listMemories().ok.body.json }),
        ("nextCelebration", { _ = try await $0.nextCelebration().ok.body.json }),
        ("getWallet", { _ = try await $0.getWallet().ok.body.json }),
        ("getStats", { _ = try await $0.getStats().ok.body.json }),
        ("getProgression", { _ = try await $0.getProgression().ok.body.json }),
        ("listAchievements", { _ = try await $0.listAchievements().ok.body.json }),
        ("getAnalytics", { _ = try await $0.getAnalytics().ok.body.json }),
        ("listSubjects", { _ = try await $0.listSubjects().ok.body.json }),
        ("listDevices", { _ = try await $0.listDevices().ok.body.json }),
        ("getStore", { _ = try await $0.getStore().ok.body.json }),
    ]

    /// The answers only the SDK's own calls asked for, read by the same operations.
    static let sdkOnly: [String: @Sendable (Client) async throws -> Void] = [
        "register": { _ = try await $0.register(body: .json(.test("ada"))).created.body.json },
        "getProfile": { _ = try await $0.getProfile().ok.body.json },
        "pullEvents": { _ = try await $0.pullEvents().ok.body.json },
        "pushEvents": { _ = try await $0.pushEvents(body: .json(.init(events: []))).ok.body.json },
        "createInvitation": { _ = try await $0.createInvitation(body: .json(.init())).created.body.json },
        "listInvitations": { _ = try await $0.listInvitations().ok.body.json },
        "previewInvitation": { _ = try await $0.previewInvitation(path: .init(code: "c")).ok.body.json },
        "acceptInvitation": { _ = try await $0.acceptInvitation(path: .init(code: "c")).ok.body.json },
        "setSharing": { _ = try await $0.setSharing(body: .json(.init())).ok.body.json },
        "getSharing": { _ = try await $0.getSharing().ok.body.json },
        "sharePost": { _ = try await $0.sharePost(body: .json(.init(unlock: "u"))).created.body.json },
        "reactToPost": {
            _ = try await $0.reactToPost(path: .init(owner: "o", post: "p"), body: .json(.init(reaction: .party))).ok
                .body.json
        },
        "listFriends": { _ = try await $0.listFriends().ok.body.json },
        "listPosts": { _ = try await $0.listPosts().ok.body.json },
        "listReactions": { _ = try await $0.listReactions(path: .init(owner: "o", post: "p")).ok.body.json },
        "getFeed": { _ = try await $0.getFeed().ok.body.json },
        "listBlocks": { _ = try await $0.listBlocks().ok.body.json },
        "listFamilies": { _ = try await $0.listFamilies().ok.body.json },
        "listPushTargets": { _ = try await $0.listPushTargets().ok.body.json },
    ]
}
