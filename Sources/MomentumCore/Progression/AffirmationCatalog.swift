import Foundation

/// The messages that celebrate progression, and how one is chosen for an advance (AC4).
///
/// Choosing is deterministic, so the phone and the server pick the same message:
/// 1. The occasion: ``AffirmationTemplate/Kind/finalStage`` for an advance to a method's
///    final stage, else ``AffirmationTemplate/Kind/fastAdvance`` for an advance after fewer
///    than ``fastAdvanceDays`` whole days at the previous stage, else the item's own kind
///    (start, advance or regression).
/// 2. The candidates: the occasion's templates whose placeholders all have values (see
///    ``AffirmationTemplate``). An occasion without any falls back to the advance templates.
/// 3. Variety: templates among the last ``recentLimit`` ids the user saw are removed. Of
///    those left, the one at index `FNV-1a(eventID) mod count` is chosen, in catalog order.
///    If every candidate was seen recently, the one seen longest ago is chosen instead.
///
/// Catalogs are data, so a rule pack can bring its own; ``standard`` has at least four
/// name-free templates per occasion, so with it no message repeats one of the last three.
public struct AffirmationCatalog: Hashable, Sendable, Codable {
    /// How many of the most recently used template ids are never repeated.
    public static let recentLimit = 3

    /// The templates, in the order the stable hash indexes them.
    public var templates: [AffirmationTemplate]
    /// Celebration titles per occasion, with the same placeholders; an occasion without one
    /// uses the advance title.
    public var titles: [AffirmationTemplate.Kind: String]
    /// An advance after fewer whole days than this at the previous stage is a fast advance.
    public var fastAdvanceDays: Int
    /// The language of the catalog's durations (`{duration}`) and last-resort message; set
    /// by ``translated(_:)``, English otherwise. Not encoded: a decoded catalog is English.
    public internal(set) var translation: Translation = .english

    /// Creates a catalog.
    ///
    /// - Parameters:
    ///   - templates: The templates, in the order the stable hash indexes them.
    ///   - titles: Celebration titles per occasion.
    ///   - fastAdvanceDays: The threshold, in whole days, below which an advance is fast.
    public init(
        templates: [AffirmationTemplate], titles: [AffirmationTemplate.Kind: String], fastAdvanceDays: Int = 7
    ) {
        self.templates = templates
        self.titles = titles
        self.fastAdvanceDays = fastAdvanceDays
    }

    private enum CodingKeys: String, CodingKey {
        case templates, titles, fastAdvanceDays
    }

    /// The occasion of an item: final stage, fast advance, or the item's own kind.
    public func occasion(of item: ProgressionTimelineItem) -> AffirmationTemplate.Kind {
        switch item.kind {
        case .start: return .start
        case .regression: return .regression
        case .advance:
            if item.isFinalStage { return .finalStage }
            return isFast(item) ? .fastAdvance : .advance
        }
    }

    /// Whether an item is an advance after fewer than ``fastAdvanceDays`` whole days at the previous stage.
    public func isFast(_ item: ProgressionTimelineItem) -> Bool {
        guard item.kind == .advance, let time = item.timeAtPreviousStage else { return false }
        return time.wholeDays < fastAdvanceDays
    }

    /// The affirmation for an item, chosen by the rules in the type's documentation.
    ///
    /// - Parameters:
    ///   - item: The start, advance or regression to celebrate.
    ///   - name: The user's (or subject's) name; `nil` or blank leaves out templates using `{name}`.
    ///   - recentTemplateIDs: The template ids of the affirmations already shown, oldest
    ///     first; the last ``recentLimit`` are not repeated.
    /// - Returns: The rendered affirmation.
    public func affirmation(
        for item: ProgressionTimelineItem, name: String? = nil, recentTemplateIDs: [String] = []
    ) -> Affirmation {
        let kind = occasion(of: item)
        let values = Self.values(for: item, name: name, translation: translation)
        let usable = templates.filter { $0.placeholders.isSubset(of: values.keys) }
        var candidates = usable.filter { $0.kind == kind }
        if candidates.isEmpty { candidates = usable.filter { $0.kind == .advance } }
        guard !candidates.isEmpty else {
            return Affirmation(
                templateID: "", kind: kind,
                text: translation.text(
                    ProgressionText.affirmationFallback, ["to": item.toStageName, "method": item.methodName]))
        }
        let recent = recentTemplateIDs.suffix(Self.recentLimit)
        let allowed = candidates.filter { !recent.contains($0.id) }
        let chosen: AffirmationTemplate
        if allowed.isEmpty {
            // Every candidate is in `recent`; the one whose last use is earliest was seen longest ago.
            chosen =
                candidates.min {
                    (recentTemplateIDs.lastIndex(of: $0.id) ?? -1) < (recentTemplateIDs.lastIndex(of: $1.id) ?? -1)
                } ?? candidates[0]
        } else {
            chosen = allowed[Int(Self.stableHash(item.advance.eventID) % UInt64(allowed.count))]
        }
        return Affirmation(templateID: chosen.id, kind: kind, text: chosen.render(values))
    }

    /// The celebration payload for an item: its title and affirmation.
    ///
    /// - Parameters:
    ///   - item: The start, advance or regression to celebrate.
    ///   - name: The user's (or subject's) name, if known.
    ///   - recentTemplateIDs: The template ids of the affirmations already shown, oldest first.
    /// - Returns: The payload.
    public func celebration(
        for item: ProgressionTimelineItem, name: String? = nil, recentTemplateIDs: [String] = []
    ) -> StageCelebration {
        let affirmation = affirmation(for: item, name: name, recentTemplateIDs: recentTemplateIDs)
        let title = titles[affirmation.kind] ?? titles[.advance] ?? "{to}"
        return StageCelebration(
            eventID: item.advance.eventID,
            title: AffirmationTemplate.render(title, Self.values(for: item, name: name, translation: translation)),
            affirmation: affirmation,
            isFinalStage: item.kind == .advance && item.isFinalStage,
            isFastAdvance: isFast(item))
    }

    /// The placeholder values an item provides, its duration written in `translation`.
    static func values(
        for item: ProgressionTimelineItem, name: String?, translation: Translation = .english
    ) -> [String: String] {
        var values = [
            "method": item.methodName, "to": item.toStageName, "stage_number": String(item.stageNumber),
            "stage_count": String(item.stageCount),
        ]
        if let from = item.fromStageName { values["from"] = from }
        if let time = item.timeAtPreviousStage { values["duration"] = time.phrase(translation: translation) }
        if let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty { values["name"] = name }
        return values
    }

    /// 64-bit FNV-1a of the UTF-8 bytes: stable across runs and platforms, unlike `Hasher`.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
