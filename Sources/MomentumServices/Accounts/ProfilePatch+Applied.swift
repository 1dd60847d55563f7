import MomentumAPI
import MomentumCore
import MomentumStore

extension ProfilePatch {
    /// The profile with this change made (`updatedAt` is the caller's to set). The display
    /// name is trimmed; nothing is validated here (``Accounts/validate(_:)`` does that).
    public func applied(to profile: Profile) -> Profile {
        var changed = profile
        if let displayName { changed.displayName = displayName.trimmingCharacters(in: .whitespaces) }
        if let timeZone { changed.timeZone = timeZone }
        if let dayStartHour { changed.dayStartHour = dayStartHour }
        if let pack { changed.pack = Profile.canonicalPack(pack) }
        if let celebrationStyle { changed.preferences.style = celebrationStyle }
        if let reduceMotion { changed.preferences.accessibility.reduceMotion = reduceMotion }
        if let doNotDisturb { changed.preferences.doNotDisturb = doNotDisturb }
        if let notifications { changed.notifications = notifications.applied(to: changed.notifications) }
        if let language { changed.language = language }
        return changed
    }
}
