import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// The what-if routes: the admin API (start, progress, cancel) and the console's pages.
struct WhatIfRouteTests {
    @Test func theAPIStartsFollowsAndRefusesWhatIfs() async throws {
        try await ServerHarness.with { harness, client in
            let owner = ServerHarness.ownerHeaders
            _ = try await client.person("ada")
            let started = try await client.call(
                .post, "/v1/admin/packs/habits/versions/1.0.0/what-if", json: "{}", headers: owner)
            #expect(started.status == .accepted, "\(started.text)")
            let id = try #require(started.json["id"] as? String)
            try await harness.settle()
            let shown = try await client.call(.get, "/v1/admin/what-if/\(id)", headers: owner)
            #expect(shown.status == .ok && shown.json["status"] as? String == "done", "\(shown.text)")
            #expect(shown.json["total"] as? Int == 1)
            let cancelled = try await client.call(.post, "/v1/admin/what-if/\(id)/cancel", headers: owner)
            #expect(cancelled.status == .ok && cancelled.json["status"] as? String == "done")
            // Refusals: an unknown version or run, a bad sample, a field the body does not take.
            #expect(
                try await client.call(
                    .post, "/v1/admin/packs/habits/versions/9.9.9/what-if", json: "{}", headers: owner
                )
                .status == .notFound)
            #expect(try await client.call(.get, "/v1/admin/what-if/wi_nope", headers: owner).status == .notFound)
            let bad = try await client.call(
                .post, "/v1/admin/packs/habits/versions/1.0.0/what-if",
                json: #"{"sample": {"count": 5, "users": ["u_1"]}}"#, headers: owner)
            #expect(bad.status == .unprocessableContent, "\(bad.text)")
            #expect(
                try await client.call(
                    .post, "/v1/admin/packs/habits/versions/1.0.0/what-if", json: #"{"all": true}"#, headers: owner
                ).status == .unprocessableContent)
            #expect(try await client.call(.get, "/v1/admin/what-if/\(id)").status == .unauthorized)
        }
    }

    @Test func theConsoleStartsAWhatIfShowsItsReportAndAViewerOnlyReads() async throws {
        try await ServerHarness.with { harness, client in
            _ = try await client.person("ada")
            let owner = try await ConsoleSession.signIn(.owner, harness: harness, client: client)
            let page = try await owner.get("/console/packs/habits/versions/1.0.0/what-if")
            #expect(page.status == .ok && page.text.contains("Start a what-if"), "\(page.text)")
            let started = try await owner.post("/console/packs/habits/versions/1.0.0/what-if", ["sample": "all"])
            #expect(started.status == .seeOther, "\(started.text)")
            let location = try #require(started.headers[.location])
            #expect(location.hasPrefix("/console/packs/habits/versions/1.0.0/what-if/wi_"))
            try await harness.settle()
            let run = try await owner.get(String(location.prefix { $0 != "?" }))
            #expect(run.status == .ok && run.text.contains("1 of 1 users replayed"), "\(run.text)")
            #expect(!run.text.contains("http-equiv=\"refresh\""))
            let viewer = try await ConsoleSession.signIn(.viewer, harness: harness, client: client)
            #expect(try await viewer.get(String(location.prefix { $0 != "?" })).status == .ok)
            let refused = try await viewer.post("/console/packs/habits/versions/1.0.0/what-if", ["sample": "all"])
            #expect(refused.status == .forbidden)
        }
    }
}
