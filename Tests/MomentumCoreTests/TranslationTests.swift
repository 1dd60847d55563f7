import Foundation
import Testing

@testable import MomentumCore

/// Languages: every language file has every key the engine uses and no other, translations
/// keep their placeholders, the choice of a message never depends on the language, and
/// English reads exactly as before.
@Suite struct TranslationTests {
    static let portuguese = Translation.named("pt-BR")

    /// Placeholder names in a text: `{name}`, `{stage_number}`.
    static func placeholders(_ text: String) -> Set<String> {
        let names = TemplateText.segments(of: text) { name in
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        return Set(names.compactMap { $0.placeholder.map(String.init) })
    }

    /// The bundled languages other than English, each a translation that loaded.
    static var languages: [Translation] {
        Translation.availableLanguages.dropFirst().compactMap(Translation.named)
    }

    // MARK: - The language files

    @Test func brazilianPortugueseIsBundledAfterEnglish() throws {
        #expect(Translation.availableLanguages.first == "en")
        #expect(Translation.availableLanguages.contains("pt-BR"))
        #expect(Translation.availableLanguages.dropFirst() == Translation.availableLanguages.dropFirst().sorted()[...])
        let portuguese = try #require(Self.portuguese)
        #expect(portuguese.language == "pt-BR")
        #expect(portuguese.name == "Português (Brasil)")
        #expect(Self.languages.count == Translation.availableLanguages.count - 1)
    }

    @Test func everyKeyIsDefinedOnce() {
        let keys = Translation.entries.map(\.key)
        let repeated = Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "keys defined twice: \(repeated.joined(separator: ", "))")
        #expect(Translation.keys.count == keys.count)
        #expect(Translation.keys.count > 450)
    }

    /// The missing-key test: a language lacking a key falls back to English, one with a key
    /// no source defines has a typo or a leftover.
    @Test func everyLanguageHasEveryKeyAndNoOther() {
        for language in Self.languages {
            // A plural group needs one text per category of the language's own rules.
            let keys = Translation.keys(for: language)
            let missing = Set(keys.keys).subtracting(language.texts.keys).sorted()
            let unknown = Set(language.texts.keys).subtracting(keys.keys).sorted()
            #expect(missing.isEmpty, "\(language.language) lacks \(missing.count): \(missing.joined(separator: ", "))")
            #expect(unknown.isEmpty, "\(language.language) has unknown keys: \(unknown.joined(separator: ", "))")
        }
    }

    @Test func translationsKeepTheirPlaceholders() {
        for language in Self.languages {
            for (key, english) in Translation.keys(for: language).sorted(by: { $0.key < $1.key }) {
                guard let text = language.texts[key] else { continue }
                let own = Self.placeholders(english)
                let used = Self.placeholders(text)
                if Translation.exactPlaceholderKeys.contains(key) {
                    #expect(used == own, "\(language.language) \(key): \(used.sorted()) instead of \(own.sorted())")
                } else {
                    let allowed = own.union(Translation.extraPlaceholders[key] ?? [])
                    #expect(used.isSubset(of: allowed), "\(language.language) \(key) uses \(used.subtracting(allowed))")
                }
            }
        }
    }

    @Test func emojiStayAsTheyAre() {
        for language in Self.languages {
            for (key, english) in Translation.keys(for: language)
            where key.hasPrefix("message.") || key.hasPrefix("celebration.") {
                let emoji = { (text: String) in
                    text.filter { $0.unicodeScalars.contains(where: \.properties.isEmojiPresentation) }
                }
                #expect(emoji(language.text(key, default: english)) == emoji(english), "\(language.language) \(key)")
            }
        }
    }

