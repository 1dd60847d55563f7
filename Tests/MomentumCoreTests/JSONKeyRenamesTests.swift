import Foundation
import MomentumCore
import Testing

/// A layer's names for a document's fields (`JSONKeyRenames`): written sorted under the
/// new names, read back to the same value, and the domain's encoding when there are none.
struct JSONKeyRenamesTests {
    struct Day: Codable, Equatable {
        var state: String
        var streak: Int
    }

    struct Today: Codable, Equatable {
        var state: String
    }

    struct Document: Codable, Equatable {
        var best: Int
        var current: Int
        var calendar: [Day]
        var today: Today
        var note: String?
    }

    static let document = Document(
        best: 9, current: 4, calendar: [Day(state: "done", streak: 3), Day(state: "missed", streak: 0)],
        today: Today(state: "open"), note: nil)

    @Test func renamedFieldsAreWrittenSortedAndReadBack() throws {
        let renames = try JSONKeyRenames(["best": "zBest", "calendar.state": "status"])
        let bytes = try MomentumJSON.encodeBytes(Self.document, renaming: renames)
        // `calendar.state` only: today's `state` keeps its name. Keys stay sorted.
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"calendar":[{"status":"done","streak":3},{"status":"missed","streak":0}],"current":4,"today":{"state":"open"},"zBest":9}"#
        )
        let back = try MomentumJSON.decoder(renaming: renames).decode(Document.self, from: Data(bytes))
        #expect(back == Self.document)
    }

    @Test func theLongestMatchingPathWins() throws {
        let renames = try JSONKeyRenames(["state": "s", "calendar.state": "dayState"])
        let text = String(decoding: try MomentumJSON.encodeBytes(Self.document, renaming: renames), as: UTF8.self)
        #expect(text.contains(#"{"dayState":"done""#))
        #expect(text.contains(#""today":{"s":"open"}"#))
        let back = try MomentumJSON.decoder(renaming: renames).decode(Document.self, from: Data(text.utf8))
        #expect(back == Self.document)
    }

    @Test func noRenamesIsTheDomainsEncoding() throws {
        #expect(JSONKeyRenames.none.isEmpty)
        #expect(
            try MomentumJSON.encodeBytes(Self.document, renaming: .none) == MomentumJSON.encodeBytes(Self.document))
        // And it is also what Foundation's encoder writes with a rule that renames nothing here.
        let unused = try JSONKeyRenames(["absent": "elsewhere"])
        #expect(
            try MomentumJSON.encodeBytes(Self.document, renaming: unused) == MomentumJSON.encodeBytes(Self.document))
    }

    @Test func aRenamedFieldIsNotReadUnderItsDomainName() throws {
        let renames = try JSONKeyRenames(["best": "zBest"])
        // A document written with the domain's names lacks `zBest`: it does not decode.
        let domain = try MomentumJSON.encodeBytes(Self.document)
        #expect(throws: DecodingError.self) {
            try MomentumJSON.decoder(renaming: renames).decode(Document.self, from: Data(domain))
        }
    }

    @Test func renamesThatCannotBeAppliedAreRefused() {
        #expect(throws: JSONKeyRenames.Invalid.self) { try JSONKeyRenames(["": "x"]) }
        #expect(throws: JSONKeyRenames.Invalid.self) { try JSONKeyRenames(["a..b": "x"]) }
        #expect(throws: JSONKeyRenames.Invalid.self) { try JSONKeyRenames(["a": ""]) }
        #expect(throws: JSONKeyRenames.Invalid.self) { try JSONKeyRenames(["a": "b.c"]) }
        // Two fields of one object given one name.
        #expect(throws: JSONKeyRenames.Invalid.self) { try JSONKeyRenames(["best": "x", "current": "x"]) }
        // One name in two different objects is fine.
        #expect(throws: Never.self) { try JSONKeyRenames(["calendar.state": "x", "today.state": "x"]) }
    }
}
