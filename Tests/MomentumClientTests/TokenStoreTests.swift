import Foundation
import GRDB
import MomentumAPI
import MomentumClient
import MomentumCore
import Testing

/// The session token and the device keys live in a ``TokenStore``, not in the client's
/// SQLite file; on Linux the store is a file only its owner may read.
@Suite(.serialized) struct TokenStoreTests {
    @Test func theFileStoreKeepsSecretsInAnOwnerOnlyFileAcrossInstances() throws {
        let files = try ClientFiles()
        let path = files.directory.appending(path: "secrets.json").path
        let session = TokenKey(.session, server: "https://momentum.example.com", email: "ada@example.com")
        let deviceKey = TokenKey(.deviceKey, server: "https://momentum.example.com", email: "ada@example.com")
        let store = FileTokenStore(path: path)
        #expect(try store.read(session) == nil)

        try store.save("token-1", for: session)
        try store.save("key-1", for: deviceKey)
        try store.save("token-2", for: session)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // Another instance (the next launch) reads what the first wrote.
        let reopened = FileTokenStore(path: path)
        #expect(try reopened.read(session) == "token-2")
        #expect(try reopened.read(deviceKey) == "key-1")
        try reopened.delete(session)
        try reopened.delete(session)  // forgetting a missing secret is no error
        #expect(try store.read(session) == nil)
        #expect(try store.read(deviceKey) == "key-1")
        // Each write replaced the file by a rename: no temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.directory.path) == ["secrets.json"])
    }

    @Test func aDamagedFileIsAnErrorNotAnEmptyStore() throws {
        let files = try ClientFiles()
        let path = files.directory.appending(path: "secrets.json").path
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        let store = FileTokenStore(path: path)
        #expect(throws: ClientError.self) {
            try store.read(TokenKey(.session, server: "s", email: "e"))
        }
    }

    /// A device that signed in with an earlier SDK has its token in the database; opening
    /// it moves the token and the device keys to the store, leaves no trace of them in
    /// the file, and the device stays signed in.
    @Test(arguments: Backend.allCases)
    func anEarlierDatabaseMovesItsTokenToTheStoreAndStaysSignedIn(_ backend: Backend) async throws {
        try await LiveServer.with(backend) { server in
            let files = try ClientFiles()
            // Given an account with a real session (its token read from the first store).
            let firstStore = FileTokenStore(path: files.path("first") + ".secrets")
            let first = try MomentumClient(
                server: server.url, databasePath: files.path("first"), timeZone: "Europe/Berlin",
                clock: { server.clock.now }, tokenStore: firstStore)
            try await first.register(.test("ada"))
            try await first.record(habit("read", "Read"))
            try await first.sync()
            let account = try #require(await first.account)
            let key = TokenKey(.session, server: server.url.absoluteString, email: "ada@example.com")
            let token = try #require(try firstStore.read(key))
            let profile = String(decoding: try MomentumJSON.encode(try await first.profile()), as: UTF8.self)

            // And a database as the earlier SDK left it: the token in `account`, the device
            // key in `device_keys`.
            let path = files.path("earlier")
            try Self.writeEarlierDatabase(
                at: path, server: account.server, userID: account.userID, email: "Ada@example.com", token: token,
                device: account.device, profile: profile, deviceKey: "device-key-of-ada")

            // When the current SDK opens it.
            let store = FileTokenStore(path: files.path("earlier") + ".secrets")
            let client = try MomentumClient(
                server: server.url, databasePath: path, timeZone: "Europe/Berlin", clock: { server.clock.now },
                tokenStore: store)

            // Then the secrets are in the store and nowhere in the database file.
            #expect(try store.read(key) == token)
            let deviceKey = TokenKey(.deviceKey, server: server.url.absoluteString, email: "ada@example.com")
            #expect(try store.read(deviceKey) == "device-key-of-ada")
            let queue = try DatabaseQueue(path: path)
            let columns = try await queue.read { db in try db.columns(in: "account").map(\.name) }
            #expect(!columns.contains("token"), "\(columns)")
            #expect(try await queue.read { db in try db.tableExists("device_keys") } == false)
            try queue.close()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(token.utf8)) == nil, "the token's bytes are still in the file")
            #expect(bytes.range(of: Data("device-key-of-ada".utf8)) == nil)

            // And the device is still signed in with the moved token.
            let report = try await client.sync()
            #expect(report.pulled == 1)
            #expect(try await client.today(at: server.clock.now).habits.map(\.definition.id) == ["read"])

            // Signing out forgets the session's token, and keeps the device key.
            try await client.signOut()
            #expect(try store.read(key) == nil)
            #expect(try store.read(deviceKey) == "device-key-of-ada")
        }
    }

    /// The schema of the SDK before its secrets moved out (migrations v1 and v2).
    static func writeEarlierDatabase(
        at path: String, server: String, userID: String, email: String, token: String, device: String,
        profile: String, deviceKey: String
    ) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2-device-keys');
                    CREATE TABLE account (
                      id INTEGER PRIMARY KEY CHECK (id = 1), server TEXT NOT NULL, user_id TEXT NOT NULL,
                      email TEXT NOT NULL, token TEXT NOT NULL, device TEXT NOT NULL, profile TEXT NOT NULL,
                      cursor INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE log (
                      seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL,
                      received_at TEXT NOT NULL, device TEXT);
                    CREATE TABLE outbox (
                      position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body TEXT NOT NULL,
                      recorded_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT);
                    CREATE TABLE rejected (
                      id TEXT PRIMARY KEY, body TEXT NOT NULL, status TEXT NOT NULL, code TEXT NOT NULL,
                      message TEXT NOT NULL, field TEXT, refused_at TEXT NOT NULL);
                    CREATE TABLE device_keys (
                      server TEXT NOT NULL, email TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (server, email));
                    """)
            try db.execute(
                sql: """
                    INSERT INTO account (id, server, user_id, email, token, device, profile, cursor)
                    VALUES (1, ?, ?, ?, ?, ?, ?, 0)
                    """, arguments: [server, userID, email, token, device, profile])
            try db.execute(
                sql: "INSERT INTO device_keys (server, email, key) VALUES (?, ?, ?)",
                arguments: [server, email.lowercased(), deviceKey])
        }
        try queue.close()
    }
}