    @Test func aBrokenOrMissingFileIsNotALanguage() throws {
        #expect(Translation(language: "xx", json: Data("{".utf8)) == nil)
        #expect(Translation(language: "xx", json: Data(#"{"meta": {}}"#.utf8)) == nil)
        #expect(Translation(language: "xx", json: Data(#"{"texts": {"a": 1}}"#.utf8)) == nil)
        let blank = try #require(Translation(language: "xx", json: Data(#"{"texts": {"a": " ", "b": "B"}}"#.utf8)))
        #expect(blank.text("a", default: "A") == "A")
        #expect(blank.text("b", default: "?") == "B")
        #expect(blank.number(1234.5) == "1,234.5")
        #expect(Translation.load(directory: URL(fileURLWithPath: "/nonexistent/languages")).isEmpty)
        #expect(Translation.load(directory: nil).isEmpty)
        #expect(Translation.isLanguageTag("pt-BR") && Translation.isLanguageTag("zh-Hant-TW"))
        #expect(!Translation.isLanguageTag("pt_BR") && !Translation.isLanguageTag("pt-BR.json"))
        #expect(!Translation.isLanguageTag("p") && !Translation.isLanguageTag("pt-") && !Translation.isLanguageTag(""))
    }

    // MARK: - Choosing a language

    @Test func namedMatchesTagsInAnyCase() {
        #expect(Translation.named("PT-br") == Self.portuguese)
        #expect(Translation.named("pt-br")?.language == "pt-BR")
        #expect(Translation.named("pt_BR")?.language == "pt-BR")
        #expect(Translation.named("en") == .english)
        #expect(Translation.named("EN") == .english)
        #expect(Translation.named("pt") == nil)
        #expect(Translation.named("fr") == nil)
        #expect(Translation.named("") == nil)
    }

    @Test func bestMatchTriesEachTagExactlyThenByItsPrimaryLanguage() {
        #expect(Translation.bestMatch(for: ["pt-PT"]) == "pt-BR")
        #expect(Translation.bestMatch(for: ["pt"]) == "pt-BR")
        #expect(Translation.bestMatch(for: ["en-US"]) == "en")
        #expect(Translation.bestMatch(for: ["en-GB"]) == "en")
        #expect(Translation.bestMatch(for: ["fr", "pt"]) == "pt-BR")
        #expect(Translation.bestMatch(for: ["fr"]) == nil)
        #expect(Translation.bestMatch(for: []) == nil)
        #expect(Translation.bestMatch(for: ["*", " ", "de-DE"]) == nil)
        #expect(Translation.bestMatch(for: ["pt-BR;q=0.9"]) == "pt-BR")
        // The reader's order wins over exactness: English (GB) before Portuguese.
        #expect(Translation.bestMatch(for: ["en-GB", "pt-BR"]) == "en")
        #expect(Translation.bestMatch(for: ["pt-PT", "en"]) == "pt-BR")
    }

    // MARK: - English reads as before

    @Test func englishIsTheSource() {
        #expect(Translation.english.text("relative.yesterday", default: "yesterday") == "yesterday")
        #expect(Translation.english.text("no.such.key", default: "as written") == "as written")
        #expect(MessageCatalog.standard.translated(.english) == .standard)
        #expect(AffirmationCatalog.standard.translated(.english) == .standard)
        #expect(CelebrationCatalog.standard.translated(.english) == .standard)
        for (_, pack) in RulePack.bundled { #expect(pack.translated(.english) == pack) }
        #expect(
            RulePack.named("habits+ollie+savings+growth")?.translated(.english)
                == RulePack.named("ollie+savings+growth+habits"))
        for number in [0, 7, 1000, -25_000, 12.5, 0.333, 1_234_567.891, -0.001, .infinity, .nan] {
            #expect(Translation.english.number(number) == MilestoneNumber.text(number))
        }
    }

