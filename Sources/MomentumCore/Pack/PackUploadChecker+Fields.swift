import Foundation

/// An upload's unknown fields: every key of every object of the pack that its type does not
/// know, listed with its path, and left out before the object is decoded, so that it hides
/// none of the object's other problems.
extension PackUploadChecker {
    /// What a value of an upload is: an object with its fields, an array of one shape, or
    /// anything else (a number, a string, a map of free keys), which has no fields to check.
    indirect enum Shape: Sendable {
        /// An object: what it is (for messages) and its fields' shapes.
        case object(String, [String: Shape])
        /// An array whose elements all have one shape.
        case array(Shape)
        /// A value whose keys, if any, are not fields.
        case value

        /// An object whose fields are `names`, all plain values but those in `nested`.
        static func object(_ what: String, _ names: [String], _ nested: [String: Shape] = [:]) -> Shape {
            .object(what, Dictionary(names.map { ($0, nested[$0] ?? .value) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The fields of a pack's objects below its top level (whose own fields
    /// ``PackUploadChecker`` checks with the pack).
    static let packFieldShapes: [String: Shape] = {
        let match = Shape.object("a match", AchievementRule.Match.fieldNames)
        let coverage = Shape.object("a coverage", AchievementRule.Coverage.fieldNames, ["match": match])
        let rule = Shape.object(
            "a rule", AchievementRule.fieldNames, ["match": match, "breaks": match, "coverage": coverage])
        let store = Shape.object(
            "a store", StoreCatalog.fieldNames,
            ["items": .array(.object("a store item", StoreCatalog.Item.fieldNames))])
        let method = Shape.object(
            "a method", ProgressionMethod.fieldNames,
            ["stages": .array(.object("a stage", ProgressionStage.fieldNames))])
        let field = Shape.object(
            "a form field", LogField.fieldNames, ["options": .array(.object("an option", LogOption.fieldNames))])
        return [
            "achievements": .array(rule), "rewards": .array(.object("a reward", StreakReward.fieldNames)),
            "store": store, "methods": .array(method),
            "forms": .array(.object("a form", LogForm.fieldNames, ["fields": .array(field)])),
        ]
    }()

    /// The pack's object with every unknown field below its top level reported and left out.
    mutating func withoutUnknownFields(ofPack object: [String: Any]) -> [String: Any] {
        var result = object
        for (key, shape) in Self.packFieldShapes {
            guard let value = object[key] else { continue }
            result[key] = withoutUnknownFields(value, shape, at: "pack.\(key)")
        }
        return result
    }

    /// `value` with the fields its shape does not know reported and left out; a value of
    /// another shape than expected is kept as it is, for its decoding to name the problem.
    private mutating func withoutUnknownFields(_ value: Any, _ shape: Shape, at path: String) -> Any {
        switch shape {
        case .value:
            return value
        case .array(let element):
            guard let array = value as? [Any] else { return value }
            return array.enumerated().map { withoutUnknownFields($1, element, at: "\(path)[\($0)]") }
        case .object(let what, let fields):
            guard let object = value as? [String: Any] else { return value }
            var kept: [String: Any] = [:]
            for key in object.keys.sorted() {
                guard let field = object[key] else { continue }
                guard let inner = fields[key] else {
                    report(
                        "\(path).\(key)",
                        "unknown field; the fields of \(what) are \(fields.keys.sorted().joined(separator: ", "))")
                    continue
                }
                kept[key] = withoutUnknownFields(field, inner, at: "\(path).\(key)")
            }
            return kept
        }
    }
}
