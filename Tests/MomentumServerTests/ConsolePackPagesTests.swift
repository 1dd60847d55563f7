import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The console's packs page: an owner uploads (a refused upload lists every problem),
/// activates and rolls back; a viewer reads and has no forms.
struct ConsolePackPagesTests {
    @Test(arguments: ServerHarness.Backend.allCases)
    func anOwnerUploadsActivatesAndRollsBackFromTheConsole(_ backend: ServerHarness.Backend) async throws {
        try await ServerHarness.with(backend: backend) { harness, client in
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            let empty = try await owner.get("/console/packs")
            #expect(empty.status == .ok, "\(empty.text)")
            #expect(empty.text.contains("In force: 1.0.0 (compiled in)"))
            #expect(empty.text.contains(#"action="/console/packs/upload""#))

            // A bad upload lists its problems, each with its path; nothing is stored.
            let bad = try await owner.post(
                "/console/packs/upload",
                [
                    "document":
                        #"{"pack": {"name": "Puppy", "version": "one", "achievements": [{"id": "a", "kind": "warp"}]}}"#
                ])
            #expect(bad.status == .unprocessableContent, "\(bad.text)")
            for path in ["pack.name", "pack.version", "pack.achievements[0].kind"] {
                #expect(bad.text.contains("<code>\(path)</code>"), "\(path): \(bad.text)")
            }
            #expect(!(try await owner.get("/console/packs").text.contains("puppy")))

            // A good one is stored, not yet in force; activated, it is.
            let uploaded = try await owner.post("/console/packs/upload", ["document": PacksRouteTests.puppy()])
            #expect(uploaded.status == .seeOther, "\(uploaded.text)")
            let listed = try await owner.get("/console/packs")
            #expect(listed.text.contains(#"href="/console/packs/puppy/versions/1.0.0/what-if""#))
            #expect(listed.text.contains(#"action="/console/packs/puppy/versions/1.0.0/activate""#))
            let activated = try await owner.post("/console/packs/puppy/versions/1.0.0/activate")
            try await harness.settle()
            #expect(activated.status == .seeOther, "\(activated.text)")
            #expect(harness.state.services.packs.library.version(of: "puppy") == "1.0.0")
            let after = try await owner.get("/console/packs")
            #expect(after.text.contains("1.0.0 <strong>(in force)</strong>"), "\(after.text)")

            // A new habits version, and the roll back to the compiled-in one.
            let habits = RulePack.habitsJSON.replacingOccurrences(
                of: #""version": "1.0.0""#, with: #""version": "1.1.0""#)
            _ = try await owner.post("/console/packs/upload", ["document": #"{"pack": \#(habits)}"#])
            _ = try await owner.post("/console/packs/habits/versions/1.1.0/activate")
            try await harness.settle()
            #expect(
                try await owner.get("/console/packs").text.contains("/console/packs/habits/versions/bundled/activate"))
            let back = try await owner.post("/console/packs/habits/versions/bundled/activate")
            try await harness.settle()
            #expect(back.status == .seeOther)
            #expect(harness.state.services.packs.library.version(of: "habits") == "1.0.0")

            // A viewer reads the page without its forms, and a form posted anyway is refused.
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            let page = try await viewer.get("/console/packs")
            #expect(page.status == .ok)
            #expect(!page.text.contains("<form method=\"post\" action=\"/console/packs"))
            let refused = try await viewer.post("/console/packs/puppy/versions/1.0.0/activate")
            #expect(refused.status == .forbidden, "\(refused.text)")
        }
    }
}
