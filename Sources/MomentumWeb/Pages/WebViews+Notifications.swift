import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

extension WebViews {
    // MARK: Notifications

    /// The in-app inbox: the newest notifications, unread ones marked.
    func notifications(_ caller: Caller, before: String?) async throws -> (NotificationsPage, Chrome) {
        let (state, profile) = try await services.dashboard.state(caller.user, calendarDays: 1)
        let chrome = layout(
            "notifications", title: L("notifications.title"), wallet: state.wallet, profile: profile)
        let inbox = try await services.notifications.inbox(of: caller.user, before: before, limit: 50)
        let zone = ZoneOffsetTable.named(state.timeZone) ?? ZoneOffsetTable.named("UTC")!
        let entries = inbox.notifications.map { entry in
            let notification = entry.notification
            let local = entry.createdAt.addingTimeInterval(TimeInterval(zone.offset(at: entry.createdAt)))
            let minute = Int(local.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 60)
            let day = DayClock(dayStartHour: 0).localDay(of: entry.createdAt, in: zone)
            return NotificationsPage.Entry(
                key: notification.key, title: notification.title, body: notification.body,
                url: notification.url, kind: notification.kind.rawValue, unread: entry.readAt == nil,
                icon: Self.notificationIcon(notification.kind),
                when: L(
                    "notifications.when",
                    ["day": Self.longDay(day), "time": NotificationPreferences.clock(max(0, min(1439, minute)))]))
        }
        let page = NotificationsPage(
            notifications: entries, noNotifications: inbox.notifications.isEmpty,
            next: inbox.next.flatMap { $0.isEmpty ? nil : $0 })
        return (page, chrome)
    }

    /// Each kind's emblem in the inbox.
    static func notificationIcon(_ kind: NotificationKind) -> String {
        switch kind {
        case .streakAtRisk: "⏳"
        case .reminder: "⏰"
        case .milestone: "🏆"
        case .streakBroken: "🌱"
        case .weeklyProgress: "📈"
        case .freezeOffered: "🧊"
        case .freezeUsed: "❄️"
        case .reaction: "🎉"
        case .nudge: "👋"
        case .friend: "🤝"
        }
    }
}
