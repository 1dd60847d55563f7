import MomentumCore

// Events from the future (docs/events.md, Forward compatibility): what a push carries that
// this engine does not know is kept and warned about, within bounds.
extension EventIngest {
    /// Each event's warnings, or none at all when no event has one.
    static func warnings(for events: [Event]) -> [[EventResult.Warning]] {
        let warnings = events.map(EventResult.warnings(for:))
        return warnings.allSatisfy(\.isEmpty) ? [] : warnings
    }

    /// Refuses, before anything is stored, a batch that would bring more distinct event
    /// types the engine does not know than ``EventLimits/maximumUnknownTypesPerPush``, or
    /// take the account past ``EventLimits/maximumUnknownTypesPerAccount``: events from the
    /// future are kept, but a flood of made-up types is not.
    ///
    /// - Throws: ``ServiceError`` `too_many_unknown_types` (invalid input).
    func checkUnknownTypes(in events: [Event], user: String) async throws {
        var types = Set<String>()
        for event in events { if case .unknown(let type) = event.payload { types.insert(type) } }
        guard !types.isEmpty else { return }
        guard types.count <= EventLimits.maximumUnknownTypesPerPush else {
            throw ServiceError(
                .invalid, "too_many_unknown_types",
                "a push may carry at most \(EventLimits.maximumUnknownTypesPerPush) event types this server does not "
                    + "know, not \(types.count) (\(types.sorted().prefix(10).joined(separator: ", "))); nothing was stored",
                fields: [.init(field: "events", issue: "too many unknown event types")])
        }
        let stored = try await store.evaluate(user) { engine, _ in engine.streaks.unknownEventTypes }
        let total = stored.union(types)
        guard total.count <= EventLimits.maximumUnknownTypesPerAccount else {
            throw ServiceError(
                .invalid, "too_many_unknown_types",
                "an account may hold at most \(EventLimits.maximumUnknownTypesPerAccount) event types this server "
                    + "does not know; this push would make it \(total.count); nothing was stored",
                fields: [.init(field: "events", issue: "too many unknown event types")])
        }
    }
}
