import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Export from one backend, import into the other, export again: the same bytes.
@Suite(.serialized)
struct ArchiveRoundTripTests {
    static let journal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/ollie.jsonl")

    @Test(arguments: [(Backend.sqlite, Backend.postgres), (Backend.postgres, Backend.sqlite)])
    func exportImportExportIsLosslessAcrossBackends(_ from: Backend, _ to: Backend) async throws {
        let events = try EventLog.parse(Data(contentsOf: Self.journal)).map(\.event)
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-archive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appending(path: "first")
        let second = directory.appending(path: "second")

        try await StoreFixture.withStore(from) { store in
            try await store.createAccount(
                Fixtures.account("ollie"), profile: Fixtures.profile(pack: "ollie", zone: "Europe/Berlin"))
            for chunk in stride(from: 0, to: events.count, by: 50) {
                let slice = Array(events[chunk..<min(events.count, chunk + 50)])
                _ = try await store.append(slice, for: "ollie", receivedAt: slice.map(\.at).max()!, device: "phone")
            }
            let memory = try #require(try await store.projection(of: "ollie").memories.last)
            try await store.savePhoto(
                StoredPhoto(
                    path: "memories/park.jpg", contentType: "image/jpeg", bytes: Array(0...255),
                    createdAt: Fixtures.day(40)),
                for: "ollie")
            try await store.updateMemory(
                of: "ollie", id: memory.id, note: "At the park 🌳", photo: try MemoryPhoto(original: "memories/park.jpg")
            )
            _ = try await store.updateCelebrations(of: "ollie", now: Fixtures.day(200)) { planner in
                planner.startSession(id: "s1", at: Fixtures.day(200))
            }
            try await store.exportAccount("ollie").write(to: first)
        }
        try await StoreFixture.withStore(to) { store in
            let archive = try AccountArchive.read(from: first)
            try await store.importAccount(archive, now: Fixtures.day(200))
            try await store.exportAccount("ollie").write(to: second)
            // As one tar file too (the web app's download): the same bytes from both servers.
            #expect(try await store.exportAccount("ollie").tar() == archive.tar())
            let projection = try await store.projection(of: "ollie")
            #expect(projection.memories.contains { $0.note == "At the park 🌳" })
            #expect(projection.headSeq == Int64(events.count))
        }
        for file in ["account.jsonl", "memories.jsonl", "memories/park.jpg"] {
            let a = try Data(contentsOf: first.appending(path: file))
            let b = try Data(contentsOf: second.appending(path: file))
            #expect(a == b, "\(file) differs")
        }
    }
}
