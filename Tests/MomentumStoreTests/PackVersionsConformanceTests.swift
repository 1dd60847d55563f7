import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Uploaded pack versions, on every backend.
@Suite(.serialized)
struct PackVersionsConformanceTests {
    static func version(_ name: String, _ version: String, document: String = "{}", at minute: Int = 0) -> PackVersion {
        PackVersion(
            name: name, version: version, document: Data(document.utf8), uploadedBy: "op_1",
            uploadedAt: Fixtures.start.addingTimeInterval(Double(minute * 60)))
    }

    @Test(arguments: Backend.allCases)
    func theSameUploadTwiceIsANoOpAndAnotherDocumentForAVersionConflicts(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            #expect(try await store.storePackVersion(Self.version("puppy", "1.0.0", document: #"{"a":1}"#)) == .stored)
            #expect(
                try await store.storePackVersion(Self.version("puppy", "1.0.0", document: #"{"a":1}"#, at: 5))
                    == .unchanged)
            #expect(
                try await store.storePackVersion(Self.version("puppy", "1.0.0", document: #"{"a":2}"#)) == .conflict)
            let stored = try #require(try await store.packVersion(name: "puppy", version: "1.0.0"))
            #expect(stored.document == Data(#"{"a":1}"#.utf8))
            #expect(stored.uploadedAt == Fixtures.start)
            #expect(stored.active == false)
            #expect(try await store.packVersions().count == 1)
            #expect(try await store.packVersion(name: "puppy", version: "2.0.0") == nil)
            await #expect(throws: StoreError.self) { try await store.storePackVersion(Self.version("", "1.0.0")) }
        }
    }

    @Test(arguments: Backend.allCases)
    func activatingFlipsTheActiveVersionOfOneNameAtOnce(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            _ = try await store.storePackVersion(Self.version("puppy", "1.0.0", at: 0))
            _ = try await store.storePackVersion(Self.version("puppy", "1.1.0", at: 1))
            _ = try await store.storePackVersion(Self.version("habits", "1.1.0", at: 2))
            #expect(try await store.activePackVersions().isEmpty)

            let first = try await store.activatePackVersion(
                name: "puppy", version: "1.0.0", by: "op_2", at: Fixtures.day(1))
            #expect(first?.active == true)
            #expect(first?.activatedBy == "op_2")
            #expect(first?.activatedAt == Fixtures.day(1))
            try await store.activatePackVersion(name: "habits", version: "1.1.0", by: "op_2", at: Fixtures.day(1))
            try await store.activatePackVersion(name: "puppy", version: "1.1.0", by: "op_3", at: Fixtures.day(2))
            let active = try await store.activePackVersions()
            #expect(active.map { "\($0.name) \($0.version)" } == ["habits 1.1.0", "puppy 1.1.0"])
            #expect(active.allSatisfy { !$0.document.isEmpty })
            // The list has every version, the earlier one inactive again, documents left out.
            let listed = try await store.packVersions()
            #expect(
                listed.map { "\($0.name) \($0.version) \($0.active)" } == [
                    "habits 1.1.0 true", "puppy 1.1.0 true", "puppy 1.0.0 false",
                ])
            #expect(listed.allSatisfy { $0.document.isEmpty })

            // A version not stored is refused, and nothing changes.
            await #expect(throws: StoreError.self) {
                try await store.activatePackVersion(name: "puppy", version: "9.0.0", by: "op_2", at: Fixtures.day(3))
            }
            #expect(try await store.activePackVersions().count == 2)

            // Back to the bundled pack: no version of that name is active.
            #expect(
                try await store.activatePackVersion(name: "habits", version: nil, by: "op_2", at: Fixtures.day(3))
                    == nil)
            #expect(try await store.activePackVersions().map(\.name) == ["puppy"])
        }
    }

    @Test(arguments: Backend.allCases)
    func concurrentActivationsLeaveExactlyOneActiveVersion(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            for minor in 0..<6 { _ = try await store.storePackVersion(Self.version("puppy", "1.\(minor).0")) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for minor in 0..<6 {
                    group.addTask {
                        try await store.activatePackVersion(
                            name: "puppy", version: "1.\(minor).0", by: "op_1", at: Fixtures.day(1))
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.activePackVersions().count == 1)
        }
    }
}
