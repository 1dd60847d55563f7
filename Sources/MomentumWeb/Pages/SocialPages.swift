import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The web app's social pages: friends and invitations, a friend's profile, the feed,
/// an invitation as its invitee opens it, and a subject's family. Each reads through the
/// ``Social`` and ``Families`` use cases, as the JSON routes do.
extension WebViews {
    /// `/friends`: invitations, friends, what the user shares, and whom they blocked.
    func friends(_ caller: Caller) async throws -> (FriendsPage, Chrome) {
        let social = services.social
        let chrome = try await layout(caller, "friends", title: L("social.friends.title"))
        let now = configuration.clock()
        let friends = try await social.friends(caller: caller)
        let open = try await social.invitations(caller: caller).filter { $0.state == "pending" && $0.kind == "friend" }
        let sharing = try await social.sharing(caller: caller)
        let habits = Set(sharing.habits)
        let categories = Set(sharing.categories)
        let blocked = try await social.blocks(caller: caller)
        let families = try await services.families.list(caller: caller).filter { $0.role != "owner" }
        let page = FriendsPage(
            friends: friends.map {
                FriendsPage.Person(id: $0.user, name: $0.displayName, since: Self.longDay(Self.day($0.since)))
            },
            noFriends: friends.isEmpty,
            invitations: open.map {
                FriendsPage.Invitation(
                    code: $0.code, link: $0.link,
                    expires: L("social.expires", ["when": Self.relative($0.expiresAt, now: now)]))
            },
            hasInvitations: !open.isEmpty,
            shareHabits: sharing.available.habits.map {
                FriendsPage.Shareable(id: $0.id, name: $0.name, checked: habits.contains($0.id))
            },
            shareCategories: sharing.available.categories.map {
                FriendsPage.Shareable(id: $0, name: Self.categoryLabel($0), checked: categories.contains($0))
            },
            noHabitsToShare: sharing.available.habits.isEmpty,
            blocked: blocked.map {
                FriendsPage.Person(
                    id: $0.user, name: $0.displayName.isEmpty ? L("social.friends.someone") : $0.displayName)
            },
            hasBlocked: !blocked.isEmpty,
            families: families.map {
                FriendsPage.Family(
                    owner: $0.owner, subject: $0.subject, subjectName: $0.subjectName,
                    line: L("social.friends.familyLine", ["owner": $0.ownerName, "role": Self.roleLabel($0.role)]))
            },
            hasFamilies: !families.isEmpty)
        return (page, chrome)
    }

    /// `/friends/{id}`: a friend's shared streaks, achievements and posts; `nil` for
    /// someone who is not a friend.
    func friend(_ caller: Caller, id: String) async throws -> (FriendPage, Chrome)? {
        let profile: FriendProfile
        do {
            profile = try await services.social.profile(of: id, caller: caller)
        } catch let error as ServiceError where error.kind == .notFound {
            return nil
        }
        let chrome = try await layout(caller, "friends", title: profile.displayName)
        let page = FriendPage(
            friend: FriendPage.Friend(
                id: profile.user, name: profile.displayName, since: Self.longDay(Self.day(profile.since)),
                noStreaks: L("social.friend.noStreaks", ["name": profile.displayName]),
                cheer: L("social.friend.cheer", ["name": profile.displayName])),
            habits: profile.habits.map {
                FriendPage.Habit(
                    name: $0.name, current: $0.current, best: $0.best, streak: Self.streak($0.current, unit: $0.unit),
                    doneToday: $0.doneToday, atRisk: $0.atRisk)
            },
            noHabits: profile.habits.isEmpty,
            canNudge: profile.habits.contains(where: \.atRisk),
            achievements: profile.achievements.prefix(20).map {
                FriendPage.Unlock(badge: $0.badge ?? "🏅", title: $0.title, day: Self.longDay($0.achievedDay))
            },
            hasAchievements: !profile.achievements.isEmpty,
            posts: profile.posts.map { post in
                FriendPage.Unlock(
                    badge: post.unlock.badge ?? "🏅", title: post.unlock.title,
                    day: Self.longDay(post.unlock.achievedDay))
            },
            hasPosts: !profile.posts.isEmpty)
        return (page, chrome)
    }

