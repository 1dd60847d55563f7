import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

extension WebViews {
    // MARK: Memories

    func memories(_ caller: Caller, category: String?) async throws -> (MemoriesPage, Chrome) {
        let all = try await services.memories.list(of: caller.user)
        let onThisDay = try await services.memories.onThisDay(of: caller.user)
        let chrome = try await layout(caller, "memories", title: L("memories.title"))
        let shown = category.map { wanted in all.filter { $0.category == wanted } } ?? all
        let categories =
            [MemoriesPage.Category(name: L("memories.all"), href: "/memories", current: category == nil)]
            + Set(all.map(\.category)).sorted().map {
                MemoriesPage.Category(
                    name: Self.categoryName($0) ?? $0.capitalized, href: "/memories?category=\($0)",
                    current: $0 == category)
            }
        let page = MemoriesPage(
            memories: shown.map(memoryCard), noMemories: shown.isEmpty, onThisDay: onThisDay.map(memoryCard),
            hasOnThisDay: !onThisDay.isEmpty, categories: categories)
        return (page, chrome)
    }

    func memoryCard(_ memory: Memory) -> MemoryCard {
        let escapedID = memory.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? memory.id
        return MemoryCard(
            id: memory.id, escapedID: escapedID,
            // Without a photo, the memory shows its illustration (issue 45).
            illustration: "/memories/\(escapedID)/illustration.svg",
            title: memory.title, caption: memory.caption,
            categoryName: Self.categoryName(memory.category)?.lowercased(with: Wording.current.locale)
                ?? memory.category,
            photoAlt: L("memories.photoAlt", ["title": memory.title]),
            day: Self.longDay(memory.day), note: memory.note ?? "",
            photo: memory.photo.map { "/v1/photos/\($0.original)" } ?? "", hasPhoto: memory.photo != nil)
    }

    func share(_ caller: Caller, memory id: String) async throws -> (SharePage, Chrome)? {
        let memory: Memory
        do {
            memory = try await services.memories.memory(id, of: caller.user)
        } catch let error as ServiceError where error.kind == .notFound {
            return nil
        }
        let chrome = try await layout(
            caller, "memories", title: L("memories.sharePage.title", ["title": memory.title]))
        let escaped = memoryCard(memory).escapedID
        let formats = ShareCardFormat.allCases.map { format in
            let base = "/v1/memories/\(escaped)/share-card?format=\(format.rawValue)"
            let name = Self.formatName(format)
            return SharePage.Format(
                name: name, alt: L("memories.sharePage.preview", ["format": name]), format: format.rawValue,
                size: "\(format.width) × \(format.height)", width: format.width, height: format.height,
                svg: base + "&type=svg", png: base + "&type=png",
                file: memory.unlockID.replacingOccurrences(of: "#", with: "-") + "-\(format.rawValue)")
        }
        return (SharePage(formats: formats), chrome)
    }

    // MARK: Journey and profile

