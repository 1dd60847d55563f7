extension RulePack {
    /// The title of an unlock in this pack's language: its achievement's title, filled from
    /// the unlock's context, with the names of methods and stages, numbers, amounts, ages and
    /// units in that language. For an unlock granted by an engine on the same pack, it is
    /// the unlock's own title.
    ///
    /// An unlock of an achievement the pack does not have, such as a milestone of the user's
    /// own, keeps its title, as the user wrote it.
    ///
    /// - Parameter unlock: An unlock granted by an engine on this pack in any language.
    /// - Returns: The title.
    public func title(for unlock: Unlock) -> String {
        retitled([unlock]).first?.title ?? unlock.title
    }

    /// Unlocks with their titles, and the method and stage names of their context, in this
    /// pack's language.
    func retitled(_ unlocks: [Unlock]) -> [Unlock] {
        let rules = Dictionary(achievements.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let methodsByID = Dictionary(methods.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return unlocks.map { unlock in
            guard !CustomMilestone.isCustom(unlock.rule), let rule = rules[unlock.rule] else { return unlock }
            var unlock = unlock
            if rule.kind == .stageReached {
                // A stage's unlock id is `<rule>#<method>#<stage>`.
                let parts = unlock.id.split(separator: "#", omittingEmptySubsequences: false).map(String.init)
                let methodID = rule.method ?? (parts.count >= 3 ? parts[parts.count - 2] : "")
                if let method = methodsByID[methodID] {
                    if unlock.context["method"] != nil { unlock.context["method"] = method.name }
                    if parts.count >= 3, let stage = method.stage(id: parts[parts.count - 1]) {
                        unlock.context["stage"] = stage.name
                    }
                }
            }
            unlock.title = AchievementEngine.fill(
                rule.title(for: unlock.value, plurals: translation.plurals),
                AchievementEngine.titleValues(
                    unlock.context, value: unlock.value, milestoneType: unlock.milestoneType, rule: rule,
                    translation: translation))
            return unlock
        }
    }
}
