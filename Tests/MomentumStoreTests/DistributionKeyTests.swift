import Foundation
import MomentumStore
import MomentumTestSupport
import Testing

/// What a distributed PostgreSQL (Citus, sharding by user id) relies on, read from the
/// migrated schema of each backend: every per-user table's primary key, unique keys and
/// unique indexes include `user_id`, and every foreign key between them names `user_id` on
/// both sides, so that each user's rows live together on one shard and no constraint has to
/// look across shards. The few tables that are not per user are listed with the reason
/// each can be a reference table or be sharded by its own key (SCALING.md).
@Suite(.serialized)
struct DistributionKeyTests {
    /// Tables keyed by something other than a user, and why that distributes.
    static let global: [String: String] = [
        Schema.migrationsTable: "the schema's version: a reference table",
        "account_emails": "sign-in's lookup from an email to its user: sharded by email",
        "invitations": "looked up by code by whoever holds it: sharded by code",
        "rate_limits": "shared counters by limit key: sharded by key (or kept in one node)",
        "webhooks": "the operator's endpoints: a reference table",
        "server_settings": "the server's own settings: a reference table",
        "server_keys": "the operator's keys for app backends: a reference table",
        "webhook_options": "the operator's webhook settings, beside webhooks: a reference table",
        "notification_counts": "counts per hour, kind, channel and outcome every instance adds to: a reference table",
        "app_users": "a backend's lookup from its own user id to a user: sharded by (app, app user id)",
        "identities": "sign-in's lookup from a provider's subject to its user: sharded by (provider, subject)",
        "account_links": "a mailed link is looked up by its token's hash alone: sharded by hash",
        "mail_outbox": "letters any instance may claim and send: sharded by mail id",
        "operators": "the server's operators: a reference table",
        "operator_sessions": "an operator's session is looked up by its token's hash alone: a reference table",
        "audit_log": "what operators did, across users: a reference table",
        "what_if_runs": "an operator's replays of a candidate pack over every user: a reference table",
        "pack_versions": "the rule packs operators upload, read by every instance: a reference table",
        "amnesties": "the outages operators declare, reaching every user: a reference table",
    ]

    /// One key of a table: its kind, its columns, and for a foreign key what it references.
    struct Key: CustomStringConvertible {
        var table: String
        var kind: String
        var columns: [String]
        var references: String = ""
        var referencedColumns: [String] = []

        var description: String {
            "\(table) \(kind) (\(columns.joined(separator: ", ")))"
                + (references.isEmpty ? "" : " → \(references) (\(referencedColumns.joined(separator: ", ")))")
        }
    }

    @Test(arguments: Backend.allCases)
    func everyPerUserKeyNamesTheUser(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            let keys = try await Self.keys(of: store)
            let tables = Set(keys.map(\.table))
            #expect(tables.isSuperset(of: ["events", "habits", "friendships", "deliveries"]), "\(tables.sorted())")
            #expect(Set(Self.global.keys).isSubset(of: tables.union([Schema.migrationsTable])))
            // The reading sees every kind of key, and would see one that leaves the user out
            // (the email lookup's own key is such a one, and is allowed).
            #expect(Set(keys.map(\.kind)).isSuperset(of: ["primary key", "foreign key"]), "\(keys)")
            #expect(keys.contains { $0.table == "account_emails" && $0.columns == ["email"] }, "\(keys)")
            #expect(keys.contains { $0.table == "deliveries" && $0.references == "notifications" }, "\(keys)")
            for key in keys where Self.global[key.table] == nil {
                #expect(key.columns.contains("user_id"), "\(key) on \(backend) does not name user_id")
                if key.kind == "foreign key" {
                    #expect(
                        Self.global[key.references] == nil
                            && zip(key.columns, key.referencedColumns).contains { $0 == ("user_id", "user_id") },
                        "\(key) on \(backend) looks across users")
                }
            }
            // Each per-user table has a primary key (Citus distributes a table by a column of it).
            let keyed = Set(keys.filter { $0.kind == "primary key" }.map(\.table))
            for table in Schema.tables.map(\.name) where Self.global[table] == nil {
                #expect(keyed.contains(table), "\(table) on \(backend) has no primary key")
            }
        }
    }

    /// Every primary key, unique key or index, and foreign key of the migrated schema.
    static func keys(of store: any SQLBackend) async throws -> [Key] {
        store.dialect == .sqlite ? try await sqliteKeys(store) : try await postgresKeys(store)
    }

    static func rows(_ store: any SQLBackend, _ statement: SQLStatement) async throws -> [[String]] {
        try await store.run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { results throws(StoreError) in
                    .done(results[0].map { row in row.values.map { $0.string ?? $0.int64.map(String.init) ?? "" } })
                }
            })
    }

    static func postgresKeys(_ store: any SQLBackend) async throws -> [Key] {
        let constraints = try await rows(
            store,
            SQLStatement(
                """
                SELECT c.conrelid::regclass::text, c.contype::text,
                  (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n),
                  COALESCE(c.confrelid::regclass::text, ''),
                  COALESCE((SELECT string_agg(a.attname, ',' ORDER BY k.i)
                     FROM unnest(c.confkey) WITH ORDINALITY AS k(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n), '')
                FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
                WHERE s.nspname = current_schema() AND c.contype IN ('p', 'u', 'f')
                UNION ALL
                SELECT i.indrelid::regclass::text, 'i',
                  (SELECT string_agg(a.attname, ',' ORDER BY k.i) FROM unnest(i.indkey) WITH ORDINALITY AS k(n, i)
                     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n), '', ''
                FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
                WHERE s.nspname = current_schema() AND i.indisunique
                  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
                """))
        let kinds = ["p": "primary key", "u": "unique key", "f": "foreign key", "i": "unique index"]
        return constraints.map { row in
            Key(
                table: row[0], kind: kinds[row[1]] ?? row[1], columns: row[2].split(separator: ",").map(String.init),
                references: row[3], referencedColumns: row[4].split(separator: ",").map(String.init))
        }
    }

    static func sqliteKeys(_ store: any SQLBackend) async throws -> [Key] {
        let tables = try await rows(
            store, SQLStatement("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        var keys: [Key] = []
        for table in tables.map({ $0[0] }) {
            let primary = try await rows(
                store, SQLStatement("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [.text(table)]))
            if !primary.isEmpty { keys.append(Key(table: table, kind: "primary key", columns: primary.map { $0[0] })) }
            let indexes = try await rows(
                store,
                SQLStatement(
                    "SELECT name, origin FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin != 'pk'",
                    [.text(table)]))
            for index in indexes {
                let columns = try await rows(
                    store, SQLStatement("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index[0])]))
                keys.append(
                    Key(
                        table: table, kind: index[1] == "u" ? "unique key" : "unique index",
                        columns: columns.map { $0[0] }))
            }
            let foreign = try await rows(
                store,
                SQLStatement(
                    "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq",
                    [.text(table)]))
            for (_, group) in Dictionary(grouping: foreign, by: { $0[0] }).sorted(by: { $0.key < $1.key }) {
                keys.append(
                    Key(
                        table: table, kind: "foreign key", columns: group.map { $0[2] }, references: group[0][1],
                        referencedColumns: group.map { $0[3] }))
            }
        }
        return keys
    }
}
