import Foundation
import MomentumCore
import Testing

/// The engine's and the packs' versions, and how two sets of them compare.
struct RuleVersionsTests {
    @Test func semanticVersionsFollowSemVerPrecedence() throws {
        let ordered = try [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "1.10.0", "2.0.0",
        ].map { try #require(SemanticVersion($0), "\($0)") }
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower))
        }
        #expect(SemanticVersion("1.2.3+build.7") == SemanticVersion("1.2.3"))
        #expect(SemanticVersion("1.2.3-rc.1")?.description == "1.2.3-rc.1")
    }

    @Test(arguments: ["", "1", "1.2", "1.2.3.4", "01.2.3", "1.2.x", "-1.2.3", "1.2.3-", "1.2.3-01", "1.2.3+", "v1.2.3"])
    func textsThatAreNotSemanticVersionsAreRefused(_ text: String) {
        #expect(SemanticVersion(text) == nil)
    }

    @Test func everyBundledPackHasAVersionAndACombinationReportsItsMembers() throws {
        for name in RulePack.bundledOrder {
            let pack = try #require(RulePack.bundled[name])
            #expect(SemanticVersion(pack.version) != nil, "\(name): \(pack.version)")
            #expect(pack.memberVersions == [name: pack.version])
        }
        let combined = try #require(RulePack.named("ollie+habits"))
        #expect(combined.memberVersions == ["habits": RulePack.habits.version, "ollie": RulePack.ollie.version])
        #expect(combined.version == "\(RulePack.habits.version)+\(RulePack.ollie.version)")
        // A translation computes the same: it keeps the versions.
        let portuguese = try #require(Translation.named("pt-BR"))
        #expect(combined.translated(portuguese).memberVersions == combined.memberVersions)
        #expect(RuleVersions(combined) == RuleVersions(packs: ["habits", "ollie"]))
        #expect(RuleVersions(combined).engine == MomentumUser.engineVersion)
        #expect(SemanticVersion(MomentumUser.engineVersion) != nil)
    }

    @Test func aPackDocumentNamesItsVersionOrIsTheDefault() throws {
        let named = try RulePack.decode(Data(#"{"name": "mine", "version": "2.1.0"}"#.utf8), source: "mine.json")
        #expect(named.version == "2.1.0")
        let unnamed = try RulePack.decode(Data(#"{"name": "mine"}"#.utf8), source: "mine.json")
        #expect(unnamed.version == RulePack.defaultVersion)
        #expect(throws: MomentumError.self) {
            try RulePack.decode(Data(#"{"name": "mine", "version": "two"}"#.utf8), source: "mine.json")
        }
        let again = try RulePack.decode(try JSONEncoder().encode(named), source: "again.json")
        #expect(again.version == "2.1.0")
    }

    @Test func versionsCompareByTheEngineAndEachPackOfTheServer() {
        let device = RuleVersions(engine: "1.2.0", packs: ["habits": "1.0.0", "ollie": "1.1.0"])
        func server(_ engine: String, _ packs: [String: String]) -> RuleVersions.Comparison {
            RuleVersions(engine: engine, packs: packs).comparison(to: device)
        }
        #expect(server("1.2.0", ["habits": "1.0.0", "ollie": "1.1.0"]) == .same)
        #expect(server("1.2.0", ["habits": "1.0.0"]) == .same)
        #expect(server("1.3.0", ["habits": "1.0.0"]) == .newer)
        #expect(server("1.2.0", ["habits": "1.0.1"]) == .newer)
        #expect(server("1.1.9", ["habits": "1.0.0"]) == .older)
        #expect(server("1.2.0", ["ollie": "1.0.9"]) == .older)
        // Newer anywhere wins: the server has rules the device lacks.
        #expect(server("1.1.0", ["ollie": "2.0.0"]) == .newer)
        // A pack the device does not have, or a version that is no semantic version.
        #expect(server("1.2.0", ["savings": "1.0.0"]) == .newer)
        #expect(server("1.2.0-beta", ["habits": "1.0.0"]) == .older)
        #expect(server("next", ["habits": "1.0.0"]) == .newer)
    }
}
