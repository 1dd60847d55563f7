/// A value from a set the API may grow: one this version knows, or one a newer server sends.
///
/// Answers may carry enumeration values that did not exist when an app was built
/// (docs/api-versioning.md): a new notification kind, a new family role. The generated types
/// read such a value as a pair (`value1` the known case, `value2` the text); ``OpenEnum/value``
/// gives it to an app as this enumeration, which a `switch` must handle in full, so a new
/// value reaches the `unknown` branch instead of failing the whole answer.
public enum OpenValue<Known>: Hashable, Sendable
where Known: RawRepresentable & Hashable & Sendable, Known.RawValue == String {
    /// A value this version of the API knows.
    case known(Known)
    /// A value this version does not know, as the server sent it: show it as text, or
    /// ignore it; never treat it as an error.
    case unknown(String)

    /// The value as it travels on the wire.
    public var rawValue: String {
        switch self {
        case .known(let value): value.rawValue
        case .unknown(let value): value
        }
    }

    /// The known value, or `nil` when a newer server sent one this version does not know.
    public var known: Known? {
        if case .known(let value) = self { value } else { nil }
    }
}

/// A generated answer value whose known values can grow: `anyOf` a known-values enumeration
/// and any string, as openapi.json spells an open enumeration.
public protocol OpenEnum: Sendable {
    /// The values this version of the API knows.
    associatedtype Known: RawRepresentable & Hashable & Sendable where Known.RawValue == String
    /// The known value, when the text is one.
    var value1: Known? { get }
    /// The text as sent.
    var value2: String? { get }
    /// Makes the value from a known one (what a server or a test writes).
    init(value1: Known?, value2: String?)
}

extension OpenEnum {
    /// The value: known, or unknown with its text.
    public var value: OpenValue<Known> {
        if let known = value1 { return .known(known) }
        return .unknown(value2 ?? "")
    }

    /// The known value, or `nil` when a newer server sent one this version does not know.
    public var known: Known? { value1 }

    /// A value this version knows, as both alternatives read it.
    public init(_ known: Known) { self.init(value1: known, value2: known.rawValue) }

    /// Any value, known or not (what a newer server would send).
    public init(rawValue: String) { self.init(value1: Known(rawValue: rawValue), value2: rawValue) }
}

// Every open enumeration of openapi.json's answers (OpenEnumTests checks none is missing).
extension Components.Schemas.CelebrationConfig.ParticlesPayload.IntensityPayload: OpenEnum {}
extension Components.Schemas.CelebrationConfig.ParticlesPayload._TypePayload: OpenEnum {}
extension Components.Schemas.CelebrationConfig.SoundPayload: OpenEnum {}
extension Components.Schemas.EventResult.StatusPayload: OpenEnum {}
extension Components.Schemas.Family.RolePayload: OpenEnum {}
extension Components.Schemas.FamilyDetail.RolePayload: OpenEnum {}
extension Components.Schemas.FamilyMember.RolePayload: OpenEnum {}
extension Components.Schemas.FeedItem.MinePayload: OpenEnum {}
extension Components.Schemas.HabitDefinition.SchedulePayload.DaysPayloadPayload: OpenEnum {}
extension Components.Schemas.HabitDefinition.SchedulePayload.KindPayload: OpenEnum {}
extension Components.Schemas.HabitDefinition.WeekStartPayload: OpenEnum {}
extension Components.Schemas.HabitImportReport.SourcePayload: OpenEnum {}
extension Components.Schemas.Invitation.KindPayload: OpenEnum {}
extension Components.Schemas.Invitation.RolePayload: OpenEnum {}
extension Components.Schemas.Invitation.StatePayload: OpenEnum {}
extension Components.Schemas.InvitationAccepted.KindPayload: OpenEnum {}
extension Components.Schemas.InvitationPreview.KindPayload: OpenEnum {}
extension Components.Schemas.InvitationPreview.RolePayload: OpenEnum {}
extension Components.Schemas.LogField.FromPayload: OpenEnum {}
extension Components.Schemas.LogField.InputPayload: OpenEnum {}
extension Components.Schemas.LogForm._TypePayload: OpenEnum {}
extension Components.Schemas.Membership.RolePayload: OpenEnum {}
extension Components.Schemas.Milestone.RulePayload: OpenEnum {}
extension Components.Schemas.Notification.KindPayload: OpenEnum {}
extension Components.Schemas.NotificationPreferences.ChannelsPayload.ApnsPayload.KindsPayloadPayload: OpenEnum {}
extension Components.Schemas.NotificationPreferences.ChannelsPayload.FcmPayload.KindsPayloadPayload: OpenEnum {}
extension Components.Schemas.NotificationPreferences.ChannelsPayload.WebPushPayload.KindsPayloadPayload: OpenEnum {}
extension Components.Schemas.NotificationPreferences.ChannelsPayload.WebhookPayload.KindsPayloadPayload: OpenEnum {}
extension Components.Schemas.NotificationPreferences.WeeklyDayPayload: OpenEnum {}
extension Components.Schemas.PostReaction.ReactionPayload: OpenEnum {}
extension Components.Schemas.PushTarget.ChannelPayload: OpenEnum {}
extension Components.Schemas.PushTarget.EnvironmentPayload: OpenEnum {}
extension Components.Schemas.Webhook.EventsPayloadPayload: OpenEnum {}
extension Components.Schemas.Webhook.KindsPayloadPayload: OpenEnum {}
extension Components.Schemas.Webhook.StatusPayload: OpenEnum {}
extension Components.Schemas.WebhookDelivery.QueuePayload: OpenEnum {}
extension Components.Schemas.WebhookEvent._TypePayload: OpenEnum {}
