import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

extension WebViews {
    // MARK: Notifications

    /// The in-app inbox: the newest notifications, unread ones marked.
    func notifications(_ caller: Caller, before: String?) async throws -> [String: Any] {
        let (state, profile) = try await services.dashboard.state(caller.user, calendarDays: 1)
        var page = chrome(
            "notifications", title: L("notifications.title"), wallet: state.wallet, profile: profile)
        let inbox = try await services.notifications.inbox(of: caller.user, before: before, limit: 50)
        let zone = ZoneOffsetTable.named(state.timeZone) ?? ZoneOffsetTable.named("UTC")!
        page["notifications"] = inbox.notifications.map { entry -> [String: Any] in
            let notification = entry.notification
            let local = entry.createdAt.addingTimeInterval(TimeInterval(zone.offset(at: entry.createdAt)))
            let minute = Int(local.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 60)
            let day = DayClock(dayStartHour: 0).localDay(of: entry.createdAt, in: zone)
            return [
                "key": notification.key, "title": notification.title, "body": notification.body,
                "url": notification.url, "kind": notification.kind.rawValue, "unread": entry.readAt == nil,
                "icon": Self.notificationIcon(notification.kind),
                "when": L(
                    "notifications.when",
                    ["day": Self.longDay(day), "time": NotificationPreferences.clock(max(0, min(1439, minute)))]),
            ]
        }
        page["noNotifications"] = inbox.notifications.isEmpty
        page["hasUnread"] = inbox.unread > 0
        page["next"] = inbox.next ?? ""
        return Self.dropEmpty(page)
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
