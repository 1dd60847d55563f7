import MomentumCore
import Testing

/// An achievement still to come is listed with a title a person can read: what is known
/// fills it, and no `{placeholder}` is ever shown.
@Suite struct LockedTitleTests {
    static let packs = [RulePack.habits, RulePack.ollie, RulePack.savings, RulePack.growth]

    @Test func noBundledTitleShowsAPlaceholder() {
        var titles = 0
        for pack in Self.packs {
            for rule in pack.achievements {
                for name in ["Ollie", nil] as [String?] {
                    let title = rule.lockedTitle(subjectName: name)
                    #expect(!title.contains("{") && !title.contains("}"), "\(rule.id): \(title)")
                    #expect(!title.isEmpty && title == title.trimmingCharacters(in: .whitespaces), "\(rule.id)")
                    #expect(!title.contains("  ") && !title.hasSuffix(":"), "\(rule.id): \(title)")
                    titles += 1
                }
            }
        }
        #expect(titles > 40)
    }

    @Test func knownValuesFillTheTitle() throws {
        func title(_ pack: RulePack, _ id: String, _ name: String? = "Ollie") throws -> String {
            try #require(pack.achievements.first { $0.id == id }, "\(id)").lockedTitle(subjectName: name)
        }
        #expect(try title(RulePack.savings, "first-contribution") == "First contribution to a goal")
        #expect(try title(RulePack.savings, "savings-small") == "First milestone! $1,000 saved")
        #expect(try title(RulePack.savings, "goal-completed") == "Goal reached: a goal")
        let birthday = try #require(RulePack.ollie.achievements.first { $0.title.contains("{name}'s") })
        #expect(birthday.lockedTitle(subjectName: "Ollie").hasPrefix("Ollie's"))
        #expect(birthday.lockedTitle(subjectName: nil).hasPrefix("Your companion's"))
        let command = try #require(
            RulePack.ollie.achievements.first { $0.title == "First command learned: {item}" })
        #expect(command.lockedTitle(subjectName: "Ollie") == "First command learned")
    }
}
