extension ProgressionHistory {
    /// The celebration payload for a recorded advance (AC3, AC4).
    ///
    /// - Parameters:
    ///   - eventID: The id of the advance's event.
    ///   - name: The user's (or subject's) name, if known.
    ///   - recentTemplateIDs: The template ids of the affirmations already shown, oldest first.
    ///   - catalog: The messages to choose from.
    /// - Returns: The payload, or `nil` if no advance has that event id.
    public func celebration(
        forEvent eventID: String, name: String? = nil, recentTemplateIDs: [String] = [],
        catalog: AffirmationCatalog = .standard
    ) -> StageCelebration? {
        item(forEvent: eventID).map { catalog.celebration(for: $0, name: name, recentTemplateIDs: recentTemplateIDs) }
    }
}
