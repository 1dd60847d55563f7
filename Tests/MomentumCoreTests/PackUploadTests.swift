import Foundation
import MomentumCore
import PropertyBased
import Testing

/// Uploaded packs: every problem listed at once, with its path, and nothing that traps.
struct PackUploadTests {
    static func upload(_ pack: String, translations: String = "{}") -> Data {
        Data(#"{"pack": \#(pack), "translations": \#(translations)}"#.utf8)
    }

    static let puppy = #"""
        {"name": "puppy", "version": "1.0.0", "title": "Puppy", "eventTypes": ["log"], "backfillDays": null,
         "forms": [{"id": "swim", "title": "Swim", "type": "log", "kind": "swim",
                    "fields": [{"name": "value", "label": "Minutes", "input": "number", "unit": "min"}]}],
         "achievements": [{"id": "first-swim", "kind": "first", "title": "First swim", "category": "lifestyle",
                           "tier": 2, "badge": "🏊", "match": {"kind": "swim"}},
                          {"id": "swims", "kind": "count", "title": "{value} swims", "category": "lifestyle",
                           "tier": 1, "badge": "b", "match": {"kind": "swim"}, "at": [10, 50]}]}
        """#

    @Test func everyBundledPackIsAValidUpload() {
        for json in [RulePack.habitsJSON, RulePack.ollieJSON, RulePack.savingsJSON, RulePack.growthJSON] {
            #expect(PackUpload.problems(Self.upload(json)) == [])
        }
    }

    @Test func aValidUploadKeepsItsPackAndTranslationsAndACanonicalDocument() throws {
        let data = Self.upload(
            Self.puppy, translations: #"{"pt-BR": {"pack.puppy.rule.first-swim.title": "Primeiro mergulho"}}"#)
        guard case .valid(let upload) = PackUpload.read(data) else {
            Issue.record("refused: \(PackUpload.problems(data))")
            return
        }
        #expect(upload.pack.name == "puppy")
        #expect(upload.pack.version == "1.0.0")
        #expect(upload.pack.achievements.map(\.id) == ["first-swim", "swims"])
        #expect(upload.pack.forms.map(\.id) == ["swim"])
        let portuguese = try #require(Translation.named("pt-BR"))
        let translated = upload.pack.translated(upload.translation(portuguese))
        #expect(translated.achievements[0].title == "Primeiro mergulho")
        // The same upload written otherwise has the same canonical document.
        let reordered = Data(
            #"{"translations": {"pt-BR": {"pack.puppy.rule.first-swim.title": "Primeiro mergulho"}}, "pack": \#(Self.puppy)}"#
                .utf8)
        guard case .valid(let again) = PackUpload.read(reordered) else {
            Issue.record("refused")
            return
        }
        #expect(again.document == upload.document)
    }

    @Test func everyProblemOfOneDocumentIsListedWithItsPath() {
        // Given one upload with every kind of bad input at once.
        let pack = #"""
            {"name": "Puppy App", "version": "one", "streakMilestones": [7, 1000000],
             "methods": [{"id": "tricks", "name": "Tricks", "stages": [{"id": "a", "name": "A", "order": 1}]}],
             "achievements": [
               {"id": "a", "kind": "first", "title": "A", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "swim"}},
               {"id": "a", "kind": "first", "title": "Again", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "swim"}},
               {"id": "b", "kind": "teleport", "title": "B", "category": "c", "tier": 1, "badge": "b"},
               {"id": "c", "kind": "count", "title": "{value} swims", "category": "c", "tier": 1, "badge": "b",
                "match": {"kind": "swim"}, "at": [10, 1e12]},
               {"id": "d", "kind": "stageReached", "title": "D", "category": "c", "tier": 1, "badge": "b", "method": "agility"},
               {"id": "e", "kind": "consistency", "title": "E", "category": "c", "tier": 1, "badge": "b", "days": 99999999,
                "source": "habit"},
               {"id": "f", "kind": "first", "title": "F", "category": "c", "tier": 9, "badge": "b", "match": {"kind": "swim"}}
             ]}
            """#
        let translations = #"""
            {"pt-BR": {"pack.puppy.rule.c.title.other": "natações", "pack.puppy.rule.nope.title": "x"},
             "xx-YY": {"pack.puppy.title": "?"}}
            """#
        // When it is read.
        let problems = PackUpload.problems(Self.upload(pack, translations: translations))
        let paths = Set(problems.map(\.path))
        // Then every problem is there, each at its path.
        #expect(paths.contains("pack.name"))
        #expect(paths.contains("pack.version"))
        #expect(paths.contains("pack.streakMilestones[1]"))
        #expect(paths.contains("pack.achievements[1].id"))
        #expect(problems.contains { $0.path == "pack.achievements[2].kind" && $0.problem.contains("streak") })
        #expect(paths.contains("pack.achievements[3].at[1]"))
        #expect(paths.contains("pack.achievements[4].method"))
        #expect(paths.contains("pack.achievements[5].days"))
        #expect(paths.contains("pack.achievements[6].tier"))
        #expect(paths.contains("translations.xx-YY"))
        #expect(paths.contains("translations.pt-BR.pack.puppy.rule.nope.title"))
        #expect(problems.contains { $0.path == "translations.pt-BR.pack.puppy.rule.c.title.other" })
        #expect(problems.count == 12, "\(problems)")
        #expect(problems.allSatisfy { !$0.problem.isEmpty })
    }

    @Test func everyUnknownFieldAnywhereIsListedWithItsPathAndTheOtherProblems() {
        // Given a pack whose objects, at every level, carry a field no type knows, and one
        // rule that also has a threshold out of bounds.
        let pack = #"""
            {"name": "puppy", "version": "1.0.0", "colour": "red",
             "rewards": [{"every": 10, "diamonds": 5, "bonus": 1}],
             "store": {"items": [{"id": "a", "freezes": 1, "diamonds": 10, "sale": true}],
                       "customPricePerFreeze": 10, "customMaximum": 365, "currency": "d"},
             "methods": [{"id": "m", "name": "M", "colour": "red",
                          "stages": [{"id": "s", "name": "S", "order": 1, "rank": 1}]}],
             "forms": [{"id": "f", "title": "F", "type": "log", "kind": "swim", "colour": "red",
                        "fields": [{"name": "item", "label": "Where", "input": "choice", "hint": "h",
                                    "options": [{"value": "sea", "emoji": "🌊"}]}]}],
             "achievements": [
               {"id": "a", "kind": "first", "title": "A", "category": "c", "tier": 1, "badge": "b",
                "match": {"kind": "swim", "kinds": ["run"]}},
               {"id": "b", "kind": "streak", "title": "B", "category": "c", "tier": 1, "badge": "b",
                "match": {"kind": "swim"}, "breaks": {"kind": "skip", "why": "x"}, "at": [7]},
               {"id": "c", "kind": "count", "title": "C", "category": "c", "tier": 1, "badge": "b",
                "match": {"kind": "swim"}, "at": [10, 1e12], "treshold": 10},
               {"id": "d", "kind": "combination", "title": "D", "category": "c", "tier": 1, "badge": "b",
                "date": "born", "unit": "weeks", "at": [16],
                "coverage": {"match": {"kind": "meet", "colour": "red"}, "total": 5, "atLeast": 0.5, "most": 1}}
             ]}
            """#
        // When it is read.
        let problems = PackUpload.problems(Self.upload(pack))
        // Then each unknown field is listed at its path, with the rule's other problem.
        let unknown = [
            "pack.colour", "pack.rewards[0].bonus", "pack.store.items[0].sale", "pack.store.currency",
            "pack.methods[0].colour", "pack.methods[0].stages[0].rank", "pack.forms[0].colour",
            "pack.forms[0].fields[0].hint", "pack.forms[0].fields[0].options[0].emoji",
            "pack.achievements[0].match.kinds", "pack.achievements[1].breaks.why", "pack.achievements[2].treshold",
            "pack.achievements[3].coverage.match.colour", "pack.achievements[3].coverage.most",
        ]
        #expect(Set(problems.map(\.path)) == Set(unknown + ["pack.achievements[2].at[1]"]), "\(problems)")
        #expect(problems.count == unknown.count + 1, "\(problems)")
        let treshold = problems.first { $0.path == "pack.achievements[2].treshold" }
        #expect(treshold?.problem.hasPrefix("unknown field") == true)
        #expect(treshold?.problem.contains("every") == true, "names the fields a rule has")
        // And without the unknown fields the same pack is valid.
        let clean = PackUpload.problems(
            Self.upload(
                #"""
                {"name": "puppy", "version": "1.0.0",
                 "achievements": [{"id": "c", "kind": "count", "title": "C", "category": "c", "tier": 1, "badge": "b",
                                   "match": {"kind": "swim"}, "at": [10]}]}
                """#))
        #expect(clean == [])
    }

    /// A pack of rules `a`, `b`, `c`, … each a first walk that requires the rules given.
    static func requiring(_ requires: [String: String]) -> Data {
        let rules = requires.keys.sorted().map { id in
            #"{"id": "\#(id)", "kind": "first", "title": "T", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "walk"}, "requires": \#(requires[id] ?? "[]")}"#
        }
        return upload(#"{"name": "puppy", "version": "1.0.0", "achievements": [\#(rules.joined(separator: ","))]}"#)
    }

    @Test func requirementsNamingRulesOfThePackWithoutACycleAreValid() {
        let problems = PackUpload.problems(Self.requiring(["a": "[]", "b": #"["a"]"#, "c": #"["a", "b"]"#]))
        #expect(problems == [])
    }

    @Test func aThreeCycleIsRefusedNamingItsRules() {
        let problems = PackUpload.problems(
            Self.requiring(["a": #"["b"]"#, "b": #"["c"]"#, "c": #"["a"]"#, "d": #"["a"]"#]))
        #expect(
            problems == [PackUpload.Problem(path: "pack.achievements[0].requires[0]", problem: "cycle: a → b → c → a")])
    }

    @Test func aRuleRequiringItselfIsACycle() {
        let problems = PackUpload.problems(Self.requiring(["a": #"["b", "a"]"#, "b": "[]"]))
        #expect(problems.map(\.path) == ["pack.achievements[0].requires[1]"])
        #expect(problems.first?.problem.contains("cycle: a → a") == true, "\(problems)")
    }

    @Test func everyBadRequirementIsListedWithTheOtherProblems() {
        // Given an unknown rule, a repeated one, too many, a cycle of two and a bound broken.
        let many = "[" + (0..<33).map { _ in #""a""# }.joined(separator: ",") + "]"
        let problems = PackUpload.problems(
            Self.requiring(["a": #"["nope", "b", "b"]"#, "b": #"["a"]"#, "c": many, "d": #""a""#]))
        let paths = problems.map(\.path)
        #expect(paths.contains("pack.achievements[0].requires[0]"))
        #expect(problems.contains { $0.path == "pack.achievements[0].requires[0]" && $0.problem.contains("'nope'") })
        #expect(paths.contains("pack.achievements[0].requires[2]"))
        #expect(problems.contains { $0.path == "pack.achievements[0].requires[1]" && $0.problem == "cycle: a → b → a" })
        #expect(problems.contains { $0.path == "pack.achievements[2].requires" && $0.problem.contains("at most 32") })
        #expect(paths.contains("pack.achievements[3].requires"), "a string, not a list")
        #expect(problems.count == 5 + 32, "\(problems)")
    }

    @Test func aRequirementOfARuleWithProblemsOfItsOwnIsNotAProblemToo() {
        let pack = #"""
            {"name": "puppy", "version": "1.0.0", "achievements": [
              {"id": "a", "kind": "first", "title": "A", "category": "c", "tier": 9, "badge": "b", "match": {"kind": "walk"}},
              {"id": "b", "kind": "first", "title": "B", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "walk"},
               "requires": ["a"]}]}
            """#
        #expect(PackUpload.problems(Self.upload(pack)).map(\.path) == ["pack.achievements[0].tier"])
    }

    @Test func aRuleThatCannotBeReadStillHasItsBoundsChecked() {
        // Given rules with a field that cannot be read and thresholds out of bounds.
        let pack = #"""
            {"name": "puppy", "version": "1.0.0", "achievements": [
              {"id": "a", "kind": "count", "title": "A", "category": "c", "badge": "b", "match": {"kind": "swim"},
               "at": [10, 1e12], "every": -1},
              {"id": "b", "kind": "amount", "title": 7, "category": "c", "tier": 9, "badge": "b", "at": [2e9]}]}
            """#
        let problems = PackUpload.problems(Self.upload(pack))
        // Then each rule's problems are all listed.
        #expect(
            problems.map(\.path) == [
                "pack.achievements[0].tier", "pack.achievements[0].at[1]", "pack.achievements[0].every",
                "pack.achievements[1].title", "pack.achievements[1].at[0]",
            ], "\(problems)")
    }

    @Test func aNameIsLowercaseLettersDigitsAndHyphens() {
        for name in ["a", "puppy", "first-swim-2", String(repeating: "a", count: 40)] {
            let pack = #"{"name": "\#(name)", "version": "1.0.0"}"#
            #expect(PackUpload.problems(Self.upload(pack)) == [], "\(name)")
        }
        for name in ["", "Puppy", "2fast", "a_b", "a+b", "ñ", String(repeating: "a", count: 41)] {
            let pack = #"{"name": "\#(name)", "version": "1.0.0"}"#
            #expect(PackUpload.problems(Self.upload(pack)).map(\.path) == ["pack.name"], "\(name)")
        }
    }

    @Test func aTranslationMustKeepTheEnglishPlaceholders() {
        let plain = #"""
            {"name": "puppy", "version": "1.0.0", "achievements": [{"id": "w", "kind": "first",
             "title": "First walk with {habit}", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "walk"}}]}
            """#
        let dropped = PackUpload.problems(
            Self.upload(plain, translations: #"{"pt-BR": {"pack.puppy.rule.w.title": "Primeiro passeio"}}"#))
        #expect(dropped.map(\.problem) == ["misses the placeholder {habit} of the English text"])
        let added = PackUpload.problems(
            Self.upload(plain, translations: #"{"pt-BR": {"pack.puppy.rule.w.title": "{habit} {name}"}}"#))
        #expect(added.map(\.problem) == ["adds the placeholder {name}, which the English text does not have"])
    }

    @Test func aTooLargeDocumentIsRefusedUnread() {
        let big = Data(repeating: UInt8(ascii: "["), count: 10 * 1_048_576)
        #expect(PackUpload.read(big) == .tooLarge(bytes: 10 * 1_048_576, maximum: 1_048_576))
        if case .valid = PackUpload.read(Self.upload(Self.puppy), maximumBytes: 100) { Issue.record("read") }
    }

    @Test func deepNestingAndLongArraysAreRefused() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(PackUpload.problems(Data(#"{"pack": \#(deep)}"#.utf8)).count == 1)
        let milestones = (1...1_001).map(String.init).joined(separator: ",")
        let long = #"{"name": "puppy", "version": "1.0.0", "streakMilestones": [\#(milestones)]}"#
        #expect(PackUpload.problems(Self.upload(long)).map(\.path) == ["pack.streakMilestones"])
        #expect(PackUpload.problems(Data("not json".utf8)).map(\.path) == [""])
        #expect(PackUpload.problems(Data("[1]".utf8)).map(\.path) == [""])
    }

    static let extremes = [
        "0", "-1", "1", "0.5", "100000", "100001", "1e308", "-1e308", "5e-324", "1e19", "9223372036854775807",
        "-9223372036854775808", "18446744073709551616", "\"7\"", "null", "true", "[]", "{}",
    ]
    static let slots = [
        #"{"name": "p", "version": "1.0.0", "streakMilestones": [@@]}"#,
        #"{"name": "p", "version": "1.0.0", "earnedFreezeEvery": @@}"#,
        #"{"name": "p", "version": "1.0.0", "backfillDays": @@}"#,
        #"{"name": "p", "version": "1.0.0", "offlineDays": @@}"#,
        #"{"name": "p", "version": "1.0.0", "futureToleranceSeconds": @@}"#,
        #"{"name": "p", "version": "1.0.0", "rewards": [{"every": @@, "diamonds": @@}]}"#,
        #"{"name": "p", "version": "1.0.0", "store": {"items": [{"id": "a", "freezes": @@, "diamonds": @@}]}}"#,
        #"{"name": "p", "version": "1.0.0", "achievements": [{"id": "a", "kind": "count", "title": "t", "category": "c", "tier": 1, "badge": "b", "match": {"kind": "k"}, "at": [@@], "every": @@}]}"#,
        #"{"name": "p", "version": "1.0.0", "achievements": [{"id": "a", "kind": "amount", "title": "t", "category": "c", "tier": @@, "badge": "b", "at": [@@]}]}"#,
        #"{"name": "p", "version": "1.0.0", "achievements": [{"id": "a", "kind": "consistency", "title": "t", "category": "c", "tier": 1, "badge": "b", "days": @@}]}"#,
        #"{"name": "p", "version": "1.0.0", "achievements": [{"id": "a", "kind": "combination", "title": "t", "category": "c", "tier": 1, "badge": "b", "date": "born", "unit": "weeks", "at": [@@], "coverage": {"match": {"kind": "k"}, "total": @@, "atLeast": @@}}]}"#,
        #"{"name": "p", "version": "1.0.0", "methods": [{"id": "m", "name": "M", "stages": [{"id": "s", "name": "S", "order": @@}]}]}"#,
        #"{"name": "p", "version": "1.0.0", "forms": [{"id": "f", "title": "F", "type": "log", "kind": "k", "fields": [{"name": "value", "label": "V", "input": "number", "minimum": @@, "maximum": @@}]}]}"#,
    ]

    @Test func extremeValuesAreAcceptedInBoundsOrListedNeverATrap() async {
        await propertyCheck(
            count: 400, input: Gen.int(in: 0...Self.slots.count - 1), Gen.int(in: 0...Self.extremes.count - 1)
        ) { s, e in
            let pack = Self.slots[s].replacingOccurrences(of: "@@", with: Self.extremes[e])
            switch PackUpload.read(Self.upload(pack)) {
            case .valid(let upload):
                // What is accepted is bounded: every count and threshold a person could reach.
                let pack = upload.pack
                #expect(pack.streakMilestones.allSatisfy { (1...100_000).contains($0) }, "\(pack)")
                #expect(pack.achievements.allSatisfy { ($0.at ?? []).allSatisfy { $0 <= 1e9 && $0 > 0 } }, "\(pack)")
                #expect(pack.achievements.allSatisfy { ($0.days ?? 1) <= 3_650 }, "\(pack)")
            case .invalid(let problems):
                #expect(!problems.isEmpty)
                #expect(problems.allSatisfy { $0.path.hasPrefix("pack") }, "\(pack): \(problems)")
            case .tooLarge:
                Issue.record("not too large")
            }
        }
    }
}