    /// `/feed`: friends' posts and the user's own, newest first, with reactions.
    func feed(_ caller: Caller, before: String?) async throws -> (FeedPage, Chrome) {
        let chrome = try await layout(caller, "feed", title: L("social.feed.title"))
        let feed = try await services.social.feed(caller: caller, before: before, limit: 20)
        let now = configuration.clock()
        let items = feed.items.map { item in
            let post = item.post
            let own = post.owner == caller.user
            var detail = post.habitName.map { "\($0) · " } ?? ""
            if let subject = post.subjectName { detail = "\(subject) · " }
            return FeedPage.Item(
                owner: post.owner, post: post.id, own: own,
                author: own ? L("social.feed.you") : item.authorName,
                badge: post.unlock.badge ?? "🏅", title: post.unlock.title, tier: post.unlock.tier.rawValue,
                detail: detail + Self.longDay(post.unlock.achievedDay),
                when: Self.relative(item.addedAt, now: now),
                reactions: ReactionKind.allCases.map { kind in
                    let count = item.reactions[kind.rawValue] ?? 0
                    return FeedPage.Reaction(
                        kind: kind.rawValue, emoji: kind.emoji, count: count, hasCount: count > 0,
                        mine: item.mine == kind.rawValue, canReact: !own, label: Self.reactionLabel(kind))
                })
        }
        let page = FeedPage(
            items: items, noItems: feed.items.isEmpty && before == nil,
            next: feed.next.flatMap { $0.isEmpty ? nil : $0 })
        return (page, chrome)
    }

    /// `/invitations/{code}`: who invites, to what, with accept and decline.
    func invitation(_ caller: Caller, code: String) async throws -> (InvitationPage, Chrome) {
        let chrome = try await layout(caller, "friends", title: L("social.invitation.title"))
        do {
            let preview = try await services.social.preview(code: code, caller: caller)
            let subject = preview.subjectName ?? preview.subject ?? ""
            let invitation = InvitationPage.Invitation(
                code: preview.code, inviter: preview.inviterName, family: preview.kind == "family",
                subject: subject, role: preview.role.map(Self.roleLabel) ?? "",
                expires: L("social.expires", ["when": Self.relative(preview.expiresAt, now: configuration.clock())]),
                familyHeading: L(
                    "social.invitation.familyHeading", ["inviter": preview.inviterName, "subject": subject]),
                familyNote: L("social.invitation.familyNote", ["subject": subject]),
                friendHeading: L("social.invitation.friendHeading", ["inviter": preview.inviterName]))
            return (InvitationPage(invitation: invitation), chrome)
        } catch let error as ServiceError where error.kind == .notFound || error.kind.isTooMany {
            return (InvitationPage(unavailable: error.message), chrome)
        }
    }

    /// `/families/{owner}/{subject}`: a subject's family as one of its members sees it;
    /// `nil` when the user is not in it.
    func family(_ caller: Caller, owner: String, subject: String) async throws -> (FamilyPage, Chrome)? {
        let detail: FamilyDetail
        do {
            detail = try await services.families.detail(owner: owner, subject: subject, caller: caller)
        } catch let error as ServiceError where error.kind == .notFound {
            return nil
        }
        let chrome = try await layout(caller, "friends", title: detail.subject.name)
        let invitations =
            Families.manages(detail.role)
            ? try await services.families.invitations(owner: owner, subject: subject, caller: caller) : []
        let recent = detail.recent.map { entry in
            var what = entry.event.payload.type
            if case .activity(let activity) = entry.event.payload {
                what = [activity.kind, activity.item].compactMap { $0 }.joined(separator: " · ")
            }
            return FamilyPage.Entry(
                what: what, by: entry.loggedBy == caller.user ? L("social.family.byYou") : entry.loggedByName,
                when: Self.relative(entry.event.at, now: configuration.clock()))
        }
        let page = FamilyPage(
            family: familyCard(detail, caller: caller, invitations: invitations),
            logTitle: L("social.family.logFor", ["name": detail.subject.name]),
            achievements: detail.achievements.prefix(30).map {
                FamilyPage.Achievement(badge: $0.badge ?? "🏅", title: $0.title, day: Self.longDay($0.achievedDay))
            },
            hasAchievements: !detail.achievements.isEmpty,
            memories: detail.memories.prefix(12).map {
                FamilyPage.Memory(
                    title: $0.title, caption: $0.caption, day: Self.longDay($0.day),
                    photo: $0.photo?.shareCopy ?? $0.photo?.original ?? "", hasPhoto: $0.photo != nil,
                    familyOwner: owner, familySubject: subject)
            },
            hasMemories: !detail.memories.isEmpty,
            recent: recent, hasRecent: !detail.recent.isEmpty,
            canLog: detail.role != FamilyRole.viewer.rawValue,
            logKinds: try await logKinds(owner: owner))
        return (page, chrome)
    }

