import Foundation

extension SQLBackend {
    static var packVersionColumns: String {
        "SELECT name, version, document, uploaded_by, uploaded_at, active, activated_at, activated_by FROM pack_versions"
    }
    static var packVersionSummaryColumns: String {
        "SELECT name, version, '', uploaded_by, uploaded_at, active, activated_at, activated_by FROM pack_versions"
    }

    /// Implements ``MomentumStore`` `storePackVersion`; see the protocol for its contract.
    public func storePackVersion(_ version: PackVersion) async throws(StoreError) -> PackVersion.Stored {
        try PackPrograms.validate(version)
        let document = String(decoding: version.document, as: UTF8.self)
        let existing = SQLStatement(
            "SELECT document FROM pack_versions WHERE name = ? AND version = ?",
            [.text(version.name), .text(version.version)])
        let insert = SQLStatement(
            """
            INSERT INTO pack_versions (name, version, document, uploaded_by, uploaded_at, active, activated_at, activated_by)
            VALUES (?, ?, ?, ?, ?, 0, NULL, NULL)
            """,
            [
                .text(version.name), .text(version.version), .text(document), .text(version.uploadedBy),
                .date(StoreJSON.canonical(version.uploadedAt)),
            ])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .lock("pack:\(version.name)") { () throws(StoreError) in
                    .query([existing]) { rows throws(StoreError) in
                        if let row = rows[0].first {
                            return .done(try row.text(0, "document") == document ? .unchanged : .conflict)
                        }
                        return .execute([insert]) { _ throws(StoreError) in .done(.stored) }
                    }
                }
            })
    }

    /// Implements ``MomentumStore`` `packVersions`; see the protocol for its contract.
    public func packVersions() async throws(StoreError) -> [PackVersion] {
        try await packVersions(
            SQLStatement("\(Self.packVersionSummaryColumns) ORDER BY name, uploaded_at DESC, version DESC", []))
    }

    /// Implements ``MomentumStore`` `packVersion`; see the protocol for its contract.
    public func packVersion(name: String, version: String) async throws(StoreError) -> PackVersion? {
        try await packVersions(
            SQLStatement("\(Self.packVersionColumns) WHERE name = ? AND version = ?", [.text(name), .text(version)])
        ).first
    }

    /// Implements ``MomentumStore`` `activePackVersions`; see the protocol for its contract.
    public func activePackVersions() async throws(StoreError) -> [PackVersion] {
        try await packVersions(SQLStatement("\(Self.packVersionColumns) WHERE active = 1 ORDER BY name", []))
    }

    /// Implements ``MomentumStore`` `activatePackVersion`; see the protocol for its contract.
    @discardableResult
    public func activatePackVersion(
        name: String, version: String?, by operatorID: String, at instant: Date
    ) async throws(StoreError) -> PackVersion? {
        let deactivate = SQLStatement(
            "UPDATE pack_versions SET active = 0 WHERE name = ? AND active = 1", [.text(name)])
        guard let version else {
            _ = try await write(nil, deactivate)
            return nil
        }
        let select = SQLStatement(
            "\(Self.packVersionColumns) WHERE name = ? AND version = ?", [.text(name), .text(version)])
        let activate = SQLStatement(
            "UPDATE pack_versions SET active = 1, activated_at = ?, activated_by = ? WHERE name = ? AND version = ?",
            [.date(StoreJSON.canonical(instant)), .text(operatorID), .text(name), .text(version)])
        return try await run(
            StoreProgram(writes: true) { () throws(StoreError) in
                .lock("pack:\(name)") { () throws(StoreError) in
                    .query([select]) { rows throws(StoreError) in
                        guard !rows[0].isEmpty else {
                            throw StoreError(.notFound, "no version \(version) of pack '\(name)'")
                        }
                        // Deactivate first: the unique index allows one active version per name.
                        return .execute([deactivate, activate]) { _ throws(StoreError) in
                            .query([select]) { rows throws(StoreError) in
                                .done(try rows[0].first.map(PackPrograms.version(from:)))
                            }
                        }
                    }
                }
            })
    }

    private func packVersions(_ statement: SQLStatement) async throws(StoreError) -> [PackVersion] {
        try await run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(try rows[0].map(PackPrograms.version(from:))) }
            })
    }
}

/// Programs and row decoders for uploaded packs.
enum PackPrograms {
    static func validate(_ version: PackVersion) throws(StoreError) {
        guard (1...40).contains(version.name.utf8.count), (1...64).contains(version.version.utf8.count),
            (1...128).contains(version.uploadedBy.utf8.count), !version.document.isEmpty
        else {
            throw StoreError(.invalidInput, "a pack version needs a name, a version, a document and who uploaded it")
        }
    }

    static func version(from row: SQLRow) throws(StoreError) -> PackVersion {
        PackVersion(
            name: try row.text(0, "name"), version: try row.text(1, "version"),
            document: Data(try row.text(2, "document").utf8), uploadedBy: try row.text(3, "uploaded_by"),
            uploadedAt: try row.date(4, "uploaded_at"), active: try row.int(5, "active") == 1,
            activatedAt: row.optionalDate(6), activatedBy: row.optionalText(7))
    }
}

extension SQLBackend {
    /// Implements ``AccountStore`` `packLibrary`: the engine cache's, so that an engine built
    /// with older packs is a miss.
    public var packLibrary: PackLibrary { engines.packs }
}
