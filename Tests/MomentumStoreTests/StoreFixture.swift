import Foundation
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import Testing

/// The backends every conformance test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// Creates a fresh, migrated store for a test and removes it afterwards.
enum StoreFixture {
    static func withStore<R>(
        _ backend: Backend, cacheCapacity: Int = 2_000, migrate: Bool = true, _ body: (any SQLBackend) async throws -> R
    ) async throws -> R {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(
                path: directory.appending(path: "test.sqlite").path, engineCacheCapacity: cacheCapacity)
            return try await run(store, migrate: migrate, body)
        case .postgres:
            return try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_test") { url in
                try await run(try PostgresStore(url: url, engineCacheCapacity: cacheCapacity), migrate: migrate, body)
            }
        }
    }

    /// Runs `body` with `store` (migrated first if asked), and closes the store either way.
    private static func run<R>(
        _ store: any SQLBackend, migrate: Bool, _ body: (any SQLBackend) async throws -> R
    ) async throws -> R {
        do {
            if migrate { try await store.migrate() }
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// Builders for the accounts and events the tests use.
enum Fixtures {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    static func day(_ n: Int, hour: Int = 12) -> Date {
        start.addingTimeInterval(Double((n - 1) * 86_400 + hour * 3_600))
    }

    static func account(_ id: String, email: String? = nil) -> Account {
        Account(id: id, email: email ?? "\(id)@example.com", passwordHash: "$2b$12$hash", createdAt: start)
    }

    static func profile(pack: String = "habits", zone: String = "UTC") -> Profile {
        Profile(displayName: "Ada", timeZone: zone, dayStartHour: 0, pack: pack, updatedAt: start)
    }

    static func event(_ json: String) throws -> Event {
        try MomentumJSON.decoder().decode(Event.self, from: Data(json.utf8))
    }

    static func createHabit(_ id: String = "read", at day: Int = 1) throws -> Event {
        try event(
            """
            {"id":"create-\(id)","type":"habit.created","at":"\(RFC3339.format(Fixtures.day(day, hour: 8)))","tz":"UTC",
             "habit":"\(id)","name":"Read"}
            """)
    }

    static func purchase(_ id: String, item: String = "freeze-1", day: Int, hour: Int = 21) throws -> Event {
        try event(
            """
            {"id":"\(id)","type":"purchase","at":"\(RFC3339.format(Fixtures.day(day, hour: hour)))","tz":"UTC","item":"\(item)"}
            """)
    }

    static func completion(_ id: String, habit: String = "read", day: Int, hour: Int = 20) throws -> Event {
        try event(
            """
            {"id":"\(id)","type":"completion","at":"\(RFC3339.format(Fixtures.day(day, hour: hour)))","tz":"UTC","habit":"\(habit)"}
            """)
    }
}
