import Foundation
import Hummingbird
import MomentumAPI
import MomentumCore
import MomentumServices
import MomentumStore

/// What a client sends to mark notifications read; no `keys` marks all.
typealias NotificationsReadRequest = Components.Schemas.NotificationsRead

/// A notification of the inbox, as the API answers it.
struct NotificationView: Encodable {
    var key: String
    var kind: String
    var title: String
    var body: String
    var url: String
    var day: LocalDay
    var habit: String?
    var at: Date
    var expires: Date
    var createdAt: Date
    var readAt: Date?

    init(_ entry: InboxNotification) {
        let notification = entry.notification
        key = notification.key
        kind = notification.kind.rawValue
        title = notification.title
        body = notification.body
        url = notification.url
        day = notification.day
        habit = notification.habit
        at = notification.at
        expires = notification.expires
        createdAt = entry.createdAt
        readAt = entry.readAt
    }
}

/// A page of the inbox.
struct NotificationListView: Encodable {
    var notifications: [NotificationView]
    var unread: Int
    var next: String?
}

/// `/v1/notifications…`: the in-app inbox and marking it read (``Notifications``).
struct NotificationController: Sendable {
    let notifications: Notifications

    func addRoutes(to group: RouterGroup<MomentumContext>) {
        group.get("notifications", use: inbox)
        group.post("notifications/read", use: markRead)
    }

    /// `GET /v1/notifications`: a page of the caller's inbox, newest first, `limit` at a
    /// time, `before` a cursor of an earlier page.
    @Sendable func inbox(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let limit = try request.integer("limit", default: 30, in: 1...Notifications.maximumPage)
        let before = request.uri.queryParameters["before"].map(String.init)
        let page = try await notifications.inbox(of: caller.user, before: before, limit: limit)
        return try JSONIO.response(
            NotificationListView(
                notifications: page.notifications.map(NotificationView.init), unread: page.unread, next: page.next))
    }

    /// `POST /v1/notifications/read`: marks the given `keys` read (all without them) and
    /// answers how many stay unread.
    @Sendable func markRead(_ request: Request, context: MomentumContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await JSONIO.decode(
            NotificationsReadRequest.self, from: request, limit: 65_536, emptyIsObject: true)
        if let keys = body.keys, keys.count > 500 || keys.contains(where: { $0.count > 300 }) {
            throw APIError.invalid("at most 500 keys of at most 300 characters", field: "keys")
        }
        return try JSONIO.response(["unread": try await notifications.markRead(body.keys, caller: caller)])
    }
}
