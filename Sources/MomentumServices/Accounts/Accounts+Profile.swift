import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

// The account and its profile: reading, changing and validating it.

extension Accounts {
    /// The user's account (its email, when it was made).
    ///
    /// - Throws: `.notFound` when the account is gone.
    public func account(of user: String) async throws -> Account {
        guard let account = try await store.account(id: user) else { throw ServiceError.notFound("account") }
        return account
    }

    /// The user's profile.
    ///
    /// - Throws: `.notFound` when the account is gone.
    public func profile(of user: String) async throws -> Profile {
        guard let profile = try await store.profile(of: user) else { throw ServiceError.notFound("profile") }
        return profile
    }

    /// Changes the fields of the profile a patch names, validates the result, stores it,
    /// and tells the user's other devices.
    public func updateProfile(_ patch: ProfilePatch, caller: Caller) async throws -> Profile {
        var profile = patch.applied(to: try await profile(of: caller.user))
        profile.updatedAt = now()
        try Self.validate(profile, packs: store.packLibrary)
        try await store.updateProfile(profile, for: caller.user)
        // Its zone, day start or notification preferences may move the next notification.
        try await notifications.touch(caller.user)
        changes.publish(
            Change(kind: "profile", device: Tokens.deviceID(caller.tokenHash), at: profile.updatedAt),
            to: caller.user)
        return profile
    }

    /// Whether `text` holds a control character (U+0000–U+001F, U+007F–U+009F): no email
    /// address does.
    public static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Validates a profile, naming the field at fault; its pack must be one of `packs`.
    public static func validate(_ profile: Profile, packs: PackLibrary = .bundled) throws {
        do {
            try profile.validate(in: packs)
        } catch {
            // The field at fault, and the issue beside it without the words that name it
            // ("display name must have …" → displayName: "must have …").
            let subjects = [
                ("display name ", "displayName"), ("time zone ", "timeZone"), ("day start hour ", "dayStartHour"),
                ("reminder hour ", "notifications.reminderHour"), ("weekly hour ", "notifications.weeklyHour"),
                ("language ", "language"),
            ]
            let (field, issue) =
                subjects.first { error.message.hasPrefix($0.0) }.map {
                    ($0.1, String(error.message.dropFirst($0.0.count)))
                }
                ?? (Self.notificationField(error.message) ?? "pack", error.message)
            throw ServiceError(
                .invalid, error.code == .unknownPack ? "unknown_pack" : "invalid_input", error.message,
                fields: [.init(field: field, issue: issue)])
        }
    }

    /// The notification preference a validation message is about, if one.
    public static func notificationField(_ message: String) -> String? {
        if message.contains("reminder time") { return "notifications.reminderTimes" }
        if message.contains("quiet hours") { return "notifications.quietHours" }
        if message.contains("daily cap") { return "notifications.dailyCap" }
        if message.contains("channel") || message.contains("inbox") { return "notifications.channels" }
        return nil
    }
}
