import Foundation
import MomentumCore
import Testing

/// Celebration messages: personalization, placeholder skipping, variety, retroactive
/// phrasing, and seed 002's category messages.
@Suite struct MessageCatalogTests {
    static func day(_ text: String) -> LocalDay { LocalDay(iso8601: text)! }

    static let today = day("2026-03-18")
    static let ollie = Subject(id: "ollie", name: "Ollie", kind: "puppy")

    static func unlock(
        _ id: String = "potty-streak-7", tier: CelebrationTier = .notable, type: String = "streak",
        value: Double? = 7, category: String = "potty", title: String = "7-Day Potty Streak",
        achieved: LocalDay = today, retroactive: Bool = false, context: [String: String] = [:]
    ) -> Unlock {
        Unlock(
            id: id, rule: id, title: title, category: category, tier: tier, milestoneType: type, value: value,
            achievedAt: Date(timeIntervalSince1970: Double(achieved.number) * 86_400 + 43_200), achievedDay: achieved,
            detectedAt: Date(timeIntervalSince1970: Double(today.number) * 86_400 + 50_000), retroactive: retroactive,
            context: context)
    }

    // MARK: - Personalization and placeholders

    @Test func placeholdersAreFilledFromTheUnlockAndSubject() {
        let catalog = MessageCatalog(templates: [
            MessageTemplate(
                id: "all", category: "commands",
                text: "{name} {value} {habit} {item} {goal} {stage} {duration} {title} {unknown} {when")
        ])
        let unlock = Self.unlock(
            type: "count", value: 1000, category: "commands", title: "Star Pupil",
            context: [
                "name": "Biscuit", "habit": "training", "item": "sit", "goal": "obedience", "stage": "Advanced",
                "duration": "3 weeks",
            ])

        let withSubject = catalog.message(for: unlock, subject: Self.ollie, today: Self.today)
        #expect(withSubject.text == "Ollie 1,000 training sit obedience Advanced 3 weeks Star Pupil {unknown} {when")
        #expect(withSubject.templateID == "all")
        let fromContext = catalog.message(for: unlock, today: Self.today)
        #expect(fromContext.text.hasPrefix("Biscuit 1,000 "))
        var fractional = unlock
        fractional.value = 12.5
        #expect(catalog.message(for: fractional, today: Self.today).text.hasPrefix("Biscuit 12.5 "))
    }

    /// A title that ends its own sentence gives up its punctuation to the template's.
    @Test func aTitlesOwnPunctuationGivesWayToTheTemplates() {
        let cases: [(template: String, title: String, expected: String)] = [
            (
                "It counts all the same: {title}, {when}! 🌟", "Ollie is 11 weeks old!",
                "It counts all the same: Ollie is 11 weeks old, in August 2025! 🌟"
            ),
            ("{title}! ✨", "Ollie is 11 weeks old!", "Ollie is 11 weeks old! ✨"),
            ("{title}! ✨", "Really?!", "Really! ✨"),
            ("A moment to remember: {title}! 🌟", "7-Day Potty Streak", "A moment to remember: 7-Day Potty Streak! 🌟"),
            ("{title} 🎉", "Ollie is 11 weeks old!", "Ollie is 11 weeks old! 🎉"),
            ("Found in your log: {title}, {when}! ✨", "Well done.", "Found in your log: Well done, in August 2025! ✨"),
        ]
        for (template, title, expected) in cases {
            let catalog = MessageCatalog(templates: [
                MessageTemplate(id: "t", category: "potty", retroactive: template.contains("{when}"), text: template)
            ])
            let unlock = Self.unlock(
                title: title, achieved: Self.day("2025-08-10"), retroactive: template.contains("{when}"))
            #expect(catalog.message(for: unlock, today: Self.today).text == expected, "\(template)")
        }
    }

    @Test func templatesWhosePlaceholdersCannotBeFilledAreSkipped() {
        let catalog = MessageCatalog(templates: [
            MessageTemplate(id: "named", category: "potty", text: "Go {name}!"),
            MessageTemplate(id: "item", category: "potty", text: "New: {item}!"),
            MessageTemplate(id: "plain", category: "potty", text: "Nice work!"),
        ])
        for id in ["a", "b", "c", "d", "e", "f"] {
            #expect(catalog.message(for: Self.unlock(id), today: Self.today).templateID == "plain")
            let blank = Self.unlock(id, context: ["name": "  ", "item": ""])
            #expect(catalog.message(for: blank, today: Self.today).templateID == "plain")
        }
        let named = (1...20).map {
            catalog.message(for: Self.unlock("u\($0)"), subject: Self.ollie, today: Self.today).templateID
        }
        #expect(Set(named) == ["named", "plain"])
    }

