/// The character an illustration is built around: one per bundled pack, in one style.
///
/// Every base is a friendly figure with the same eyes, smile and cheeks, sitting on the
/// ground in the middle of the picture, so that any prop and backdrop fit any base.
public enum IllustrationBase: String, Hashable, Sendable, Codable, CaseIterable {
    /// A happy puppy, sitting (seed 000, the `ollie` pack).
    case puppy
    /// A flame with a face (the `habits` pack's streaks).
    case flame
    /// A piggy bank with a coin going in (the `savings` pack).
    case piggyBank
    /// A sprout in a smiling flower pot (the `growth` pack).
    case sprout
}