    func journey(_ caller: Caller) async throws -> (JourneyPage, Chrome) {
        let journey = try await services.dashboard.journey(caller.user)
        let (progression, unlocks, analytics, zone) = (
            journey.progression, journey.unlocks, journey.analytics, journey.zone
        )
        let table = ZoneOffsetTable.named(zone) ?? ZoneOffsetTable.named("UTC")!
        let chrome = try await layout(caller, "journey", title: L("journey.title"))
        let timelines = progression.timelines.keys.sorted().map { method in
            let items = progression.timelines[method] ?? []
            return JourneyPage.Timeline(
                method: items.first?.methodName ?? method,
                items: items.map {
                    JourneyPage.Timeline.Item(
                        stage: $0.toStage.name, stageOf: Self.stageOf($0.stageNumber, $0.stageCount),
                        kind: Self.kindName($0.kind), day: Self.longDate($0.advance.at, zone: table),
                        note: $0.advance.note ?? "")
                })
        }
        var months: [(String, [Unlock])] = []
        for unlock in unlocks.sorted(by: { $0.achievedAt > $1.achievedAt }) {
            let month = Self.monthName(unlock.achievedDay)
            if months.last?.0 == month {
                months[months.count - 1].1.append(unlock)
            } else {
                months.append((month, [unlock]))
            }
        }
        // Cards and full-screen milestones by name; a month's small steps (tier 1: "5 days
        // in a row outside", each day) counted in one line instead of filling the page.
        let monthViews = months.map { month, unlocks in
            let small = unlocks.filter { $0.tier < .notable }
            return JourneyPage.Month(
                month: month,
                unlocks: unlocks.filter { $0.tier >= .notable }.map {
                    JourneyPage.Month.Unlock(
                        badge: $0.badge ?? "🏅", title: $0.title, day: Self.longDay($0.achievedDay),
                        tier: $0.tier.rawValue, unlock: $0.id,
                        postLabel: L("journey.postLabel", ["title": $0.title]))
                },
                smallSteps: small.first.map {
                    Wording.current.count("journey.smallSteps", small.count, ["title": $0.title])
                })
        }
        let milestones = try await milestoneSection(caller)
        let page = JourneyPage(
            timelines: timelines, noProgression: progression.timelines.isEmpty,
            methodsPracticed: progression.statistics.methodsPracticed,
            totalAdvances: progression.statistics.totalAdvances, regressions: progression.statistics.regressions,
            months: monthViews, achievements: unlocks.count, consistency: analytics.consistency.score ?? 0,
            totalDays: analytics.profile.totalDaysCompleted, totalMilestones: analytics.profile.totalMilestones,
            bestStreaks: analytics.profile.bestStreaks.map { JourneyPage.BestStreak(name: $0.name, best: $0.best) },
            hasBestStreaks: !analytics.profile.bestStreaks.isEmpty,
            // Seed 004 R9.3: habits ranked on one scale, weighted by difficulty.
            comparison: analytics.comparison.map {
                JourneyPage.Ranked(
                    rank: $0.rank, name: $0.name, difficulty: Self.difficultyName($0.difficulty),
                    raw: Int($0.raw.rounded()), adjusted: Int($0.adjusted.rounded()),
                    normalized: Int($0.normalized.rounded()))
            },
            hasComparison: analytics.comparison.count > 1,
            milestones: milestones.items, hasMilestones: !milestones.items.isEmpty,
            milestoneHabits: milestones.habits, milestoneKinds: milestones.kinds,
            hasMilestoneHabits: !milestones.habits.isEmpty, hasMilestoneKinds: !milestones.kinds.isEmpty,
            milestoneLimit: EventLimits.maximumCustomMilestones)
        return (page, chrome)
    }

    /// The name of one of the bundled packs' memory categories, capitalized ("Potty");
    /// `nil` for another pack's.
    static func categoryName(_ category: String) -> String? {
        switch category {
        case "commands": L("memories.category.commands")
        case "consistency": L("memories.category.consistency")
        case "custom": L("memories.category.custom")
        case "growth": L("memories.category.growth")
        case "health": L("memories.category.health")
        case "lifestyle": L("memories.category.lifestyle")
        case "potty": L("memories.category.potty")
        case "savings": L("memories.category.savings")
        case "socialization": L("memories.category.socialization")
        case "streaks": L("memories.category.streaks")
        case "time": L("memories.category.time")
        default: nil
        }
    }

    /// A share card format's name ("Square", "Story", "Landscape").
    static func formatName(_ format: ShareCardFormat) -> String {
        switch format {
        case .square: L("memories.sharePage.format.square")
        case .story: L("memories.sharePage.format.story")
        case .landscape: L("memories.sharePage.format.landscape")
        }
    }

    /// A habit's difficulty as the comparison table names it.
    static func difficultyName(_ difficulty: Difficulty) -> String {
        switch difficulty {
        case .easy: L("journey.difficulty.easy")
        case .medium: L("journey.difficulty.medium")
        case .hard: L("journey.difficulty.hard")
        }
    }
}