    @Test func templatesMustSuitTheTierTypeAndAmount() {
        let catalog = MessageCatalog.standard
        let tier1 = catalog.message(for: Self.unlock(tier: .acknowledgment, value: 3), today: Self.today)
        #expect(["🔥 3 days in a row!", "3 outdoor days in a row! 🌿"].contains(tier1.text))

        let small = Self.unlock("s", type: "amount", value: 1000, category: "savings", title: "$1k saved")
        let others = ["savings.amount.1", "savings.amount.2"]
        #expect(catalog.message(for: small, today: Self.today, recentTemplateIDs: others).text == "First milestone! ✨")
        var epic = small
        epic.value = 100_000
        #expect(
            catalog.message(for: epic, today: Self.today, recentTemplateIDs: others).text == "Incredible savings! 🏆")
    }

    /// A weekly or monthly habit's streak is counted in weeks or months: no message of any
    /// unlock id calls it a "7-day streak", in English or Portuguese, and both languages
    /// choose the same template.
    @Test(arguments: ["week", "month"])
    func aStreakInWeeksOrMonthsIsNotCalledDays(_ unit: String) throws {
        let portuguese = MessageCatalog.standard.translated(try #require(Translation.named("pt-BR")))
        for index in 0..<200 {
            for tier in [CelebrationTier.notable, .major] {
                let unlock = Self.unlock(
                    "habit-streak-\(index)", tier: tier, category: "streaks", title: "7-\(unit) streak: Stretch",
                    context: ["habit": "Stretch", "unit": unit])
                let message = MessageCatalog.standard.message(for: unlock, today: Self.today)
                #expect(!message.text.contains("day"), "\(message.templateID): \(message.text)")
                let translated = portuguese.message(for: unlock, today: Self.today)
                #expect(translated.templateID == message.templateID)
                #expect(!translated.text.contains(" dias"), "\(translated.templateID): \(translated.text)")
            }
        }
        // Counted in days, the day-worded templates are still chosen.
        let daily = (0..<50).map {
            MessageCatalog.standard.message(
                for: Self.unlock(
                    "daily-\($0)", category: "streaks", title: "7-day streak: Stretch",
                    context: ["habit": "Stretch", "unit": "day"]), today: Self.today)
        }
        #expect(daily.contains { $0.text.contains("day") })
        #expect(MessageTemplate(id: "t", category: "streaks", text: "{value}-day streak").countsDays)
        #expect(!MessageTemplate(id: "t", category: "streaks", text: "{value} walks").countsDays)
    }

    @Test func unknownCategoriesUseTheGenericTemplatesOfTheirTier() {
        let catalog = MessageCatalog.standard
        for tier in CelebrationTier.allCases {
            let unlock = Self.unlock(tier: tier, type: "first", category: "knitting", title: "First Scarf")
            let message = catalog.message(for: unlock, today: Self.today)
            #expect(message.templateID.hasPrefix("generic."))
            let template = catalog.templates.first { $0.id == message.templateID }
            #expect(template?.tiers.contains(tier) == true)
        }
    }

    @Test func announcementLeavesOutEmoji() {
        let catalog = MessageCatalog(templates: [
            MessageTemplate(id: "fire", category: "potty", text: "🔥 {value} days in a row!")
        ])
        let message = catalog.message(for: Self.unlock(value: 3), today: Self.today)
        #expect(message.text == "🔥 3 days in a row!")
        #expect(message.announcement == "3 days in a row!")

        let emojiOnly = MessageCatalog(templates: [MessageTemplate(id: "e", category: "potty", text: "🎉 🐶")])
        #expect(emojiOnly.message(for: Self.unlock(), today: Self.today).announcement == "7-Day Potty Streak")
    }

    // MARK: - Variety

    @Test func noMessageRepeatsOneOfTheLastThree() {
        let catalog = MessageCatalog.standard
        let categories = ["potty", "commands", "socialization", "savings", "vacation", "streaks", "knitting"]
        let types = ["streak", "first", "count", "amount", "goal_completed", "recovery"]
        var history: [String] = []
        for index in 0..<300 {
            let unlock = Self.unlock(
                "u\(index)", tier: CelebrationTier.allCases[index % 3], type: types[index % types.count],
                value: Double(index % 40 + 1), category: categories[index % categories.count],
                achieved: Self.today.advanced(by: -(index % 50)), retroactive: index % 4 == 0)
            let message = catalog.message(
                for: unlock, subject: index % 2 == 0 ? Self.ollie : nil, today: Self.today,
                recentTemplateIDs: history)
            #expect(!message.templateID.isEmpty)
            #expect(!history.suffix(3).contains(message.templateID), "repeated \(message.templateID) at \(index)")
            history.append(message.templateID)
        }
        #expect(Set(history).count > 40)
    }

    @Test(arguments: [
        ("potty", "streak", CelebrationTier.notable, false), ("potty", "first", .major, false),
        ("savings", "amount", .notable, false), ("knitting", "count", .acknowledgment, false),
        ("potty", "streak", .notable, true), ("vacation", "goal_completed", .major, true),
    ])
    func sameKindOfUnlockInARowNeverRepeatsTheLastThree(
        category: String, type: String, tier: CelebrationTier, retroactive: Bool
    ) {
        var history: [String] = []
        for index in 0..<60 {
            let unlock = Self.unlock(
                "same-\(index)", tier: tier, type: type, value: 7, category: category,
                achieved: Self.today.advanced(by: retroactive ? -8 : 0), retroactive: retroactive)
            let message = MessageCatalog.standard.message(
                for: unlock, subject: Self.ollie, today: Self.today, recentTemplateIDs: history)
            #expect(!history.suffix(3).contains(message.templateID), "repeated \(message.templateID) at \(index)")
            history.append(message.templateID)
        }
    }

    @Test func choiceIsDeterministicAndVariesByUnlockID() {
        let catalog = MessageCatalog.standard
        let first = catalog.message(for: Self.unlock("a"), subject: Self.ollie, today: Self.today)
        #expect(catalog.message(for: Self.unlock("a"), subject: Self.ollie, today: Self.today) == first)
        let chosen = Set(
            (0..<30).map {
                catalog.message(for: Self.unlock("id-\($0)"), subject: Self.ollie, today: Self.today).templateID
            })
        #expect(chosen.count >= 2)
    }

    @Test func whenEveryCandidateWasUsedRecentlyTheOldestIsChosen() {
        let catalog = MessageCatalog(templates: [
            MessageTemplate(id: "x", category: "potty", text: "X"),
            MessageTemplate(id: "y", category: "potty", text: "Y"),
        ])
        let message = catalog.message(for: Self.unlock(), today: Self.today, recentTemplateIDs: ["y", "x", "y"])
        #expect(message.templateID == "x")
        let longer = catalog.message(
            for: Self.unlock(), today: Self.today, recentTemplateIDs: ["x", "y"], recentLimit: 1)
        #expect(longer.templateID == "x")
        let none = MessageCatalog(templates: []).message(for: Self.unlock(), today: Self.today)
        #expect(none == Message(templateID: "", text: "7-Day Potty Streak", announcement: "7-Day Potty Streak"))
    }

    // MARK: - Retroactive

    @Test func ollieSentenceIsReproducedExactly() {
        for (id, category, tier) in [
            ("potty-streak-7", "potty", CelebrationTier.notable), ("x", "streaks", .major),
            ("other", "knitting", .acknowledgment), ("p", "potty_outdoor", .notable),
        ] {
            let unlock = Self.unlock(
                id, tier: tier, category: category, achieved: Self.today.advanced(by: -8), retroactive: true,
                context: ["name": "Ollie"])
            let message = MessageCatalog.standard.message(for: unlock, today: Self.today)
            #expect(message.text == "Looks like Ollie hit a 7-day streak last week! 🎉")
            #expect(message.announcement == "Looks like Ollie hit a 7-day streak last week!")
        }
    }

    @Test func retroactiveMessagesAlwaysSaySo() {
        for index in 0..<40 {
            let unlock = Self.unlock(
                "r\(index)", tier: CelebrationTier.allCases[index % 3], type: ["first", "count", "streak"][index % 3],
                category: ["potty", "savings", "vacation", "growth"][index % 4],
                achieved: Self.today.advanced(by: -index), retroactive: true)
            let when = MessageCatalog.relativePhrase(for: unlock.achievedDay, today: Self.today)
            let message = MessageCatalog.standard.message(for: unlock, today: Self.today)
            #expect(message.templateID.hasPrefix("retro."))
            #expect(message.text.contains(when))
        }
        let custom = MessageCatalog(templates: [MessageTemplate(id: "now", category: "potty", text: "Now!")])
        let late = Self.unlock(achieved: Self.today.advanced(by: -1), retroactive: true)
        #expect(custom.message(for: late, today: Self.today).text == "7-Day Potty Streak, yesterday")
    }

    @Test(arguments: [
        ("2026-03-18", "earlier today"),
        ("2026-03-19", "earlier today"),
        ("2026-03-17", "yesterday"),
        ("2026-03-16", "on Monday"),
        ("2026-03-15", "on Sunday"),
        ("2026-03-12", "on Thursday"),
        ("2026-03-11", "last week"),
        ("2026-03-05", "last week"),
        ("2026-03-04", "2 weeks ago"),
        ("2026-02-25", "3 weeks ago"),
        ("2026-02-19", "3 weeks ago"),
        ("2026-02-18", "last month"),
        ("2026-02-01", "last month"),
        ("2026-01-31", "in January"),
        ("2025-12-25", "in December 2025"),
        ("2025-03-18", "in March 2025"),
    ])
    func relativePhrases(achieved: String, phrase: String) {
        #expect(MessageCatalog.relativePhrase(for: Self.day(achieved), today: Self.today) == phrase)
    }

    @Test func fourWeeksWithinOneMonthAreNotLastMonth() {
        let today = Self.day("2026-03-31")
        #expect(MessageCatalog.relativePhrase(for: Self.day("2026-03-01"), today: today) == "4 weeks ago")
        #expect(MessageCatalog.relativePhrase(for: Self.day("2026-03-03"), today: today) == "4 weeks ago")
        #expect(MessageCatalog.relativePhrase(for: Self.day("2026-02-28"), today: today) == "last month")
    }

    // MARK: - The standard catalog

    @Test(arguments: [
        ("vacation", "Bon voyage! 🏖️"), ("house", "Welcome home! 🏠"), ("wedding", "Congratulations! 💍"),
        ("retirement", "Enjoy your freedom! 🌟"), ("education", "Knowledge achieved! 🎓"),
    ])
    func seed002GoalMessagesArePresent(category: String, text: String) throws {
        let catalog = MessageCatalog.standard
        let template = try #require(catalog.templates.first { $0.text == text })
        #expect(template.category == category)
        #expect(template.milestoneTypes == ["goal_completed"])
        let unlock = Self.unlock(
            "goal", tier: .major, type: "goal_completed", value: nil, category: category, title: "Goal!")
        let others = catalog.templates.filter { $0.category == category && $0.id != template.id }.map(\.id)
        #expect(catalog.message(for: unlock, today: Self.today, recentTemplateIDs: others).text == text)
    }

    @Test func seed002MilestoneMessagesArePresent() {
        let amounts = MessageCatalog.standard.templates.filter { $0.amountTier != nil }
        #expect(
            amounts.map(\.text) == [
                "First milestone! ✨", "Growing strong! 💪", "Quarter century! 🌟", "Incredible savings! 🏆",
            ])
        #expect(amounts.map(\.amountTier) == [.small, .medium, .large, .epic])
    }

    @Test func standardCatalogCoversEveryCategoryAndTier() {
        let catalog = MessageCatalog.standard
        #expect(Set(catalog.templates.map(\.id)).count == catalog.templates.count)
        for template in catalog.templates {
            #expect(template.placeholders.isSubset(of: MessageTemplate.placeholderNames))
        }
        let categories = [
            "potty", "commands", "socialization", "health", "lifestyle", "time", "streaks", "savings", "vacation",
            "house", "wedding", "retirement", "education", "growth",
        ]
        for category in categories {
            #expect(catalog.templates.contains { $0.category == category }, "\(category)")
        }
        for tier in CelebrationTier.allCases {
            for retroactive in [false, true] {
                let titleOnly = catalog.templates.filter {
                    $0.category == MessageTemplate.genericCategory && $0.tiers.contains(tier)
                        && $0.retroactive == retroactive && $0.milestoneTypes == nil
                        && $0.placeholders.isSubset(of: ["title", "when"])
                }
                #expect(titleOnly.count >= 4, "tier \(tier.rawValue), retroactive \(retroactive)")
            }
        }
    }

    @Test func catalogRoundTripsThroughJSON() throws {
        let data = try MomentumJSON.encoder().encode(MessageCatalog.standard)
        #expect(try MomentumJSON.decoder().decode(MessageCatalog.self, from: data) == MessageCatalog.standard)

        let minimal = #"{"templates": [{"id": "a", "category": "potty", "text": "Hi {name}"}]}"#
        let decoded = try MomentumJSON.decoder().decode(MessageCatalog.self, from: Data(minimal.utf8))
        #expect(decoded.templates == [MessageTemplate(id: "a", category: "potty", text: "Hi {name}")])
        #expect(decoded.templates[0].tiers == CelebrationTier.allCases)
        #expect(!decoded.templates[0].retroactive)
    }
}
