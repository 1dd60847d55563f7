/// Momentum's migrations, each frozen as the SQL it ran.
///
/// A migration that shipped is never edited: its statements are written out here as text,
/// not generated from the table descriptions in ``Schema``, so that changing a table's
/// description cannot change what an existing database was built with. A schema change
/// is a new migration at the end; `SchemaTests` pins a checksum of every shipped one, and
/// the conformance suite checks that migrating an empty database gives exactly the tables
/// ``Schema/tables`` describes, on every backend.
extension Schema {
    /// Every migration, in order. Append new ones; never edit one that shipped.
    ///
    /// The list is written in files by version range (`Schema+Migrations1to2.swift` and
    /// on); a new migration goes at the end of the last range, or in a new range file
    /// joined here.
    public static let migrations: [Migration] =
        migrations1to2 + migrations3to7 + migrations8to10 + migrations11
        + migrations12 + migrations13
}
