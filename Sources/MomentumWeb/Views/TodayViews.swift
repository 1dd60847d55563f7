/// `/today`: the habits due, in their groups, the freezes offered, the pauses, the new-habit
/// form, the archived habits, and a section for each pack with forms.
struct TodayPage: TemplateModel {
    static let template = "today"

    /// The habits of a group (the first, without a name, holds the habits of none).
    struct Group: Codable {
        var name: String
        var grouped: Bool
        var count: Int
        var habits: [HabitRow]
    }

    /// An archived habit.
    struct Archived: Codable {
        var id: String
        var name: String
        var archivedOn: String
        var archivedLabel: String
    }

    /// A freeze offered for a missed day.
    struct Offer: Codable {
        var habit: String
        var name: String
        var day: String
        var dayLabel: String
        var after: String
    }

    /// A category the new-habit form offers.
    struct Category: Codable {
        var value: String
        var label: String
    }

    /// The pause of every habit under way.
    struct Vacation: Codable {
        var until: String
        var note: String
        var text: String
    }

    var dayLabel: String
    var groups: [Group]
    var movable: Bool
    var groupNames: [String]
    var noHabits: Bool
    var archived: [Archived]
    var hasArchived: Bool
    var offers: [Offer]
    var categories: [Category]
    var pauses: PauseForm
    var vacation: Vacation?
    /// The packs with forms that the user tracks, when the rule pack has some.
    var packs: [PackSection]?
    /// Habits show when the account tracks them or has some.
    var showHabits: Bool
}
