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
    func packPage(_ caller: Caller, pack name: String) async throws -> [String: Any]? {
        let journal = try await services.dashboard.journal(caller.user, recent: 15)
        guard let member = journal.pack.members.first(where: { $0.name == name }), !member.forms.isEmpty else {
            return nil
        }
        let title = Self.title(of: member, journal)
        var page = try await chrome(caller, "packs/\(name)", title: title)
        page["section"] = section(member, journal, whole: true)
        // The subject's family (the puppy's caregivers) on its profile.
        if let subject = Self.subject(for: member, journal),
            var family = try await familyOfSubject(caller, subject: subject.id)
        {
            for index in family.others.indices {
                family.others[index].roleName = Self.roleName(family.others[index].role)
            }
            page["family"] = family
        }
        return page
    }

    /// Today's section of each pack with forms that the user tracks: its one-tap forms and
    /// what matters today.
    func packSections(_ journal: JournalPage) -> [[String: Any]] {
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

    func section(_ pack: RulePack, _ journal: JournalPage, whole: Bool) -> [String: Any] {
        let kinds = Set(pack.forms.compactMap(\.kind))
        var section: [String: Any] = [
            "name": pack.name, "title": Self.title(of: pack, journal), "icon": pack.icon ?? "",
            "href": "/packs/\(pack.name)", "whole": whole,
            "forms": Self.ordered(pack.forms.filter { whole || $0.today }, journal).map {
                form($0, pack, journal, whole: whole)
            },
        ]
        // The subject's card: who the journal is about, and how old.
        if let subject = Self.subject(for: pack, journal) {
            var card: [String: Any] = [
                "id": subject.id, "name": subject.name, "emblem": pack.icon ?? "📷",
                "hasPhoto": subject.photo != nil, "photo": subject.photo.map { "/v1/photos/\($0)" } ?? "",
            ]
            if let born = subject.dates["born"] {
                card["age"] = L("packs.subject.age", ["age": Self.age(from: born, to: journal.today)])
                card["born"] = Self.longDay(born)
            }
            if let gotcha = subject.dates["gotcha"] {
                card["gotcha"] = L("packs.subject.homeSince", ["day": Self.longDay(gotcha)])
            }
            card["addPhoto"] = L("packs.subject.addPhoto", ["name": subject.name])
            card["removePhotoLabel"] = L("packs.subject.removePhotoLabel", ["name": subject.name])
            card["shareWithFamily"] = L("packs.subject.shareWithFamily", ["name": subject.name])
            section["subject"] = card
        } else if pack.forms.contains(where: { $0.type == "subject" }) {
            section["noSubject"] = true
        }
        // Streaks of logged activities, named by the form that logs them.
        section["streaks"] = journal.journal.streaks.filter { kinds.contains($0.kind) }.map { streak -> [String: Any] in
            let form = pack.forms.first { $0.kind == streak.kind && $0.values.isEmpty }
            let option = form?.fields.flatMap(\.options).first { $0.value == streak.item }
            let label = [form?.title, option?.label].compactMap { $0 }.joined(separator: ": ")
            return [
                "label": label.isEmpty ? streak.kind : label, "icon": option?.icon ?? form?.icon ?? "🔥",
                "current": Self.integer(streak.current),
                "best": L("packs.streak.best", ["best": Self.integer(streak.best)]),
                "days": Wording.current.count("packs.streak.inARow", streak.current),
            ]
        }
        if whole { section["stats"] = stats(pack, journal) }
        section["hasStreaks"] = !(section["streaks"] as? [Any] ?? []).isEmpty
        if pack.forms.contains(where: { $0.type == "goal" }) {
            section["goals"] = goals(pack, journal)
            section["hasGoals"] = !journal.journal.goals.isEmpty
            section["noGoals"] = journal.journal.goals.isEmpty
            section["ladder"] = ladder(pack, journal.journal.totalSaved)
            section["totalSaved"] = Self.money(journal.journal.totalSaved)
        }
        if !pack.methods.isEmpty { section["methods"] = methods(pack, journal, whole: whole) }
        if whole {
            section["recent"] = recent(pack, journal)
            let rules = Set(pack.achievements.map(\.id))
            section["badges"] = journal.unlocks.filter { rules.contains($0.rule) && $0.tier >= .notable }
                .sorted { $0.achievedAt > $1.achievedAt }.prefix(8).map {
                    [
                        "badge": $0.badge ?? "🏅", "title": $0.title, "day": Self.longDay($0.achievedDay),
                        "unlock": $0.id,
                        "postLabel": L("packs.postLabel", ["title": $0.title]),
                    ]
                }
            section["hasRecent"] = !(section["recent"] as? [Any] ?? []).isEmpty
            section["hasBadges"] = !(section["badges"] as? [Any] ?? []).isEmpty
        }
        section["hasStats"] = !(section["stats"] as? [Any] ?? []).isEmpty
        return Self.dropEmpty(section)
    }

    /// A template context without its empty strings: a template's `{{#hint}}` is true of
    /// any string, the empty one too. (`value` stays: an empty field is a value.)
    static func dropEmpty(_ context: [String: Any]) -> [String: Any] {
        context.filter { $0.key == "value" || ($0.value as? String)?.isEmpty != true }
    }
}
