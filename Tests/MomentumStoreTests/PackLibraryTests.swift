import Foundation
import MomentumCore
import MomentumStore
import Testing

/// The packs in force: uploads over the bundled packs, combinations in canonical order, a
/// generation that changes with them, and stored versions that no longer read skipped.
struct PackLibraryTests {
    static func version(_ name: String, _ version: String, _ document: String) -> PackVersion {
        PackVersion(
            name: name, version: version, document: Data(document.utf8), uploadedBy: "op_1", uploadedAt: Fixtures.start,
            active: true)
    }

    static let puppy = #"""
        {"pack": {"name": "puppy", "version": "1.0.0", "eventTypes": ["log"], "achievements": [
          {"id": "first-swim", "kind": "first", "title": "First swim", "category": "c", "tier": 2, "badge": "🏊",
           "match": {"kind": "swim"}}]},
         "translations": {"pt-BR": {"pack.puppy.rule.first-swim.title": "Primeiro mergulho"}}}
        """#

    @Test func uploadsJoinTheBundledPacksInCanonicalOrderWithTheirTranslations() throws {
        let library = PackLibrary()
        #expect(library.named("puppy") == nil)
        let before = library.generation
        #expect(library.update(active: [Self.version("puppy", "1.0.0", Self.puppy)]) == [])
        #expect(library.generation != before)
        #expect(library.canonicalNames("puppy+ollie+habits") == ["habits", "ollie", "puppy"])
        #expect(library.named("puppy+habits")?.name == "habits+puppy")
        #expect(library.version(of: "puppy") == "1.0.0")
        #expect(library.ruleVersions(of: ["habits", "puppy"]).packs == ["habits": "1.0.0", "puppy": "1.0.0"])
        let profile = Profile(displayName: "Pip", pack: "puppy", language: "pt-BR", updatedAt: Fixtures.start)
        #expect(try profile.rulePack(in: library).achievements.first?.title == "Primeiro mergulho")
        #expect(throws: StoreError.self) { try profile.rulePack() }
        // The same versions again change nothing.
        let generation = library.generation
        library.update(active: [Self.version("puppy", "1.0.0", Self.puppy)])
        #expect(library.generation == generation)
        // A candidate in place of its namesake, even a name not yet in force.
        let candidate = RulePack(name: "kitten")
        #expect(library.named("habits+kitten", replacing: candidate)?.memberNames == ["habits", "kitten"])
    }

    @Test func aStoredVersionThatNoLongerReadsIsSkippedAndItsNameFallsBack() {
        let library = PackLibrary()
        let skipped = library.update(active: [
            Self.version(
                "puppy", "1.0.0", #"{"pack": {"name": "puppy", "version": "1.0.0", "streakMilestones": [0]}}"#),
            Self.version("habits", "1.1.0", "not json"),
            Self.version("savings", "2.0.0", Self.puppy),
        ])
        #expect(skipped.count == 3, "\(skipped)")
        #expect(library.named("puppy") == nil)
        #expect(library.version(of: "habits") == RulePack.habits.version)
        #expect(library.version(of: "savings") == RulePack.savings.version)
    }
}
