/// A practice that a user progresses through in ordered stages (seed 001's growth methods).
///
/// Methods are data: a rule pack declares them in JSON, and ``ProgressionHistory`` checks
/// them when it is built (at least one stage; stage ids and orders distinct). ``stages`` is
/// always sorted by ``ProgressionStage/order``, whatever order the JSON lists them in.
///
/// JSON: `{"id": "angion", "name": "Angion Method", "stages": [{"id": "s1", "name": "Beginner", "order": 1}, …]}`.
public struct ProgressionMethod: Hashable, Sendable, Codable, Identifiable {
    /// The method's id, unique among the methods of a history.
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The stages, first to final, sorted by ``ProgressionStage/order``.
    public private(set) var stages: [ProgressionStage]

    /// Creates a method.
    ///
    /// - Parameters:
    ///   - id: The method's id.
    ///   - name: The name shown to people.
    ///   - stages: The stages in any order; they are sorted by ``ProgressionStage/order``.
    public init(id: String, name: String, stages: [ProgressionStage]) {
        self.id = id
        self.name = name
        self.stages = Self.sorted(stages)
    }

    /// The first stage, or `nil` for a method without stages.
    public var firstStage: ProgressionStage? { stages.first }

    /// The final stage, or `nil` for a method without stages.
    public var finalStage: ProgressionStage? { stages.last }

    /// The stage with an id, or `nil` if the method has no such stage.
    public func stage(id: String) -> ProgressionStage? {
        stages.first { $0.id == id }
    }

    /// The 1-based position of a stage among ``stages``, or `nil` if the method has no such stage.
    ///
    /// A method whose orders are 10, 20 and 30 numbers its stages 1, 2 and 3.
    public func stageNumber(of stageID: String) -> Int? {
        stages.firstIndex { $0.id == stageID }.map { $0 + 1 }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case id, name, stages }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Decodes the value from its JSON form, described in the type's documentation.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        stages = Self.sorted(try c.decode([ProgressionStage].self, forKey: .stages))
    }

    /// Encodes the value in its JSON form, described in the type's documentation.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(stages, forKey: .stages)
    }

    /// Stable, so stages with equal orders (refused later by validation) keep their given order.
    private static func sorted(_ stages: [ProgressionStage]) -> [ProgressionStage] {
        stages.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
    }
}
