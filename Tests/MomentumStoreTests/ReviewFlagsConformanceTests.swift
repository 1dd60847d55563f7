import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

/// Review flags an operator confirms or clears, on every backend.
@Suite(.serialized)
struct ReviewFlagsConformanceTests {
    private static func flag(_ id: String, events: [String], day: Int = 2) -> ReviewFlag {
        ReviewFlag(
            user: "ada", id: id, kind: .backfills, detail: "\(events.count) events for earlier days",
            events: events, createdAt: Fixtures.day(day))
    }

    private static func post(_ id: String) -> Post {
        Post(
            owner: "ada", id: id,
            unlock: Unlock(
                id: "u-\(id)", rule: "streak-7", title: "7-day streak", category: "streak", tier: .notable,
                milestoneType: "streak", value: 7, achievedAt: Fixtures.day(3),
                achievedDay: LocalDay(year: 2026, month: 1, day: 3)!, detectedAt: Fixtures.day(3), retroactive: false,
                habit: "read"),
            habitName: "Read", createdAt: Fixtures.day(3))
    }

    @Test(arguments: Backend.allCases)
    func aConfirmedFlagStaysOnRecordKeepsPostsHeldAndLeavesTheQueue(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            #expect(try await store.flag(Self.flag("f1", events: ["e1", "e2"])))
            #expect(try await !store.flag(Self.flag("f1", events: ["e1", "e2"])))
            let held = try await store.share(Self.post("p_1"))
            #expect(held.post.held)

            let confirmed = try #require(
                try await store.confirmReviewFlag("f1", of: "ada", by: "op_1", at: Fixtures.day(4)))
            #expect(confirmed.status == .confirmed)
            #expect(confirmed.confirmedBy == "op_1")
            #expect(confirmed.confirmedAt == Fixtures.day(4))
            // Again: nothing changes, the first confirmation stands.
            #expect(
                try await store.confirmReviewFlag("f1", of: "ada", by: "op_2", at: Fixtures.day(5))?.confirmedBy
                    == "op_1")
            #expect(try await store.confirmReviewFlag("nope", of: "ada", by: "op_1", at: Fixtures.day(4)) == nil)

            // Off the queue, on the user's record; the posts stay held, new ones are held.
            #expect(try await store.reviewFlags(limit: 10).isEmpty)
            #expect(try await store.reviewFlags(of: "ada", limit: 10).map(\.status) == [.confirmed])
            #expect(try await store.reviewFlag("f1", of: "ada")?.flag.events == ["e1", "e2"])
            #expect(try await store.openReviewFlagCount(of: "ada") == 1)
            #expect(try await store.posts(of: "ada", limit: 10).first?.held == true)
            #expect(try await store.share(Self.post("p_2")).post.held)
        }
    }

    @Test(arguments: Backend.allCases)
    func confirmedEvidenceDoesNotFlagTheUserAgainButNewEvidenceDoes(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.flag(Self.flag("backfills-1", events: ["e1", "e2", "e3"]))
            _ = try await store.confirmReviewFlag("backfills-1", of: "ada", by: "op_1", at: Fixtures.day(3))
            // The next day's window sees some of the same events: not flagged again.
            #expect(try await !store.flag(Self.flag("backfills-2", events: ["e2", "e3"], day: 3)))
            #expect(try await store.reviewFlag("backfills-2", of: "ada") == nil)
            // Events never confirmed are new evidence.
            #expect(try await store.flag(Self.flag("backfills-3", events: ["e3", "e4"], day: 4)))
            #expect(try await store.reviewFlags(limit: 10).map(\.id) == ["backfills-3"])
        }
    }

    @Test(arguments: Backend.allCases)
    func aClearedFlagIsNotConfirmedAndAConfirmedOneMayStillBeCleared(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.flag(Self.flag("f1", events: ["e1"]))
            try await store.flag(Self.flag("f2", events: ["e2"], day: 3))
            _ = try await store.share(Self.post("p_1"))
            _ = try await store.clearReviewFlag("f1", of: "ada", at: Fixtures.day(4))
            let cleared = try await store.confirmReviewFlag("f1", of: "ada", by: "op_1", at: Fixtures.day(5))
            #expect(cleared?.status == .cleared)
            #expect(cleared?.confirmedAt == nil)

            _ = try await store.confirmReviewFlag("f2", of: "ada", by: "op_1", at: Fixtures.day(5))
            let released = try #require(try await store.clearReviewFlag("f2", of: "ada", at: Fixtures.day(6)))
            #expect(released.openFlags == 0)
            #expect(try await store.posts(of: "ada", limit: 10).first?.held == false)
            #expect(try await store.reviewFlags(of: "ada", limit: 10).map(\.status) == [.cleared, .cleared])
        }
    }
}
