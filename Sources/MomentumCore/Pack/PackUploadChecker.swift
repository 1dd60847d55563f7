import Foundation

/// Reads an upload field by field and element by element, collecting every problem
/// (``PackUpload/read(_:maximumBytes:)``).
struct PackUploadChecker {
    private(set) var problems: [PackUpload.Problem] = []
    private typealias Limits = PackUpload.Limits

    private static let packFields = RulePack.fieldNames
    private static let scalarFields = [
        "defaultPolicy", "backfillDays", "futureToleranceSeconds", "offlineDays", "rewards", "earnedFreezeEvery",
        "store", "streakMilestones", "title", "icon", "eventTypes",
    ]
    private static let ruleKinds = AchievementRule.Kind.allCases.filter { $0 != .moment }.map(\.rawValue)

    mutating func report(_ path: String, _ problem: String) {
        problems.append(PackUpload.Problem(path: path, problem: problem))
    }

    /// The upload when it has no problem; `nil` otherwise, with ``problems`` listing them.
    mutating func check(_ data: Data) -> PackUpload? {
        if let problem = Self.nestingProblem(data) {
            report("", problem)
            return nil
        }
        guard let root = try? JSONSerialization.jsonObject(with: data, options: []) else {
            report("", "is not a JSON document")
            return nil
        }
        guard let object = root as? [String: Any] else {
            report("", "must be a JSON object with pack and translations")
            return nil
        }
        guard countsAreBounded(root, path: "") else { return nil }
        for key in object.keys.sorted() where key != "pack" && key != "translations" {
            report(key, "is not a field of an upload (pack, translations)")
        }
        guard let rawPack = object["pack"] else {
            report("pack", "is required")
            return nil
        }
        guard let packObject = rawPack as? [String: Any] else {
            report("pack", "must be an object")
            return nil
        }
        let pack = checkPack(packObject)
        let translations = checkTranslations(object["translations"], pack: pack)
        guard let pack, problems.isEmpty else { return nil }
        let document =
            (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? data
        return PackUpload(pack: pack, translations: translations, document: document)
    }

    // MARK: - Shape

    /// Why a document nests too deep, read from its bytes before it is parsed.
    private static func nestingProblem(_ data: Data) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > Limits.maximumDepth {
                    return "nests arrays and objects more than \(Limits.maximumDepth) deep"
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// Whether no array or object holds more than ``PackUpload/Limits/maximumElements``;
    /// reports each that does.
    private mutating func countsAreBounded(_ value: Any, path: String) -> Bool {
        var bounded = true
        if let array = value as? [Any] {
            if array.count > Limits.maximumElements {
                report(path, "has \(array.count) elements; at most \(Limits.maximumElements) are accepted")
                return false
            }
            for (index, element) in array.enumerated() where !countsAreBounded(element, path: "\(path)[\(index)]") {
                bounded = false
            }
        } else if let object = value as? [String: Any] {
            if object.count > Limits.maximumElements {
                report(path, "has \(object.count) entries; at most \(Limits.maximumElements) are accepted")
                return false
            }
            for key in object.keys.sorted() {
                guard let element = object[key] else { continue }
                if !countsAreBounded(element, path: path.isEmpty ? key : "\(path).\(key)") { bounded = false }
            }
        }
        return bounded
    }

    // MARK: - The pack

    private mutating func checkPack(_ document: [String: Any]) -> RulePack? {
        for key in document.keys.sorted() where !Self.packFields.contains(key) {
            report("pack.\(key)", "is not a field of a pack (\(Self.packFields.joined(separator: ", ")))")
        }
        let object = withoutUnknownFields(ofPack: document)
        var base: [String: Any] = ["name": "pack"]
        switch object["name"] {
        case nil: report("pack.name", "is required")
        case let name as String where Self.isPackName(name): base["name"] = name
        case let name as String:
            report(
                "pack.name",
                "'\(name)' is not a pack name: a lowercase letter, then up to 39 lowercase letters, digits or hyphens")
        default: report("pack.name", "must be a string")
        }
        switch object["version"] {
        case nil: report("pack.version", "is required: a semantic version such as 1.0.0")
        case let version as String where SemanticVersion(version) != nil: base["version"] = version
        case let version as String:
            report("pack.version", "'\(version)' is not a semantic version (major.minor.patch, such as 1.1.0)")
        default: report("pack.version", "must be a string")
        }
        for key in Self.scalarFields {
            guard let value = object[key] else { continue }
            if decode(RulePack.self, ["name": "pack", key: value], at: "pack") != nil {
                base[key] = value
            }
        }
        guard var pack = decode(RulePack.self, base, at: "pack") else { return nil }
        checkBounds(of: pack)
        pack.methods = checkMethods(object["methods"])
        pack.achievements = checkRules(object["achievements"], methods: pack.methods)
        pack.forms = checkForms(object["forms"])
        return pack
    }

    private static func isPackName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, (1...40).contains(scalars.count), ("a"..."z").contains(first) else {
            return false
        }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    private static func isID(_ id: String) -> Bool {
        let scalars = Array(id.unicodeScalars)
        guard (1...64).contains(scalars.count) else { return false }
        return scalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                || $0 == "_"
        }
    }

    private mutating func bounded(_ value: Double, _ range: ClosedRange<Double>, at path: String) {
        guard !value.isFinite || !range.contains(value) else { return }
        report(path, "must be a number from \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private mutating func checkBounds(of pack: RulePack) {
        let count = 1...Limits.maximumCount
        let quantity = 0...Limits.maximumCount
        if let days = pack.backfillDays {
            bounded(Double(days), 0...Double(Limits.maximumDays), at: "pack.backfillDays")
        }
        bounded(Double(pack.futureToleranceSeconds), 0...86_400, at: "pack.futureToleranceSeconds")
        if let every = pack.earnedFreezeEvery { bounded(Double(every), count, at: "pack.earnedFreezeEvery") }
        for (index, value) in pack.streakMilestones.enumerated() {
            bounded(Double(value), count, at: "pack.streakMilestones[\(index)]")
        }
        for (index, reward) in pack.rewards.enumerated() {
            bounded(Double(reward.every), count, at: "pack.rewards[\(index)].every")
            if case .fixed(let diamonds) = reward.diamonds {
                bounded(Double(diamonds), quantity, at: "pack.rewards[\(index)].diamonds")
            }
        }
        for (index, item) in pack.store.items.enumerated() {
            bounded(Double(item.freezes), count, at: "pack.store.items[\(index)].freezes")
            bounded(Double(item.diamonds), quantity, at: "pack.store.items[\(index)].diamonds")
        }
        bounded(Double(pack.store.customPricePerFreeze), quantity, at: "pack.store.customPricePerFreeze")
        bounded(Double(pack.store.customMaximum), quantity, at: "pack.store.customMaximum")
    }

    // MARK: - Rules, methods, forms

    private mutating func array(_ raw: Any?, at path: String) -> [Any] {
        guard let raw else { return [] }
        guard let array = raw as? [Any] else {
            report(path, "must be an array")
            return []
        }
        return array
    }

    private mutating func checkRules(_ raw: Any?, methods: [ProgressionMethod]) -> [AchievementRule] {
        var rules: [(index: Int, rule: AchievementRule)] = []
        var ids: Set<String> = []
        let elements = array(raw, at: "pack.achievements")
        for (index, element) in elements.enumerated() {
            let at = "pack.achievements[\(index)]"
            if let kind = (element as? [String: Any])?["kind"] as? String, !Self.ruleKinds.contains(kind) {
                report(
                    "\(at).kind", "unknown rule kind '\(kind)'; the kinds are \(Self.ruleKinds.joined(separator: ", "))"
                )
                continue
            }
            guard let rule = decode(AchievementRule.self, element, at: at) else {
                checkBoundsOfUnreadableRule(element, at: at)
                continue
            }
            if let problem = rule.problem { report("\(at).\(problem.field)", problem.reason) }
            // Every unlock shows its badge (the API's unlocks always carry one).
            if rule.badge?.isEmpty ?? true { report("\(at).badge", "is required: an emoji or a short text") }
            if !Self.isID(rule.id) {
                report("\(at).id", "'\(rule.id)' is not an id: 1 to 64 letters, digits, hyphens or underscores")
            } else if CustomMilestone.isCustom(rule.id) {
                report("\(at).id", "'\(CustomMilestone.rulePrefix)' begins the ids of users' own milestones")
            } else if !ids.insert(rule.id).inserted {
                report("\(at).id", "'\(rule.id)' is used twice")
            }
            checkThresholds(of: rule, at: at)
            checkReferences(of: rule, at: at, methods: methods)
            rules.append((index, rule))
        }
        checkRequirements(
            of: rules, ids: Set(elements.compactMap { ($0 as? [String: Any])?["id"] as? String }))
        return rules.map(\.rule)
    }

    /// Checks the bounds of a rule that cannot be read (a missing `tier`, a title that is a
    /// number), so that its one problem does not hide the others: read again with each field
    /// that cannot be read left out, or a placeholder when it is required.
    private mutating func checkBoundsOfUnreadableRule(_ element: Any, at: String) {
        guard var object = element as? [String: Any] else { return }
        let placeholders: [String: Any] = ["id": "rule", "kind": "first", "title": "", "category": "", "tier": 1]
        for _ in 0...AchievementRule.fieldNames.count {
            guard JSONSerialization.isValidJSONObject(object),
                let data = try? JSONSerialization.data(withJSONObject: object)
            else { return }
            do {
                checkThresholds(of: try JSONDecoder().decode(AchievementRule.self, from: data), at: at)
                return
            } catch let error as DecodingError {
                guard let field = Self.ruleField(of: error) else { return }
                object[field] = placeholders[field]
            } catch {
                return
            }
        }
    }

    /// The field of a rule a decoding error is about.
    private static func ruleField(of error: DecodingError) -> String? {
        switch error {
        case .keyNotFound(let key, let context): return (context.codingPath.first ?? key).stringValue
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.first?.stringValue
        @unknown default: return nil
        }
    }

    private mutating func checkThresholds(of rule: AchievementRule, at: String) {
        let top = rule.kind == .amount ? Limits.maximumAmount : Limits.maximumCount
        let smallest = rule.kind == .amount ? 0.01 : 1
        for (index, value) in (rule.at ?? []).enumerated() { bounded(value, smallest...top, at: "\(at).at[\(index)]") }
        if let every = rule.every { bounded(every, smallest...top, at: "\(at).every") }
        if let minimum = rule.minimum { bounded(minimum, 0...top, at: "\(at).minimum") }
        if let maximum = rule.maximum { bounded(maximum, 0...top, at: "\(at).maximum") }
        if let days = rule.days { bounded(Double(days), 1...Double(Limits.maximumDays), at: "\(at).days") }
        if let total = rule.coverage?.total {
            bounded(Double(total), 1...Limits.maximumCount, at: "\(at).coverage.total")
        }
        if let share = rule.coverage?.atLeast, !share.isFinite { report("\(at).coverage.atLeast", "must be finite") }
    }

    private mutating func checkReferences(of rule: AchievementRule, at: String, methods: [ProgressionMethod]) {
        if let field = rule.field, !["item", "group"].contains(field) {
            report("\(at).field", "'\(field)' is not a field a rule counts (item, group)")
        }
        if let field = rule.coverage?.field, !["item", "group"].contains(field) {
            report("\(at).coverage.field", "'\(field)' is not a field a coverage counts (item, group)")
        }
        guard rule.kind == .stageReached, let name = rule.method else { return }
        guard let method = methods.first(where: { $0.id == name }) else {
            report("\(at).method", "no method '\(name)' in this pack")
            return
        }
        if let stage = rule.stage, method.stage(id: stage) == nil {
            report("\(at).stage", "no stage '\(stage)' in method '\(name)'")
        }
    }

    private mutating func checkMethods(_ raw: Any?) -> [ProgressionMethod] {
        var methods: [ProgressionMethod] = []
        var ids: Set<String> = []
        for (index, element) in array(raw, at: "pack.methods").enumerated() {
            let at = "pack.methods[\(index)]"
            guard let method = decode(ProgressionMethod.self, element, at: at) else { continue }
            if !Self.isID(method.id) {
                report("\(at).id", "'\(method.id)' is not an id: 1 to 64 letters, digits, hyphens or underscores")
            } else if !ids.insert(method.id).inserted {
                report("\(at).id", "'\(method.id)' is used twice")
            }
            if method.stages.isEmpty { report("\(at).stages", "a method needs at least one stage") }
            var stages: Set<String> = []
            for (position, stage) in method.stages.enumerated() where !stages.insert(stage.id).inserted {
                report("\(at).stages[\(position)].id", "'\(stage.id)' is used twice")
            }
            methods.append(method)
        }
        return methods
    }

    private mutating func checkForms(_ raw: Any?) -> [LogForm] {
        var forms: [LogForm] = []
        var ids: Set<String> = []
        for (index, element) in array(raw, at: "pack.forms").enumerated() {
            let at = "pack.forms[\(index)]"
            guard let form = decode(LogForm.self, element, at: at) else { continue }
            if let problem = form.problem { report("\(at).\(problem.field)", problem.reason) }
            if !Self.isID(form.id) {
                report("\(at).id", "'\(form.id)' is not an id: 1 to 64 letters, digits, hyphens or underscores")
            } else if !ids.insert(form.id).inserted {
                report("\(at).id", "'\(form.id)' is used twice")
            }
            for (position, field) in form.fields.enumerated() {
                for (name, value) in [("minimum", field.minimum), ("maximum", field.maximum)] {
                    guard let value else { continue }
                    bounded(
                        value, -Limits.maximumAmount...Limits.maximumAmount,
                        at: "\(at).fields[\(position)].\(name)")
                }
            }
            forms.append(form)
        }
        return forms
    }

    // MARK: - Decoding one value

    /// A value decoded on its own; its problem reported at `path` (followed by the path the
    /// decoder names) when it cannot be.
    private mutating func decode<T: Decodable>(
        _ type: T.Type, _ value: Any, at path: String
    )
        -> T?
    {
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        else {
            report(path, "cannot be read")
            return nil
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            let (inner, reason) = RulePack.describe(error)
            let full = inner.isEmpty ? path : inner.hasPrefix("[") ? path + inner : "\(path).\(inner)"
            report(full, reason)
        } catch {
            report(path, "\(error)")
        }
        return nil
    }
}
