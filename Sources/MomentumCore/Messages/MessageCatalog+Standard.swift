extension MessageCatalog {
    /// Momentum's English catalog.
    ///
    /// - Categories: `potty` (and its subcategories such as `potty_outdoor`), `commands`,
    ///   `socialization`, `health`, `lifestyle` and `time` (seed 000's achievement
    ///   categories); `streaks` (seeds 003 and 004); `savings`, with seed 002's milestone
    ///   messages verbatim for their amount tiers ("First milestone! ✨" … "Incredible
    ///   savings! 🏆"); the goal categories `vacation`, `house`, `wedding`, `retirement` and
    ///   `education`, each with seed 002's message verbatim ("Bon voyage! 🏖️"); and `growth`
    ///   (seed 001's stage advances themselves are celebrated by ``AffirmationCatalog``).
    /// - Tier 1 templates are short inline acknowledgments ("🔥 3 days in a row!", seed 000);
    ///   tiers 2 and 3 are card and full-screen messages.
    /// - Generic fallbacks: at least four per tier needing only the title, so no unlock goes
    ///   without a message and none repeats one of the last three.
    /// - Retroactive templates say so without shame (seed 000): "Looks like Ollie hit a 7-day
    ///   streak last week! 🎉", and at least four needing only the title and `{when}`.
    public static let standard = MessageCatalog(
        templates: [
            .init(
                id: "potty.streak.1", category: "potty", tiers: low, milestoneTypes: ["streak"],
                text: "🔥 {value} days in a row!", one: "🔥 {value} day in a row!"),
            .init(
                id: "potty.streak.2", category: "potty", tiers: low, milestoneTypes: ["streak"],
                text: "{value} outdoor days in a row! 🌿", one: "{value} outdoor day in a row! 🌿"),
            .init(id: "potty.ack.1", category: "potty", tiers: low, text: "Another win outside! 🌿"),
            .init(
                id: "potty.first.1", category: "potty", tiers: high, milestoneTypes: ["first"],
                text: "{name}'s first outdoor potty! 🎉"),
            .init(
                id: "potty.first.2", category: "potty", tiers: high, milestoneTypes: ["first"],
                text: "First outdoor potty! 🌿"),
            .init(
                id: "potty.streak.3", category: "potty", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "{value} days of outdoor potty in a row! 🎉", one: "{value} day of outdoor potty in a row! 🎉"),
            .init(
                id: "potty.streak.4", category: "potty", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "{name} is {value} days into outdoor potty success! 🐾",
                one: "{name} is {value} day into outdoor potty success! 🐾"),
            .init(
                id: "potty.record.1", category: "potty", tiers: high, milestoneTypes: ["streak_record"],
                text: "New record: {value} days! {name}'s longest streak yet. 🏆",
                one: "New record: {value} day! {name}'s longest streak yet. 🏆"),
            .init(
                id: "potty.streak.5", category: "potty", tiers: major, milestoneTypes: ["streak", "streak_record"],
                text: "You did it! {value} days of outdoor success. 🎓",
                one: "You did it! {value} day of outdoor success. 🎓"),
            .init(
                id: "potty.streak.6", category: "potty", tiers: major, milestoneTypes: ["streak"],
                text: "Potty trained! {name} nailed {value} days outside. 🎓",
                one: "Potty trained! {name} nailed {value} day outside. 🎓"),
            .init(
                id: "potty.recovery.1", category: "potty", milestoneTypes: ["recovery"],
                text: "Back on track after the accident! 💪"),
            .init(
                id: "potty.recovery.2", category: "potty", milestoneTypes: ["recovery"],
                text: "{name} is back on track outside! 🌿"),
            .init(id: "potty.any.1", category: "potty", tiers: high, text: "{title}! 🐾"),
            .init(id: "potty.any.2", category: "potty", tiers: high, text: "Potty training win: {title}! 🌿"),

            .init(
                id: "commands.count.1", category: "commands", tiers: low, milestoneTypes: ["count"],
                text: "{value} commands and counting! 🐾", one: "{value} command and counting! 🐾"),
            .init(id: "commands.ack.1", category: "commands", tiers: low, text: "Good practice! 🎯"),
            .init(
                id: "commands.first.1", category: "commands", tiers: high, milestoneTypes: ["first"],
                text: "{name} learned a first command: {item}! 🎓"),
            .init(
                id: "commands.first.2", category: "commands", tiers: high, milestoneTypes: ["first"],
                text: "First command learned! 🎓"),
            .init(
                id: "commands.count.2", category: "commands", tiers: high, milestoneTypes: ["count"],
                text: "{value} commands mastered! ⭐", one: "{value} command mastered! ⭐"),
            .init(
                id: "commands.count.3", category: "commands", tiers: high, milestoneTypes: ["count"],
                text: "Star pupil! {name} knows {value} commands. ⭐", one: "Star pupil! {name} knows {value} command. ⭐"
            ),
            .init(id: "commands.any.1", category: "commands", tiers: high, text: "New command for {name}: {item}! 🐶"),
            .init(id: "commands.any.2", category: "commands", tiers: high, text: "New command: {item}! 🎉"),
            .init(id: "commands.any.3", category: "commands", tiers: high, text: "Training milestone: {title}! 🎓"),

            .init(
                id: "socialization.count.1", category: "socialization", tiers: low, milestoneTypes: ["count"],
                text: "{value} new friends and counting! 🐾", one: "{value} new friend and counting! 🐾"),
            .init(id: "socialization.ack.1", category: "socialization", tiers: low, text: "Another new experience! 🌍"),
            .init(
                id: "socialization.first.1", category: "socialization", tiers: high, milestoneTypes: ["first"],
                text: "{name} made a first dog friend! 🐕"),
            .init(
                id: "socialization.first.2", category: "socialization", tiers: high, milestoneTypes: ["first"],
                text: "First dog met! 🐕"),
            .init(
                id: "socialization.count.2", category: "socialization", tiers: high, milestoneTypes: ["count"],
                text: "{value} dogs met! {name} is a social butterfly. 🦋",
                one: "{value} dog met! {name} is a social butterfly. 🦋"),
            .init(
                id: "socialization.count.3", category: "socialization", tiers: high, milestoneTypes: ["count"],
                text: "{value} new friends! 🐾", one: "{value} new friend! 🐾"),
            .init(
                id: "socialization.set.1", category: "socialization", tiers: high, milestoneTypes: ["set_completed"],
                text: "All {item} experienced! 🌍"),
            .init(
                id: "socialization.set.2", category: "socialization", tiers: high, milestoneTypes: ["set_completed"],
                text: "Category complete: {title}! 🌍"),
            .init(
                id: "socialization.any.1", category: "socialization", tiers: major,
                text: "Socialization milestone! {name} is ready for the world. 🌟"),
            .init(id: "socialization.any.2", category: "socialization", tiers: high, text: "{title}! 🐕"),

            .init(id: "health.ack.1", category: "health", tiers: low, text: "Health logged! 💚"),
            .init(
                id: "health.first.1", category: "health", tiers: high, milestoneTypes: ["first"],
                text: "{name}'s first {item}! 💉"),
            .init(
                id: "health.first.2", category: "health", tiers: high, milestoneTypes: ["first"],
                text: "First health milestone: {title}! 🩺"),
            .init(
                id: "health.set.1", category: "health", tiers: high, milestoneTypes: ["set_completed"],
                text: "All {item} complete! 💉"),
            .init(
                id: "health.set.2", category: "health", tiers: high, milestoneTypes: ["set_completed"],
                text: "{name} is all set: {title}! 🛡️"),
            .init(id: "health.any.1", category: "health", tiers: high, text: "Healthy milestone: {title}! 🩺"),
            .init(id: "health.any.2", category: "health", tiers: high, text: "{name} is thriving! {title}. 💚"),

            .init(
                id: "lifestyle.count.1", category: "lifestyle", tiers: low, milestoneTypes: ["count"],
                text: "{value} adventures and counting! 🐾", one: "{value} adventure and counting! 🐾"),
            .init(id: "lifestyle.ack.1", category: "lifestyle", tiers: low, text: "Out and about! 🌳"),
            .init(
                id: "lifestyle.first.1", category: "lifestyle", tiers: high, milestoneTypes: ["first"],
                text: "{name}'s first {item}! 🐾"),
            .init(
                id: "lifestyle.first.2", category: "lifestyle", tiers: high, milestoneTypes: ["first"],
                text: "A first adventure: {title}! 🌳"),
            .init(
                id: "lifestyle.count.2", category: "lifestyle", tiers: high, milestoneTypes: ["count"],
                text: "{value} adventures logged! 🐾", one: "{value} adventure logged! 🐾"),
            .init(
                id: "lifestyle.count.3", category: "lifestyle", tiers: high, milestoneTypes: ["count"],
                text: "{name} has {value} adventures under the collar! 🦮",
                one: "{name} has {value} adventure under the collar! 🦮"),
            .init(id: "lifestyle.any.1", category: "lifestyle", tiers: high, text: "{title}! 🌳"),

            .init(id: "time.age.1", category: "time", milestoneTypes: ["age"], text: "{name} is {duration} old! 🎂"),
            .init(id: "time.age.2", category: "time", milestoneTypes: ["age"], text: "{duration} old today! 🎈"),
            .init(
                id: "time.anniversary.1", category: "time", tiers: high, milestoneTypes: ["anniversary"],
                text: "Happy {title}, {name}! 🎉"),
            .init(
                id: "time.anniversary.2", category: "time", tiers: high, milestoneTypes: ["anniversary"],
                text: "{title}! 🎂"),
            .init(id: "time.any.1", category: "time", tiers: high, text: "Time flies: {title}! ⏳"),

            .init(
                id: "streaks.streak.1", category: "streaks", tiers: low, milestoneTypes: ["streak"],
                text: "🔥 {value} days in a row!", one: "🔥 {value} day in a row!"),
            .init(
                id: "streaks.streak.2", category: "streaks", tiers: low, milestoneTypes: ["streak"],
                text: "{value}-day streak! Keep it going. 🔥", one: "{value}-day streak! Keep it going. 🔥"),
            .init(
                id: "streaks.streak.3", category: "streaks", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "{value}-day {habit} streak! 🔥", one: "{value}-day {habit} streak! 🔥"),
            .init(
                id: "streaks.streak.4", category: "streaks", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "{value} days of {habit} in a row! 🏆", one: "{value} day of {habit} in a row! 🏆"),
            .init(
                id: "streaks.streak.5", category: "streaks", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "A {value}-day streak! Consistency is your superpower. 💪",
                one: "A {value}-day streak! Consistency is your superpower. 💪"),
            .init(
                id: "streaks.streak.6", category: "streaks", tiers: high, milestoneTypes: ["streak"],
                text: "{value} days strong! 🔥", one: "{value} day strong! 🔥"),
            .init(
                id: "streaks.record.1", category: "streaks", tiers: high, milestoneTypes: ["streak_record"],
                text: "New personal best: {value} days! 🏆", one: "New personal best: {value} day! 🏆"),
            .init(
                id: "streaks.recovery.1", category: "streaks", milestoneTypes: ["recovery"],
                text: "Back on track with {habit}! 🌱"),
            .init(
                id: "streaks.recovery.2", category: "streaks", milestoneTypes: ["recovery"],
                text: "It still counts. Welcome back! 💪"),
            .init(
                id: "streaks.consistency.1", category: "streaks", tiers: high, milestoneTypes: ["consistency"],
                text: "{value} days with every habit done! 🌟", one: "{value} day with every habit done! 🌟"),
            .init(id: "streaks.any.1", category: "streaks", tiers: high, text: "{title}! 🔥"),

            .init(
                id: "savings.amount.small", category: "savings", milestoneTypes: ["amount"], amountTier: .small,
                text: "First milestone! ✨"),
            .init(
                id: "savings.amount.medium", category: "savings", milestoneTypes: ["amount"], amountTier: .medium,
                text: "Growing strong! 💪"),
            .init(
                id: "savings.amount.large", category: "savings", milestoneTypes: ["amount"], amountTier: .large,
                text: "Quarter century! 🌟"),
            .init(
                id: "savings.amount.epic", category: "savings", milestoneTypes: ["amount"], amountTier: .epic,
                text: "Incredible savings! 🏆"),
            .init(
                id: "savings.amount.1", category: "savings", milestoneTypes: ["amount"],
                text: "You've saved {value}! 💰", one: "You've saved {value}! 💰"
            ),
            .init(
                id: "savings.amount.2", category: "savings", milestoneTypes: ["amount"],
                text: "{value} saved and counting! 🪙", one: "{value} saved and counting! 🪙"),
            .init(id: "savings.any.1", category: "savings", text: "{title}! 💰"),

            .init(
                id: "vacation.goal.1", category: "vacation", milestoneTypes: ["goal_completed"], text: "Bon voyage! 🏖️"),
            .init(
                id: "vacation.goal.2", category: "vacation", milestoneTypes: ["goal_completed"],
                text: "Your {goal} fund is complete. Bon voyage! 🏖️"),
            .init(
                id: "vacation.goal.3", category: "vacation", milestoneTypes: ["goal_completed"],
                text: "{name}, your trip is fully funded! ✈️"),
            .init(id: "vacation.any.1", category: "vacation", text: "{title}! 🏖️"),

            .init(id: "house.goal.1", category: "house", milestoneTypes: ["goal_completed"], text: "Welcome home! 🏠"),
            .init(
                id: "house.goal.2", category: "house", milestoneTypes: ["goal_completed"],
                text: "Your {goal} fund is complete. Welcome home! 🏠"),
            .init(
                id: "house.goal.3", category: "house", milestoneTypes: ["goal_completed"],
                text: "Keys in sight, {name}! 🏡"),
            .init(id: "house.any.1", category: "house", text: "{title}! 🏠"),

            .init(
                id: "wedding.goal.1", category: "wedding", milestoneTypes: ["goal_completed"],
                text: "Congratulations! 💍"),
            .init(
                id: "wedding.goal.2", category: "wedding", milestoneTypes: ["goal_completed"],
                text: "Your {goal} fund is complete. Congratulations! 💍"),
            .init(
                id: "wedding.goal.3", category: "wedding", milestoneTypes: ["goal_completed"],
                text: "Here's to the big day, {name}! 💐"),
            .init(id: "wedding.any.1", category: "wedding", text: "{title}! 💍"),

            .init(
                id: "retirement.goal.1", category: "retirement", milestoneTypes: ["goal_completed"],
                text: "Enjoy your freedom! 🌟"),
            .init(
                id: "retirement.goal.2", category: "retirement", milestoneTypes: ["goal_completed"],
                text: "Your {goal} fund is complete. Enjoy your freedom! 🌟"),
            .init(
                id: "retirement.goal.3", category: "retirement", milestoneTypes: ["goal_completed"],
                text: "{name}, your freedom is funded! 🌅"),
            .init(id: "retirement.any.1", category: "retirement", text: "{title}! 🌟"),

            .init(
                id: "education.goal.1", category: "education", milestoneTypes: ["goal_completed"],
                text: "Knowledge achieved! 🎓"),
            .init(
                id: "education.goal.2", category: "education", milestoneTypes: ["goal_completed"],
                text: "Your {goal} fund is complete. Knowledge achieved! 🎓"),
            .init(
                id: "education.goal.3", category: "education", milestoneTypes: ["goal_completed"],
                text: "Class is in session, {name}! 📚"),
            .init(id: "education.any.1", category: "education", text: "{title}! 🎓"),

            .init(
                id: "growth.stage.1", category: "growth", milestoneTypes: ["stage_reached"],
                text: "You've reached {stage}! 🌱"),
            .init(
                id: "growth.stage.2", category: "growth", milestoneTypes: ["stage_reached"],
                text: "{name} reached {stage}! 🌿"),
            .init(
                id: "growth.stage.3", category: "growth", milestoneTypes: ["stage_reached"],
                text: "Stage unlocked: {stage}! ⭐"),
            .init(
                id: "growth.streak.1", category: "growth", milestoneTypes: ["streak"],
                text: "{value} days of practice in a row! 🌱", one: "{value} day of practice in a row! 🌱"),
            .init(id: "growth.any.1", category: "growth", text: "Growth milestone: {title}! 🌱"),

            .init(
                id: "generic.streak.1", category: "generic", tiers: low, milestoneTypes: ["streak"],
                text: "🔥 {value} days in a row!", one: "🔥 {value} day in a row!"),
            .init(
                id: "generic.streak.2", category: "generic", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "{value}-day streak! 🔥", one: "{value}-day streak! 🔥"),
            .init(
                id: "generic.streak.3", category: "generic", tiers: high, milestoneTypes: ["streak", "streak_record"],
                text: "{name} hit a {value}-day streak! 🔥", one: "{name} hit a {value}-day streak! 🔥"),
            .init(
                id: "generic.first.1", category: "generic", tiers: high, milestoneTypes: ["first"],
                text: "A first: {title}! 🌟"),
            .init(
                id: "generic.count.1", category: "generic", tiers: high, milestoneTypes: ["count"],
                text: "{value} and counting: {title}! 🎯", one: "{value} and counting: {title}! 🎯"),
            .init(id: "generic.1.1", category: "generic", tiers: low, text: "Nice! ✨"),
            .init(id: "generic.1.2", category: "generic", tiers: low, text: "Well done! 👍"),
            .init(id: "generic.1.3", category: "generic", tiers: low, text: "Keep it up! 💪"),
            .init(id: "generic.1.4", category: "generic", tiers: low, text: "Another step forward! 👣"),
            .init(id: "generic.1.5", category: "generic", tiers: low, text: "{title}! ✨"),
            .init(id: "generic.2.1", category: "generic", tiers: [.notable], text: "{title}! 🎉"),
            .init(id: "generic.2.2", category: "generic", tiers: [.notable], text: "Achievement unlocked: {title}! 🏅"),
            .init(id: "generic.2.3", category: "generic", tiers: [.notable], text: "Nicely done, {name}: {title}! 🎉"),
            .init(id: "generic.2.4", category: "generic", tiers: [.notable], text: "Something to remember: {title}. 🌟"),
            .init(id: "generic.2.5", category: "generic", tiers: [.notable], text: "You earned it: {title}! 🏆"),
            .init(id: "generic.3.1", category: "generic", tiers: major, text: "{title}! What a milestone! 🏆"),
            .init(id: "generic.3.2", category: "generic", tiers: major, text: "This one is big: {title}! 🎉"),
            .init(id: "generic.3.3", category: "generic", tiers: major, text: "A moment to remember: {title}! 🌟"),
            .init(id: "generic.3.4", category: "generic", tiers: major, text: "{name} did it: {title}! 🎊"),
            .init(id: "generic.3.5", category: "generic", tiers: major, text: "Huge milestone unlocked: {title}! 🥳"),
            .init(
                id: "retro.streak.1", category: "generic", milestoneTypes: ["streak", "streak_record"],
                retroactive: true, text: "Looks like {name} hit a {value}-day streak {when}! 🎉",
                one: "Looks like {name} hit a {value}-day streak {when}! 🎉"),
            .init(
                id: "retro.any.1", category: "generic", retroactive: true,
                text: "Looks like {name} earned {title} {when}! 🎉"),
            .init(
                id: "retro.any.2", category: "generic", retroactive: true, text: "Looks like {title} happened {when}! 🎉"
            ),
            .init(
                id: "retro.any.3", category: "generic", retroactive: true, text: "Caught up: {title}, reached {when}! 🎉"
            ),
            .init(
                id: "retro.any.4", category: "generic", retroactive: true,
                text: "It counts all the same: {title}, {when}! 🌟"),
            .init(
                id: "retro.any.5", category: "generic", retroactive: true, text: "Found in your log: {title}, {when}! ✨"
            ),
        ])

    private static let low: [CelebrationTier] = [.acknowledgment]
    private static let high: [CelebrationTier] = [.notable, .major]
    private static let major: [CelebrationTier] = [.major]
}
