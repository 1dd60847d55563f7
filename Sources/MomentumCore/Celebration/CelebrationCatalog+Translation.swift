extension CelebrationCatalog {
    /// The catalog in another language: each theme's message translated
    /// (`celebration.category.<category>.message`, `celebration.milestone.<tier>.message`,
    /// `celebration.fallback.message`), and the default announcement
    /// (`celebration.defaultAnnouncement`). Everything else (particles, colours, timing) is
    /// the same in every language.
    ///
    /// Translate an English catalog, such as ``standard``: a text the language lacks keeps
    /// the catalog's own.
    ///
    /// - Parameter translation: The language.
    /// - Returns: The translated catalog.
    public func translated(_ translation: Translation) -> CelebrationCatalog {
        translation == .english ? self : mapTexts { translation.text($0, default: $1) }
    }

    /// The catalog with every message and the default announcement replaced.
    ///
    /// - Parameter transform: The new text, from its key and its current text.
    func mapTexts(_ transform: (_ key: String, _ text: String) -> String) -> CelebrationCatalog {
        var catalog = self
        for category in categories.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let message = categories[category]?.message {
                catalog.categories[category]?.message = transform(
                    "celebration.category.\(category.rawValue).message", message)
            }
        }
        for milestone in MilestoneTier.allCases {
            if let message = milestones[milestone]?.message {
                catalog.milestones[milestone]?.message = transform(
                    "celebration.milestone.\(milestone.rawValue).message", message)
            }
        }
        if let message = fallback.message {
            catalog.fallback.message = transform("celebration.fallback.message", message)
        }
        catalog.defaultAnnouncement = transform("celebration.defaultAnnouncement", defaultAnnouncement)
        return catalog
    }
}