    /// The family card of a subject (its members, with invite and remove for those who
    /// manage it, and the open `invitations` they may withdraw), as the family page and the
    /// subject's pack page show it.
    func familyCard(
        _ detail: FamilyDetail, caller: Caller, invitations open: [InvitationView] = []
    ) -> FamilyCard {
        let manages = Families.manages(detail.role)
        let now = configuration.clock()
        return FamilyCard(
            invitations: open.map { invitation in
                let by = invitation.inviter == caller.user ? L("social.family.byYou") : invitation.inviterName ?? ""
                return FamilyCard.Invitation(
                    code: invitation.code, link: invitation.link,
                    line: L(
                        "social.family.invitationLine",
                        ["role": Self.roleLabel(invitation.role ?? ""), "by": by]),
                    expires: L("social.expires", ["when": Self.relative(invitation.expiresAt, now: now)]))
            },
            hasInvitations: !open.isEmpty,
            owner: detail.owner, subject: detail.subject.id, name: detail.subject.name,
            role: detail.role, manages: manages, isOwner: detail.owner == caller.user,
            heading: L("social.family.heading", ["name": detail.subject.name]),
            note: L("social.family.note", ["name": detail.subject.name]),
            members: detail.members.map { member in
                FamilyCard.Member(
                    id: member.user,
                    name: member.user == caller.user
                        ? L("social.family.you", ["name": member.displayName]) : member.displayName,
                    role: member.role, roleLabel: Self.roleLabel(member.role), isOwner: member.role == "owner",
                    removable: member.role != "owner" && (manages || member.user == caller.user),
                    leave: member.user == caller.user && member.role != "owner",
                    roles: FamilyRole.allCases.map {
                        FamilyCard.RoleChoice(
                            value: $0.rawValue, label: Self.roleLabel($0.rawValue), selected: $0.rawValue == member.role
                        )
                    },
                    canChange: manages && member.role != "owner")
            },
            roles: FamilyRole.allCases.map { FamilyCard.Role(value: $0.rawValue, label: Self.roleLabel($0.rawValue)) },
            hasMembers: detail.members.count > 1,
            others: detail.members.dropFirst().enumerated().map { index, member in
                FamilyCard.Other(name: member.displayName, role: member.role, last: index == detail.members.count - 2)
            })
    }

    /// The kinds a caregiver can log for the owner's subject: the owner's packs' `log` forms.
    private func logKinds(owner: String) async throws -> [FamilyPage.LogKind] {
        // The owner's pack speaks the owner's language; the page speaks the reader's.
        let pack = try await services.dashboard.pack(owner).translated(
            Translation.named(Wording.current.language) ?? .english)
        var seen = Set<String>()
        var kinds: [FamilyPage.LogKind] = []
        // One tap logs: forms whose every required field is a choice of buttons (a potty
        // break outside, a socialization item); what needs typing is logged in the owner's
        // app or through the API.
        for form in pack.forms where form.type == "log" {
            let typed = form.fields.contains { $0.required && $0.options.isEmpty }
            guard let kind = form.kind, !typed, seen.insert(kind).inserted else { continue }
            let items = form.fields.flatMap { field in
                field.options.map {
                    FamilyPage.LogKind.Item(field: field.name, value: $0.value, label: $0.label, icon: $0.icon ?? "")
                }
            }
            kinds.append(
                FamilyPage.LogKind(
                    kind: kind, title: form.title, icon: form.icon ?? "", items: items, hasItems: !items.isEmpty))
        }
        return kinds
    }

