import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The console's users and review flags pages, signed in as operators of each role: a
/// user is shown only once looked up (and the look-up is in the audit log), support grants
/// through a form given once however often it is sent, a viewer may not grant, and a
/// review flag is confirmed or cleared from its evidence page.
struct ConsoleUserPagesTests {
    private static func audit(
        _ harness: ServerHarness, action: String, by actor: OperatorActor
    ) async throws -> [AuditEntry] {
        try await harness.state.services.operators.auditLog(
            AuditQuery(operatorID: actor.id, user: nil, actionPrefix: action, before: nil, limit: 50)
        ).entries
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aUserIsShownOnlyOnceLookedUpAndEveryLookUpIsAudited(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            _ = try await client.call(
                .post, "/v1/habits", token: ada.token, json: #"{"habit": "read", "name": "Reading"}"#)
            _ = try await client.call(.post, "/v1/habits/read/check-ins", token: ada.token, json: "{}")
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)

            // The search lists nobody.
            let search = try await viewer.get("/console/users")
            #expect(search.status == .ok, "\(search.text)")
            #expect(!search.text.contains("ada@example.com") && !search.text.contains(ada.id))

            // A miss shows nobody and is recorded, without a user.
            let miss = try await viewer.get("/console/users/find?q=nobody%40example.com")
            #expect(miss.status == .notFound, "\(miss.text)")
            #expect(try await Self.audit(harness, action: "user.lookup", by: viewer.actor).count == 1)

            // A hit, by email in any case, leads to the user's page.
            let found = try await viewer.get("/console/users/find?q=ADA%40example.com")
            #expect(found.status == .seeOther, "\(found.text)")
            #expect(found.headers[.location] == "/console/users/\(ada.id)")
            let page = try await viewer.get("/console/users/\(ada.id)")
            #expect(page.status == .ok, "\(page.text)")
            #expect(page.text.contains("ada@example.com") && page.text.contains("Reading"))
            #expect(page.text.contains("Done: 1 completion logged."), "the day's reason is in its title")
            #expect(!page.text.contains(ada.token))
            // A viewer may not grant: no form.
            #expect(!page.text.contains("/grants\""))
            let viewed = try await Self.audit(harness, action: "user.viewed", by: viewer.actor)
            #expect(viewed.map(\.user) == [ada.id], "\(viewed)")

            // The habit's days in words.
            let habit = try await viewer.get("/console/users/\(ada.id)/habits/read")
            #expect(habit.status == .ok && habit.text.contains("Done: 1 completion logged."), "\(habit.text)")
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func supportGrantsOncePerFormAndAViewerIsRefusedOnRecord(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            let support = try await ConsoleSession.signIn(.support, harness: harness, client: client)
            let page = try await support.get("/console/users/\(ada.id)")
            #expect(page.text.contains("action=\"/console/users/\(ada.id)/grants\""), "\(page.text)")
            let key = try #require(
                page.text.range(of: #"name="key" value=""#).map {
                    String(page.text[$0.upperBound...].prefix { $0 != "\"" })
                })
            let path = "/console/users/\(ada.id)/grants"

            // Refused: nothing given.
            let refused = try await support.post(path, ["diamonds": "5", "reason": "", "key": key])
            #expect(refused.status.code >= 400, "\(refused.status)")
            let notNumber = try await support.post(path, ["diamonds": "five", "reason": "x", "key": key])
            #expect(notNumber.status.code >= 400 && notNumber.text.contains("diamonds"), "\(notNumber.text)")

            let fields = ["diamonds": "30", "freezes": "1", "reason": "Sync outage", "key": key]
            let granted = try await support.post(path, fields)
            #expect(granted.status == .seeOther, "\(granted.text)")
            // Sent twice (a double click, a reload): given once.
            let again = try await support.post(path, fields)
            #expect(again.status == .seeOther)
            #expect(again.headers[.location]?.contains("already") == true, "\(again.headers)")
            let wallet = try await harness.state.services.userLookup.read(ada.id).wallet
            #expect(wallet == Wallet(diamonds: 30, freezes: 1))
            #expect(try await Self.audit(harness, action: "user.granted", by: support.actor).count >= 2)

            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let forbidden = try await viewer.post(path, ["diamonds": "5", "reason": "x", "key": "other"])
            #expect(forbidden.status == .forbidden, "\(forbidden.text)")
            let denied = try await Self.audit(harness, action: "user.granted", by: viewer.actor)
            #expect(denied.map(\.outcome) == [.denied] && denied.first?.user == ada.id, "\(denied)")
            #expect(try await harness.state.services.userLookup.read(ada.id).wallet.diamonds == 30)
        }
    }

    @Test(arguments: ServerHarness.Backend.allCases)
    func aFlagIsConfirmedOrClearedFromItsEvidence(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let ada = try await client.person("ada")
            for id in ["f1", "f2"] {
                try await harness.state.store.flag(
                    ReviewFlag(
                        user: ada.id, id: id, kind: .timeZoneHop, detail: "time zone changed from A to B",
                        events: ["e-\(id)"], createdAt: harness.now))
            }
            let support = try await ConsoleSession.signIn(.support, harness: harness, client: client)
            let queue = try await support.get("/console/review-flags")
            #expect(queue.status == .ok && queue.text.contains("/console/review-flags/\(ada.id)/f1"), "\(queue.text)")
            let flag = try await support.get("/console/review-flags/\(ada.id)/f1")
            #expect(flag.status == .ok && flag.text.contains("time zone changed from A to B"), "\(flag.text)")
            #expect(try await Self.audit(harness, action: "user.viewed", by: support.actor).map(\.user) == [ada.id])

            let confirmed = try await support.post("/console/review-flags/\(ada.id)/f1/confirm")
            #expect(confirmed.status == .seeOther, "\(confirmed.text)")
            let after = try await support.get("/console/review-flags/\(ada.id)/f1")
            #expect(after.text.contains("Confirmed by \(support.actor.id)"), "\(after.text)")
            #expect(!after.text.contains("/f1/confirm\""))
            let cleared = try await support.post("/console/review-flags/\(ada.id)/f2/clear")
            #expect(cleared.status == .seeOther, "\(cleared.text)")
            let rest = try await support.get("/console/review-flags")
            #expect(!rest.text.contains("/f1\"") && !rest.text.contains("/f2\""), "\(rest.text)")

            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            #expect(try await viewer.post("/console/review-flags/\(ada.id)/f1/clear").status == .forbidden)
        }
    }
}
