import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The pages of the packs a user tracks (the puppy journal, savings, growth) and their
/// sections on Today, rendered from the packs' logging forms: a new pack with forms needs no
/// new page.
extension WebViews {
    /// The page of one of the user's packs (`/packs/ollie`); `nil` when they do not track it
    /// or it has no forms.
    func packPage(_ caller: Caller, pack name: String) async throws -> (PackPage, Chrome)? {
        let journal = try await services.dashboard.journal(caller.user, recent: 15)
        guard let member = journal.pack.members.first(where: { $0.name == name }), !member.forms.isEmpty else {
            return nil
        }
        let title = Self.title(of: member, journal)
        let chrome = try await layout(caller, "packs/\(name)", title: title)
        var page = PackPage(section: section(member, journal, whole: true))
        // The subject's family (the puppy's caregivers) on its profile.
        if let subject = Self.subject(for: member, journal),
            var family = try await familyOfSubject(caller, subject: subject.id)
        {
            for index in family.others.indices {
                family.others[index].roleName = Self.roleName(family.others[index].role)
            }
            page.section.family = family
        }
        return (page, chrome)
    }

    /// Today's section of each pack with forms that the user tracks: its one-tap forms and
    /// what matters today.
    func packSections(_ journal: JournalPage) -> [PackSection] {
        journal.pack.members.filter { !$0.forms.isEmpty }.map { section($0, journal, whole: false) }
    }

    /// The navigation entries of the user's packs with forms.
    static func packLinks(_ pack: RulePack) -> [(String, String)] {
        pack.members.filter { !$0.forms.isEmpty }.map { ("packs/\($0.name)", $0.title) }
    }

    /// A pack's title, named after the puppy when there is one ("Ollie's journal").
    static func title(of pack: RulePack, _ journal: JournalPage) -> String {
        if pack.forms.contains(where: { $0.type == "subject" }), let subject = subject(for: pack, journal) {
            return L("packs.journal", ["name": subject.name])
        }
        return pack.title
    }

    /// The subject a pack's subject form edits (the puppy); `nil` for a pack without one.
    static func subject(for pack: RulePack, _ journal: JournalPage) -> Subject? {
        let forms = pack.forms.filter { $0.type == "subject" }
        guard !forms.isEmpty else { return nil }
        let kinds = Set(forms.compactMap { $0.values["kind"] })
        return journal.subjects.first { kinds.isEmpty || kinds.contains($0.kind) }
    }

    func section(_ pack: RulePack, _ journal: JournalPage, whole: Bool) -> PackSection {
        let kinds = Set(pack.forms.compactMap(\.kind))
        // Streaks of logged activities, named by the form that logs them.
        let streaks = journal.journal.streaks.filter { kinds.contains($0.kind) }.map { streak in
            let form = pack.forms.first { $0.kind == streak.kind && $0.values.isEmpty }
            let option = form?.fields.flatMap(\.options).first { $0.value == streak.item }
            let label = [form?.title, option?.label].compactMap { $0 }.joined(separator: ": ")
            return PackSection.Streak(
                label: label.isEmpty ? streak.kind : label, icon: option?.icon ?? form?.icon ?? "🔥",
                current: Self.integer(streak.current),
                best: L("packs.streak.best", ["best": Self.integer(streak.best)]),
                days: Wording.current.count("packs.streak.inARow", streak.current))
        }
        let stats = whole ? stats(pack, journal) : nil
        var section = PackSection(
            name: pack.name.nonEmpty, title: Self.title(of: pack, journal).nonEmpty, icon: pack.icon?.nonEmpty,
            href: "/packs/\(pack.name)", whole: whole,
            forms: Self.ordered(pack.forms.filter { whole || $0.today }, journal).map {
                form($0, pack, journal, whole: whole)
            },
            streaks: streaks, hasStreaks: !streaks.isEmpty, stats: stats, hasStats: !(stats ?? []).isEmpty)
        // The subject's card: who the journal is about, and how old.
        if let subject = Self.subject(for: pack, journal) {
            section.subject = PackSection.Subject(
                id: subject.id, name: subject.name, emblem: pack.icon ?? "📷", hasPhoto: subject.photo != nil,
                photo: subject.photo.map { "/v1/photos/\($0)" } ?? "",
                age: subject.dates["born"].map {
                    L("packs.subject.age", ["age": Self.age(from: $0, to: journal.today)])
                },
                born: subject.dates["born"].map(Self.longDay),
                gotcha: subject.dates["gotcha"].map { L("packs.subject.homeSince", ["day": Self.longDay($0)]) },
                addPhoto: L("packs.subject.addPhoto", ["name": subject.name]),
                removePhotoLabel: L("packs.subject.removePhotoLabel", ["name": subject.name]),
                shareWithFamily: L("packs.subject.shareWithFamily", ["name": subject.name]))
        } else if pack.forms.contains(where: { $0.type == "subject" }) {
            section.noSubject = true
        }
        if pack.forms.contains(where: { $0.type == "goal" }) {
            section.goals = goals(pack, journal)
            section.hasGoals = !journal.journal.goals.isEmpty
            section.noGoals = journal.journal.goals.isEmpty
            section.ladder = ladder(pack, journal.journal.totalSaved)
            section.totalSaved = Self.money(journal.journal.totalSaved).nonEmpty
        }
        if !pack.methods.isEmpty { section.methods = methods(pack, journal, whole: whole) }
        if whole {
            let recent = recent(pack, journal)
            let rules = Set(pack.achievements.map(\.id))
            let badges = journal.unlocks.filter { rules.contains($0.rule) && $0.tier >= .notable }
                .sorted { $0.achievedAt > $1.achievedAt }.prefix(8).map {
                    PackSection.Badge(
                        badge: $0.badge ?? "🏅", title: $0.title, day: Self.longDay($0.achievedDay), unlock: $0.id,
                        postLabel: L("packs.postLabel", ["title": $0.title]))
                }
            section.recent = recent
            section.badges = badges
            section.hasRecent = !recent.isEmpty
            section.hasBadges = !badges.isEmpty
        }
        return section
    }
}
