/// How hard a habit is; weights its streaks and scores (seed 004, requirement 9).
public enum Difficulty: String, Hashable, Sendable, Codable, CaseIterable {
    case easy, medium, hard

    /// The weight applied to streaks and scores: 1×, 1.5× or 2×.
    public var weight: Double {
        switch self {
        case .easy: 1
        case .medium: 1.5
        case .hard: 2
        }
    }
}
