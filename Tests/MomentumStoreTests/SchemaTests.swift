import MomentumStore
import Testing

struct SchemaTests {
    @Test func everyPerUserKeyBeginsWithTheUserID() {
        for table in Schema.tables where !table.global {
            #expect(table.primaryKey.first == "user_id", "\(table.name) primary key")
            for key in table.uniqueKeys { #expect(key.first == "user_id", "\(table.name) unique key") }
            #expect(table.columns.first?.name == "user_id", "\(table.name) leads with user_id")
        }
    }

    @Test func migrationVersionsCountUpFromOne() {
        #expect(Schema.migrations.map(\.version) == Array(1...Schema.migrations.count))
        #expect(Set(Schema.migrations.map(\.name)).count == Schema.migrations.count)
        let names = Schema.tables.map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test func bothDialectsCreateTheSameTablesAndColumns() {
        for table in Schema.tables {
            let sqlite = table.createSQL(.sqlite)
            let postgres = table.createSQL(.postgres)
            for column in table.columns {
                #expect(sqlite.contains("\n  \(column.name) "))
                #expect(postgres.contains("\n  \(column.name) "))
            }
        }
    }

    /// The checksum of every migration that shipped, per dialect. A migration's SQL is
    /// history: a changed checksum means an existing database was built differently from
    /// what the code now says. Change the schema with a new migration instead.
    static let shipped: [Int: (sqlite: UInt64, postgres: UInt64)] = [
        1: (0xc1f9_bb35_b341_bf10, 0xff98_6695_cb58_61d0),
        2: (0x63d6_c4fc_a704_879f, 0x9f7f_8bb7_b655_b182),
        3: (0xc702_10c5_be51_ba99, 0x22b0_b3e3_9f4f_2352),
        4: (0xc279_83c1_3f09_3a31, 0x6f8e_51f0_39e9_c11c),
        5: (0x4543_c49c_efa3_bf19, 0xf758_e9d3_4326_409d),
        6: (0xc532_8308_7cf3_467c, 0x8b43_1314_1309_c78c),
        7: (0x9107_6c2f_7de9_a94e, 0xc0c6_8d3e_1e50_23db),
        8: (0x2b17_bc0b_d450_c4ed, 0xf0b1_d032_388e_91d0),
        9: (0xba00_6124_c869_3c23, 0xba00_6124_c869_3c23),
        10: (0xa8ac_e590_0a36_b255, 0xa8ac_e590_0a36_b255),
        11: (0x74cc_48e5_c237_a68e, 0xe02a_eaa1_0639_465d),
        12: (0xaea8_6c1b_d91c_3218, 0x4f28_167c_e9a3_303c),
    ]

    /// FNV-1a, 64 bits, of a migration's statements joined by `\n;\n`.
    static func checksum(_ statements: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in statements.joined(separator: "\n;\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    @Test func shippedMigrationsAreFrozen() {
        for migration in Schema.migrations {
            guard let pinned = Self.shipped[migration.version] else { continue }
            #expect(Self.checksum(migration.sql(.sqlite)) == pinned.sqlite, "migration \(migration.version), SQLite")
            #expect(
                Self.checksum(migration.sql(.postgres)) == pinned.postgres, "migration \(migration.version), PostgreSQL"
            )
        }
        // Every migration but possibly the newest (not shipped yet) is pinned.
        #expect(Schema.migrations.dropLast().allSatisfy { Self.shipped[$0.version] != nil })
    }

    @Test func aTableDescriptionIsNotItsMigration() {
        // Editing a table's description leaves every migration's SQL as it was.
        var edited = Schema.tables[0]
        edited.columns.append(ColumnSpec("nickname", .text))
        #expect(edited.createSQL(.sqlite) != Schema.tables[0].createSQL(.sqlite))
        #expect(Self.checksum(Schema.migrations[0].sql(.sqlite)) == Self.shipped[1]?.sqlite)
    }
}
