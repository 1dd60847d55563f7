/// How many particles a celebration emits, scaled to the achievement (seed 002).
public enum ParticleIntensity: String, Hashable, Sendable, Codable, CaseIterable {
    /// Small milestones and completions ($1k).
    case light
    /// Standard goal completions and mid-sized milestones ($5k–$25k).
    case medium
    /// Major achievements ($50k–$100k).
    case epic
}