    /// The family of the pack page's subject, for its card (`nil` without a subject).
    func familyOfSubject(_ caller: Caller, subject: String) async throws -> FamilyCard? {
        guard let detail = try? await services.families.detail(owner: caller.user, subject: subject, caller: caller)
        else { return nil }
        return familyCard(detail, caller: caller)
    }

    static func reactionLabel(_ kind: ReactionKind) -> String {
        switch kind {
        case .clap: L("social.reactions.clap")
        case .fire: L("social.reactions.fire")
        case .party: L("social.reactions.party")
        case .strong: L("social.reactions.strong")
        case .heart: L("social.reactions.heart")
        }
    }

    /// A family role as a person reads it ("co-owner"); an unknown one as it is.
    static func roleLabel(_ role: String) -> String {
        switch role {
        case "owner": L("social.roles.owner")
        case FamilyRole.coOwner.rawValue: L("social.roles.coOwner")
        case FamilyRole.caregiver.rawValue: L("social.roles.caregiver")
        case FamilyRole.viewer.rawValue: L("social.roles.viewer")
        default: role
        }
    }

    /// An achievement category as a person reads it ("Socialization"); one no pack bundles
    /// is capitalized.
    static func categoryLabel(_ category: String) -> String {
        switch category {
        case "potty": L("social.categories.potty")
        case "commands": L("social.categories.commands")
        case "socialization": L("social.categories.socialization")
        case "health": L("social.categories.health")
        case "lifestyle": L("social.categories.lifestyle")
        case "time": L("social.categories.time")
        case "streaks": L("social.categories.streaks")
        case "savings": L("social.categories.savings")
        case "growth": L("social.categories.growth")
        case "consistency": L("social.categories.consistency")
        case "custom": L("social.categories.custom")
        case "generic": L("social.categories.generic")
        case "learning": L("social.categories.learning")
        case "care": L("social.categories.care")
        case "mindfulness": L("social.categories.mindfulness")
        case "vacation": L("social.categories.vacation")
        case "house": L("social.categories.house")
        case "wedding": L("social.categories.wedding")
        case "retirement": L("social.categories.retirement")
        case "education": L("social.categories.education")
        case "car": L("social.categories.car")
        case "investment": L("social.categories.investment")
        case "emergency": L("social.categories.emergency")
        case "other": L("social.categories.other")
        default: category.prefix(1).uppercased() + category.dropFirst()
        }
    }

    /// A streak's length in its unit ("12 days", "3 weeks").
    static func streak(_ count: Int, unit: String) -> String {
        let strings = Wording.current
        return switch unit {
        case "day": strings.count("social.units.day", count)
        case "week": strings.count("social.units.week", count)
        case "month": strings.count("social.units.month", count)
        case "year": strings.count("social.units.year", count)
        case "period": strings.count("social.units.period", count)
        default: "\(count) \(unit)\(count == 1 ? "" : "s")"
        }
    }

    /// An instant's local day in UTC (for "friends since").
    static func day(_ instant: Date) -> LocalDay {
        DayClock(dayStartHour: 0).localDay(of: instant, in: ZoneOffsetTable.named("UTC")!)
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago"; or ahead: "in 6 days".
    static func relative(_ instant: Date, now: Date) -> String {
        let seconds = Int(max(-3e9, min(3e9, instant.timeIntervalSince(now))))
        let span = abs(seconds)
        let text: String
        switch span {
        case ..<60: return L("social.relative.justNow")
        case ..<3_600: text = Wording.current.count("social.relative.minutes", span / 60)
        case ..<86_400: text = Wording.current.count("social.relative.hours", span / 3_600)
        default: text = Wording.current.count("social.relative.days", span / 86_400)
        }
        return seconds > 0 ? L("social.relative.ahead", ["time": text]) : L("social.relative.ago", ["time": text])
    }
}
