/// What the character of an illustration wears or has beside it: the part that says which
/// achievement it is.
public enum IllustrationProp: String, Hashable, Sendable, Codable, CaseIterable {
    /// A mortarboard (commands learned, potty trained, an education goal).
    case graduationCap
    /// A party hat (the puppy's weekly and monthly birthdays).
    case partyHat
    /// A golden cup (the big streak milestones, the largest savings).
    case trophy
    /// A medal on a ribbon (a streak of a week, a count reached).
    case medal
    /// A golden star (a new personal best).
    case star
    /// A stethoscope (vet visits, vaccinations, a healthy weight).
    case stethoscope
    /// A shield with a check mark (every vaccination done).
    case shield
    /// A trail of paw prints (socialization, walks).
    case pawPrints
    /// A tent (a night away from home).
    case tent
    /// A birthday cake with a candle (the first birthday).
    case cake
    /// A heart (a wedding goal, a moment of one's own).
    case heart
    /// A calendar page with a check (anniversaries, a perfect week).
    case calendar
    /// A stack of coins (amounts saved).
    case coins
    /// A flag on a pole (a first, a goal reached).
    case flag
    /// An open book (journaling).
    case book
    /// A suitcase (a vacation goal).
    case suitcase
    /// A little house (a house goal).
    case house
    /// A lotus flower (meditation).
    case lotus
}
