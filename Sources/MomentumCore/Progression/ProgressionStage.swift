/// One stage of a ``ProgressionMethod``, such as "Beginner" or "Stage 2".
///
/// Stages are ranked by ``order``: a higher order is further along the method. The order
/// values need not be consecutive, only distinct within a method.
///
/// JSON: `{"id": "s2", "name": "Intermediate", "order": 2, "description": "…"}`; the
/// description may be left out.
public struct ProgressionStage: Hashable, Sendable, Codable, Identifiable {
    /// The stage's id, unique within its method.
    public var id: String
    /// The name shown to people.
    public var name: String
    /// The stage's rank within its method; higher is further along.
    public var order: Int
    /// An optional explanation of what the stage involves.
    public var description: String?

    private enum CodingKeys: String, CodingKey, CaseIterable { case id, name, order, description }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Creates a stage.
    ///
    /// - Parameters:
    ///   - id: The stage's id, unique within its method.
    ///   - name: The name shown to people.
    ///   - order: The stage's rank within its method; higher is further along.
    ///   - description: An optional explanation of what the stage involves.
    public init(id: String, name: String, order: Int, description: String? = nil) {
        self.id = id
        self.name = name
        self.order = order
        self.description = description
    }
}