    @Test func aTranslatedPackTranslatesBackToTheSource() throws {
        let portuguese = try #require(Self.portuguese)
        for (_, pack) in RulePack.bundled {
            let translated = pack.translated(portuguese)
            #expect(translated != pack)
            #expect(translated.translated(.english) == pack)
            #expect(translated.translated(portuguese) == translated)
            #expect(translated.achievements.map(\.id) == pack.achievements.map(\.id))
            #expect(translated.forms.map(\.id) == pack.forms.map(\.id))
            #expect(
                translated.forms.flatMap { $0.fields.flatMap { $0.options.map(\.value) } }
                    == pack.forms.flatMap { $0.fields.flatMap { $0.options.map(\.value) } })
            #expect(translated.methods.map { $0.stages.map(\.id) } == pack.methods.map { $0.stages.map(\.id) })
        }
    }

    // MARK: - Messages choose the same template in every language

    @Test func translatedTemplatesHaveExactlyTheEnglishPlaceholders() throws {
        let portuguese = try #require(Self.portuguese)
        let english = MessageCatalog.standard
        let translated = english.translated(portuguese)
        #expect(translated.templates.map(\.id) == english.templates.map(\.id))
        for (mine, theirs) in zip(translated.templates, english.templates) {
            #expect(mine.placeholders == theirs.placeholders, "\(mine.id)")
            // None fell back to English for a placeholder mismatch; a counting template has
            // every form of Portuguese's plural categories.
            guard !theirs.forms.isEmpty else {
                #expect(mine.text == portuguese.texts["message.\(mine.id)"], "\(mine.id)")
                continue
            }
            #expect(mine.text == portuguese.texts["message.\(mine.id).other"], "\(mine.id)")
            #expect(Set(mine.forms.keys) == [.one, .many], "\(mine.id)")
            for (category, form) in mine.forms {
                #expect(form == portuguese.texts["message.\(mine.id).\(category.rawValue)"], "\(mine.id)")
                #expect(MessageTemplate.placeholders(in: form) == theirs.placeholders, "\(mine.id) \(category)")
            }
        }
        let affirmations = AffirmationCatalog.standard.translated(portuguese)
        for (mine, theirs) in zip(affirmations.templates, AffirmationCatalog.standard.templates) {
            #expect(mine.id == theirs.id && mine.placeholders == theirs.placeholders, "\(mine.id)")
            #expect(mine.text == portuguese.texts["affirmation.\(mine.id)"], "\(mine.id)")
        }
    }

    @Test func aTranslatedCatalogChoosesTheSameTemplates() throws {
        let portuguese = try #require(Self.portuguese)
        let today = LocalDay(year: 2026, month: 3, day: 18)!
        let ollie = Subject(id: "ollie", name: "Ollie", kind: "puppy")
        var unlocks: [Unlock] = []
        let cases: [(String, String, Double?, [String: String])] = [
            ("potty", "streak", 7, [:]), ("potty", "first", nil, [:]), ("potty", "streak_record", 9, [:]),
            ("commands", "first", nil, ["item": "sit"]), ("commands", "count", 5, [:]),
            ("socialization", "set_completed", nil, ["item": "vehicles"]), ("health", "first", nil, ["item": "dhpp-1"]),
            ("lifestyle", "count", 25, [:]), ("time", "age", 8, ["duration": "8 weeks"]),
            ("streaks", "streak", 30, ["habit": "Read"]), ("streaks", "recovery", 3, ["habit": "Read"]),
            ("savings", "amount", 1000, [:]), ("savings", "amount", 25_000, [:]),
            ("vacation", "goal_completed", 5000, [:]),
            ("growth", "stage_reached", nil, ["stage": "Master"]), ("custom", "count", 3, [:]),
            ("other", "moment", nil, [:]),
        ]
        for (index, (category, type, value, context)) in cases.enumerated() {
            for tier in CelebrationTier.allCases {
                for retroactive in [false, true] {
                    for named in [false, true] {
                        let achieved = retroactive ? today.advanced(by: -(index * 5 + 1)) : today
                        unlocks.append(
                            Unlock(
                                id: "u\(unlocks.count)", rule: "r\(index)", title: "Title \(index)", category: category,
                                tier: tier, milestoneType: type, value: value,
                                achievedAt: Date(timeIntervalSince1970: Double(achieved.number) * 86_400 + 43_200),
                                achievedDay: achieved,
                                detectedAt: Date(timeIntervalSince1970: Double(today.number) * 86_400 + 50_000),
                                retroactive: retroactive, subject: named ? "ollie" : nil, context: context))
                    }
                }
            }
        }
        let clock = DayClock()
        let zone = try #require(ZoneOffsetTable.named("UTC"))
        var englishRecent: [String] = []
        var portugueseRecent: [String] = []
        let english = MessageCatalog.standard.messages(
            for: unlocks, subjects: ["ollie": ollie], clock: clock, zone: zone, recentTemplateIDs: &englishRecent)
        let translated = MessageCatalog.standard.translated(portuguese).messages(
            for: unlocks, subjects: ["ollie": ollie], clock: clock, zone: zone, recentTemplateIDs: &portugueseRecent)
        for unlock in unlocks {
            #expect(english[unlock.id]?.templateID == translated[unlock.id]?.templateID, "\(unlock.id)")
        }
        #expect(englishRecent == portugueseRecent)
        #expect(Set(english.values.map(\.templateID)).count > 40)
    }

    // MARK: - Brazilian Portuguese, concretely

    @Test func aRetroactiveStreakMessageInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        let today = LocalDay(year: 2026, month: 3, day: 18)!
        let unlock = Unlock(
            id: "potty-streak-7", rule: "potty-streak-7", title: "7-day outdoor potty streak", category: "streaks",
            tier: .notable, milestoneType: "streak", value: 7,
            achievedAt: Date(timeIntervalSince1970: Double(today.number - 9) * 86_400),
            achievedDay: today.advanced(by: -9),
            detectedAt: Date(timeIntervalSince1970: Double(today.number) * 86_400), retroactive: true)
        let ollie = Subject(id: "ollie", name: "Ollie", kind: "puppy")
        let english = MessageCatalog.standard.message(for: unlock, subject: ollie, today: today)
        #expect(english.text == "Looks like Ollie hit a 7-day streak last week! 🎉")
        let message = MessageCatalog.standard.translated(portuguese).message(for: unlock, subject: ollie, today: today)
        #expect(message.templateID == english.templateID)
        #expect(message.text == "Parece que Ollie completou uma sequência de 7 dias na semana passada! 🎉")
        #expect(message.announcement == "Parece que Ollie completou uma sequência de 7 dias na semana passada!")
    }

    @Test func relativePhrasesDatesAndNumbersInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        let today = LocalDay(year: 2026, month: 3, day: 18)!  // a Wednesday
        func phrase(_ daysAgo: Int) -> String {
            MessageCatalog.relativePhrase(for: today.advanced(by: -daysAgo), today: today, translation: portuguese)
        }
        #expect(phrase(0) == "hoje mais cedo")
        #expect(phrase(1) == "ontem")
        #expect(phrase(2) == "na segunda-feira")
        #expect(phrase(4) == "no sábado")
        #expect(phrase(9) == "na semana passada")
        #expect(phrase(15) == "há 2 semanas")
        #expect(phrase(30) == "no mês passado")
        #expect(phrase(60) == "em janeiro")
        #expect(phrase(120) == "em novembro de 2025")
        #expect(MessageCatalog.relativePhrase(for: today.advanced(by: -120), today: today) == "in November 2025")
        #expect(today.readable(translation: portuguese) == "qua, 18 de mar de 2026")
        #expect(today.readable == "Wed 18 Mar 2026")
        #expect(ShareCardContent.englishDate(today) == "March 18, 2026")
        #expect(portuguese.longDate(today) == "18 de março de 2026")

        #expect(portuguese.number(1000) == "1.000")
        #expect(MilestoneNumber.text(1000, translation: portuguese) == "1.000")
        #expect(MilestoneNumber.text(1000) == "1,000")
        #expect(portuguese.number(2.5) == "2,5")
        #expect(portuguese.number(-1_234_567.891) == "-1.234.567,89")
        #expect(portuguese.number(2.5, fractionDigits: 0) == "3")
        #expect(Translation.english.number(0.123456, fractionDigits: 4) == "0.1235")
        #expect(MilestoneNumber.money(1234.5, translation: portuguese) == "R$ 1.234,50")
        #expect(MilestoneNumber.money(-12.5) == "-$12.50")
        #expect(StageDuration.phrase(days: 23, translation: portuguese) == "3 semanas e 2 dias")
        #expect(StageDuration.phrase(days: 0, translation: portuguese) == "menos de um dia")
        #expect(StageDuration.phrase(days: 400) == "1 year, 1 month")
    }

    @Test func aPackInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        let habits = try #require(RulePack.named("habits")).translated(portuguese)
        #expect(habits.title == "Hábitos")
        #expect(habits.translation == portuguese)
        let streak = try #require(habits.achievements.first { $0.id == "streak-7" })
        #expect(streak.title == "Sequência de 7 {unit}: {habit}")
        #expect(streak.lockedTitle(subjectName: nil, translation: portuguese) == "Sequência de 7 dias: um hábito")

        let ollie = RulePack.ollie.translated(portuguese)
        let potty = try #require(ollie.forms.first { $0.id == "potty" })
        #expect(potty.title == "Hora do xixi")
        #expect(potty.fields[0].options.map(\.label) == ["Lá fora", "Acidente em casa"])
        #expect(potty.fields[0].options.map(\.value) == ["outdoor", "indoor"])
        let weight = try #require(ollie.forms.first { $0.id == "weight" })
        #expect(weight.fields[0].placeholder == "8,5")
        let birthday = try #require(ollie.achievements.first { $0.id == "month-birthday" })
        #expect(birthday.lockedTitle(subjectName: "Ollie", translation: portuguese) == "Ollie completou 1 mês!")
        let money = try #require(
            RulePack.savings.translated(portuguese).achievements.first { $0.id == "savings-small" })
        #expect(money.lockedTitle(subjectName: nil, translation: portuguese) == "Primeiro marco! R$ 1.000 guardados")

        let growth = try #require(RulePack.named("habits+growth")).translated(portuguese)
        #expect(growth.title == "Hábitos · Crescimento")
        #expect(
            growth.methods.first?.stages.map(\.name) == [
                "Iniciante", "Praticante Constante", "Aprofundamento", "Mestre",
            ])
    }

    @Test func unlockTitlesInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        var log = Log()
        log.add(.habitCreated(HabitDefinition(id: "read", name: "Ler", policy: .strict)), on: day(1), hour: 7)
        log.complete("read", days: 1...7)
        let now = log.instant(day(7), hour: 22)

        var english = MomentumUser(pack: .habits)
        english.replay(log.events, now: now)
        var translated = MomentumUser(pack: RulePack.habits.translated(portuguese))
        translated.replay(log.events, now: now)
        #expect(english.unlocks.map(\.id) == translated.unlocks.map(\.id))
        let streak = try #require(translated.unlocks.first { $0.id == "streak-7#read#7" })
        #expect(streak.title == "Sequência de 7 dias: Ler")
        #expect(english.unlocks.first { $0.id == "streak-7#read#7" }?.title == "7-day streak: Ler")

        // Titles written again in either language, from unlocks granted in the other.
        for unlock in english.unlocks { #expect(RulePack.habits.title(for: unlock) == unlock.title) }
        let retitled = english.unlocks.map { RulePack.habits.translated(portuguese).title(for: $0) }
        #expect(retitled == translated.unlocks.map(\.title))
        #expect(translated.unlocks.map { RulePack.habits.title(for: $0) } == english.unlocks.map(\.title))
    }

    @Test func aSummaryInPortugueseChoosesWhatEnglishChooses() throws {
        let portuguese = try #require(Self.portuguese)
        var log = Log()
        log.add(.habitCreated(HabitDefinition(id: "read", name: "Ler", policy: .strict)), on: day(1), hour: 7)
        log.complete("read", days: 1...8)
        log.add(.stage(method: "meditation", from: nil, to: "beginner", note: nil), on: day(2))
        log.add(.stage(method: "meditation", from: "beginner", to: "steady", note: nil), on: day(5))
        let now = log.instant(day(8), hour: 22)
        var user = MomentumUser(pack: try #require(RulePack.named("habits+growth")))
        user.replay(log.events, now: now)

        let english = user.summary(at: now, zone: "UTC")
        let summary = user.summary(at: now, zone: "UTC", translation: portuguese)
        #expect(english.unlocks.map(\.id) == summary.unlocks.map(\.id))
        #expect(english.messages.mapValues(\.templateID) == summary.messages.mapValues(\.templateID))
        #expect(summary.unlocks.contains { $0.title == "Sequência de 7 dias: Ler" })
        #expect(summary.unlocks.contains { $0.title == "Meditação: chegou à etapa Praticante Constante" })
        #expect(
            english.progression.celebrations.mapValues(\.affirmation.templateID)
                == summary.progression.celebrations.mapValues(\.affirmation.templateID))
        #expect(
            summary.progression.highlights.first?.sentence
                == "Chegou à etapa Praticante Constante em Meditação há 3 dias.")
        #expect(english.progression.highlights.first?.sentence == "Reached Steady Sitter in Meditation 3 days ago.")
        #expect(summary.memories.map(\.id) == english.memories.map(\.id))
        #expect(summary.memories.contains { $0.caption == "7 dias de Ler sem falhar" })
        #expect(english.memories.contains { $0.caption == "7 days of Ler in a row" })
    }

    @Test func notificationsInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        let zone = try #require(ZoneOffsetTable.named("America/Sao_Paulo"))
        let day = LocalDay(year: 2026, month: 3, day: 10)!
        let reading = NotificationPlanner.Habit(
            id: "read", name: "Ler", current: 12, best: 30, open: true, atRisk: true)
        let situation = NotificationPlanner.Situation(today: day, habits: [reading])
        let english = NotificationPlanner(preferences: .standard, zone: zone, dayStartHour: 0)
        let planner = NotificationPlanner(preferences: .standard, zone: zone, dayStartHour: 0, translation: portuguese)
        let start = english.wallClock(day, minute: 0)
        let end = english.wallClock(day, minute: 1439)
        let run = planner.run(situation, after: start, now: end)
        let englishRun = english.run(situation, after: start, now: end)
        #expect(run.due.map(\.key) == englishRun.due.map(\.key))
        let reminder = try #require(run.due.first { $0.kind == .reminder })
        #expect(reminder.title == "Hora de Ler")
        #expect(reminder.body == "Mantenha viva sua sequência de 12 dias.")
        #expect(englishRun.due.first { $0.kind == .reminder }?.body == "Keep your 12-day streak going.")
        let atRisk = try #require(run.due.first { $0.kind == .streakAtRisk })
        #expect(atRisk.title == "Sua sequência de 12 dias em Ler termina em 2 horas")
    }

    @Test func coachingInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        var log = Log()
        log.add(.habitCreated(HabitDefinition(id: "read", name: "Ler", policy: .strict)), on: day(1), hour: 7)
        log.complete("read", days: 1...5)
        var engine = UserEngine(pack: .habits)
        try engine.load(log.events)
        let now = log.instant(day(7), hour: 12)
        let english = try #require(engine.analytics(at: now).habits.first?.coaching.recovery)
        let recovery = try #require(engine.analytics(at: now, translation: portuguese).habits.first?.coaching.recovery)
        #expect(recovery.brokenStreak == english.brokenStreak && recovery.targetToBeat == english.targetToBeat)
        #expect(
            recovery.stillCounts
                == "Sua sequência de 5 dias ainda conta: foram 5 dias de verdade, e seu recorde de 5 continua no seu histórico."
        )
        #expect(recovery.reminder.message.hasPrefix("Quer um lembrete para Ler amanhã às "))
        #expect(Coaching.unit(.daily) == "day")
        #expect(Coaching.length(3, unit: "week", translation: portuguese) == "3 semanas")
        #expect(Coaching.length(1, unit: "day") == "1 day")
    }

    @Test func captionsInPortuguese() throws {
        let portuguese = try #require(Self.portuguese)
        func caption(_ type: String, _ category: String, _ value: Double?, _ title: String?, _ name: String?) -> String
        {
            Memory.caption(
                category: category, milestoneType: type, value: value, title: title, name: name, translation: portuguese
            )
        }
        #expect(caption("first", "lifestyle", nil, "Primeiro passeio", "Ollie") == "Primeiro passeio de Ollie")
        #expect(caption("first", "lifestyle", nil, nil, nil) == "Primeiro passeio")
        #expect(caption("count", "lifestyle", 50, nil, "Ollie") == "50º passeio de Ollie")
        #expect(caption("streak", "potty", 7, nil, nil) == "7 dias de xixi lá fora sem falhar")
        #expect(caption("amount", "savings", 1000, nil, "Ana") == "Ana guardou 1.000")
        #expect(
            Memory.caption(category: "lifestyle", milestoneType: "count", value: 50, title: nil, name: "Ollie")
                == "Ollie's 50th walk")
    }
}
