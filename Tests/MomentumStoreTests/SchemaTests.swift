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
}
