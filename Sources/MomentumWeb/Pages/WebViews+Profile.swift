import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

extension WebViews {
    /// The wording key that names a registered device by its channel (a browser otherwise).
    static let deviceKind: [NotificationChannel: String] = [.apns: "profile.push.apple", .fcm: "profile.push.android"]

    func profile(_ caller: Caller) async throws -> (ProfilePage, Chrome) {
        let profile = try await services.accounts.profile(of: caller.user)
        let chrome = try await layout(caller, "profile", title: L("profile.title"))
        let stats = try await services.dashboard.stats(caller.user)
        let notifications = profile.notifications
        let settings = ProfilePage.Settings(
            displayName: profile.displayName, reduceMotion: profile.preferences.accessibility.reduceMotion,
            doNotDisturb: profile.preferences.doNotDisturb, reminders: notifications.reminders,
            celebrations: notifications.celebrations, weeklySummary: notifications.weeklySummary,
            streakAtRisk: notifications.streakAtRisk, streakBroken: notifications.streakBroken,
            freezes: notifications.freezes, packs: profile.packs.joined(separator: "+"),
            quiet: notifications.quietHours != nil,
            quietFrom: NotificationPreferences.clock(notifications.quietHours?.from ?? 22 * 60),
            quietTo: NotificationPreferences.clock(notifications.quietHours?.to ?? 7 * 60),
            dailyCap: notifications.dailyCap.map(String.init) ?? "", languageValue: profile.language ?? "")
        let zone = ZoneOffsetTable.named(profile.timeZone) ?? ZoneOffsetTable.named("UTC")!
        let day = { (instant: Date) in Self.longDay(DayClock(dayStartHour: 0).localDay(of: instant, in: zone)) }
        let pushTargets = try await services.pushTargets.targets(of: caller.user).map { target in
            let view = PushTargetView(target)
            return ProfilePage.PushTarget(
                id: view.id, label: view.label,
                channel: L(Self.deviceKind[target.channel] ?? "profile.push.browser"),
                created: day(target.createdAt))
        }
        let devices = try await services.accounts.devices(of: caller.user).map { session in
            ProfilePage.Device(
                id: Tokens.deviceID(session.tokenHash), name: session.deviceName,
                current: session.tokenHash == caller.tokenHash, created: day(session.createdAt),
                lastSeen: day(session.lastSeenAt))
        }
        let account = try await services.accounts.account(of: caller.user)
        let page = ProfilePage(
            email: account.email, hasPassword: account.passwordHash != nil,
            profile: settings,
            languages: [
                .init(value: "", label: L("profile.preferences.languageAutomatic"), selected: profile.language == nil)
            ]
                + Wording.languages.map {
                    .init(value: $0, label: Wording.all[$0]?.name ?? $0, selected: $0 == profile.language)
                },
            pushTargets: pushTargets, hasPushTargets: !pushTargets.isEmpty,
            reminderHours: [
                .init(
                    value: "", label: L("profile.notifications.whenUsual"), selected: notifications.reminderHour == nil)
            ]
                + (0..<24).map {
                    .init(
                        value: "\($0)", label: NotificationPreferences.clock($0 * 60),
                        selected: $0 == notifications.reminderHour)
                },
            weeklyDays: Weekday.allCases.map {
                .init(value: $0.name, label: Self.weekdayName($0), selected: $0 == notifications.weeklyDay)
            },
            weeklyHours: (0..<24).map {
                .init(
                    value: $0, label: NotificationPreferences.clock($0 * 60), selected: $0 == notifications.weeklyHour)
            },
            styles: CelebrationStyle.allCases.map {
                .init(value: $0.rawValue, label: Self.styleName($0), selected: $0 == profile.preferences.style)
            },
            devices: devices, zones: Self.zones(selected: profile.timeZone),
            packChoices: Self.packChoices(checked: profile.packs),
            hours: (0..<24).map { ProfilePage.Hour(value: $0, selected: $0 == profile.dayStartHour) },
            stats: ProfilePage.Stats(
                habitsActive: stats.statistics.habitsActive, totalDays: stats.statistics.totalDaysCompleted,
                milestones: stats.statistics.totalMilestones, consistency: stats.consistency.score ?? 0,
                strength: stats.statistics.averageStrength ?? 0, events: stats.events))
        return (page, chrome)
    }

    /// The bundled packs as the sign-up and profile forms offer them.
    static func packChoices(checked: [String]) -> [PackChoice] {
        let hints = [
            "habits": L("profile.packHints.habits"), "ollie": L("profile.packHints.ollie"),
            "savings": L("profile.packHints.savings"), "growth": L("profile.packHints.growth"),
        ]
        let translation = Translation.named(Wording.current.language) ?? .english
        return RulePack.bundledOrder.compactMap { name in
            guard let pack = RulePack.bundled[name]?.translated(translation) else { return nil }
            return PackChoice(
                value: name, label: pack.title, icon: pack.icon ?? "", hint: hints[name] ?? "",
                checked: checked.contains(name))
        }
    }

    /// A weekday's name in the page's language ("Monday").
    static func weekdayName(_ day: Weekday) -> String {
        switch day {
        case .monday: L("profile.weekdays.monday")
        case .tuesday: L("profile.weekdays.tuesday")
        case .wednesday: L("profile.weekdays.wednesday")
        case .thursday: L("profile.weekdays.thursday")
        case .friday: L("profile.weekdays.friday")
        case .saturday: L("profile.weekdays.saturday")
        case .sunday: L("profile.weekdays.sunday")
        }
    }

    /// A celebration style's name in the page's language ("Subtle").
    static func styleName(_ style: CelebrationStyle) -> String {
        switch style {
        case .full: L("profile.styles.full")
        case .subtle: L("profile.styles.subtle")
        case .minimal: L("profile.styles.minimal")
        case .off: L("profile.styles.off")
        }
    }

    /// Every IANA zone the server knows, with one selected.
    static func zones(selected: String) -> [ZoneOption] {
        var names = TimeZone.knownTimeZoneIdentifiers.sorted()
        if !names.contains(selected) { names.insert(selected, at: 0) }
        return names.map { ZoneOption(name: $0, selected: $0 == selected) }
    }
}
