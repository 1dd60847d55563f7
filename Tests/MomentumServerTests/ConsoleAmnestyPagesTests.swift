import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// The console's amnesty section: a viewer reads the list but may not declare; an owner
/// declares an outage from the form (refused windows name their field, nothing declared)
/// and lifts it.
struct ConsoleAmnestyPagesTests {
    static func minute(_ date: Date) -> String { String(RFC3339.format(date).prefix(16)) }

    @Test(arguments: ServerHarness.Backend.allCases)
    func anOwnerDeclaresAndLiftsAnAmnestyFromTheConsole(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            _ = try await harness.register("ada", daysAgo: 3, client: client)
            let now = harness.now
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let empty = try await viewer.get("/console/amnesty")
            #expect(empty.status == .ok && empty.text.contains("No amnesty has been declared"), "\(empty.text)")
            #expect(!empty.text.contains("/console/amnesty/declare"), "a viewer gets no declare form")
            let fields = [
                "start": Self.minute(now - 2 * 86_400), "end": Self.minute(now - 86_400), "reason": "Sync was down",
            ]
            #expect(try await viewer.post("/console/amnesty/declare", fields).status == .forbidden)

            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            #expect(try await owner.get("/console/amnesty").text.contains("/console/amnesty/declare"))
            var backwards = fields
            backwards["end"] = Self.minute(now - 3 * 86_400)
            let refused = try await owner.post("/console/amnesty/declare", backwards)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            let garbled = try await owner.post(
                "/console/amnesty/declare", ["start": "yesterday", "end": "", "reason": "x"])
            #expect(garbled.status == .unprocessableContent, "\(garbled.text)")
            #expect(try await harness.state.services.amnesties.list().isEmpty)

            let declared = try await owner.post("/console/amnesty/declare", fields)
            #expect(declared.status == .seeOther, "\(declared.text)")
            for instance in [harness.state] + harness.others { await instance.services.amnesties.drain() }
            let amnesty = try #require(try await harness.state.services.amnesties.list().first)
            #expect(amnesty.status == .active && amnesty.usersDone == 1 && amnesty.declaredBy == owner.actor.id)
            let listed = try await owner.get("/console/amnesty")
            #expect(
                listed.text.contains("Sync was down") && listed.text.contains("/console/amnesty/\(amnesty.id)/lift"))
            let lifted = try await owner.post("/console/amnesty/\(amnesty.id)/lift")
            #expect(lifted.status == .seeOther, "\(lifted.text)")
            for instance in [harness.state] + harness.others { await instance.services.amnesties.drain() }
            #expect(try await harness.state.services.amnesties.list().first?.status == .lifted)
            #expect(try await viewer.get("/console/amnesty").text.contains("lifted"))
        }
    }
}
