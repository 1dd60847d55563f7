import Foundation

/// A user's progression through the stages of their methods, checked record by record (seed 001).
///
/// Build a history from the declared methods and the user's ``StageAdvance`` records, in
/// the order they were logged; each record is checked against the ones before it:
/// - its method and stages exist;
/// - within a method, instants never go back (an advance earlier than the method's previous
///   one is refused rather than reordered, because reordering would change which stage each
///   `from` refers to; equal instants are allowed);
/// - the first record of a method has no `from`, and every later one leaves the stage the
///   user is at;
/// - it changes the stage. Skipping forward is allowed and reported as
///   ``ProgressionTimelineItem/skippedStages``; going back is a
///   ``ProgressionTimelineItem/Kind/regression`` and allowed too.
///
/// A refused record is a ``MomentumError`` with code `invalid_event` (or
/// `conflicting_event_id` for an event id reused for a different advance) naming the
/// ``MomentumError/field``: `method`, `from`, `to`, `at` or `id`. Invalid methods are
/// `invalid_pack`. A refused record changes nothing. Recording the same advance twice is
/// harmless: the retry is recognised by its event id.
///
/// The history is a pure value: timelines need no clock, and statistics and highlights take
/// the current instant as a parameter.
public struct ProgressionHistory: Hashable, Sendable {
    /// The declared methods, in declaration order.
    public let methods: [ProgressionMethod]
    private let methodIndex: [String: Int]
    /// Every accepted record, in the order it was recorded, without achievements.
    private var records: [ProgressionTimelineItem] = []
    /// Indices into `records` per method id, oldest first.
    private var recordsByMethod: [String: [Int]] = [:]
    private var recordByEventID: [String: Int] = [:]

    /// Creates a history and records the advances in order.
    ///
    /// - Parameters:
    ///   - methods: The declared methods; ids must be distinct, and each method needs at
    ///     least one stage, with distinct stage ids and orders.
    ///   - advances: The user's records, in the order they were logged.
    /// - Throws: ``MomentumError`` for the first invalid method or record (see the type's
    ///   documentation).
    public init(methods: [ProgressionMethod], advances: [StageAdvance] = []) throws(MomentumError) {
        var index: [String: Int] = [:]
        for (position, method) in methods.enumerated() {
            try Self.validate(method)
            guard index[method.id] == nil else {
                throw MomentumError(.invalidPack, "method '\(method.id)' is declared twice", field: "id")
            }
            index[method.id] = position
        }
        self.methods = methods
        self.methodIndex = index
        for advance in advances {
            try record(advance)
        }
    }

    /// Checks an advance against the history and appends it.
    ///
    /// - Parameter advance: The next record, no earlier than the method's previous one.
    /// - Returns: The timeline item for the advance (without achievements).
    /// - Throws: ``MomentumError`` if the record is refused; the history is then unchanged.
    @discardableResult
    public mutating func record(_ advance: StageAdvance) throws(MomentumError) -> ProgressionTimelineItem {
        if let existing = recordByEventID[advance.eventID] {
            guard records[existing].advance == advance else {
                throw MomentumError(
                    .conflictingEventID, "event id '\(advance.eventID)' was already used for a different advance",
                    field: "id")
            }
            return records[existing]
        }
        let item = try check(advance)
        recordByEventID[advance.eventID] = records.count
        recordsByMethod[advance.methodID, default: []].append(records.count)
        records.append(item)
        return item
    }

    /// The method with an id, or `nil` if none is declared.
    public func method(id: String) -> ProgressionMethod? {
        methodIndex[id].map { methods[$0] }
    }

    /// The methods with at least one record, in declaration order (AC1).
    public var practicedMethods: [ProgressionMethod] {
        methods.filter { recordsByMethod[$0.id] != nil }
    }

    /// The stage the user is at in a method after the latest record, or `nil` if the method
    /// was never started or is not declared.
    public func currentStage(of methodID: String) -> ProgressionStage? {
        recordsByMethod[methodID]?.last.map { records[$0].toStage }
    }

    /// A method's timeline, oldest first (AC1, AC2, AC5).
    ///
    /// - Parameters:
    ///   - methodID: The method's id; an undeclared or unstarted method has an empty timeline.
    ///   - accomplishments: Key accomplishments per stage id ("12 sessions logged"); each
    ///     item gets the list of the stage it left. A stage visited twice gets the same list
    ///     both times.
    /// - Returns: One item per record of the method.
    public func timeline(for methodID: String, accomplishments: [String: [String]] = [:]) -> [ProgressionTimelineItem] {
        (recordsByMethod[methodID] ?? []).map { records[$0].with(accomplishments: accomplishments) }
    }

    /// Every record of every method, in the order recorded, without achievements.
    public var allItems: [ProgressionTimelineItem] { records }

    /// The item recorded for an event id, or `nil` if there is none.
    ///
    /// - Parameters:
    ///   - eventID: The id of the advance's event.
    ///   - accomplishments: Key accomplishments per stage id, as for ``timeline(for:accomplishments:)``.
    public func item(forEvent eventID: String, accomplishments: [String: [String]] = [:]) -> ProgressionTimelineItem? {
        recordByEventID[eventID].map { records[$0].with(accomplishments: accomplishments) }
    }

    /// The records of a method, oldest first.
    func records(of methodID: String) -> [ProgressionTimelineItem] {
        (recordsByMethod[methodID] ?? []).map { records[$0] }
    }

    private static func validate(_ method: ProgressionMethod) throws(MomentumError) {
        guard !method.stages.isEmpty else {
            throw MomentumError(.invalidPack, "method '\(method.id)' has no stages", field: "stages")
        }
        var ids: Set<String> = []
        var orders: Set<Int> = []
        for stage in method.stages {
            guard ids.insert(stage.id).inserted else {
                throw MomentumError(
                    .invalidPack, "method '\(method.id)' declares stage '\(stage.id)' twice", field: "stages.id")
            }
            guard orders.insert(stage.order).inserted else {
                throw MomentumError(
                    .invalidPack, "method '\(method.id)' has two stages with order \(stage.order)",
                    field: "stages.order")
            }
        }
    }

    private func check(_ advance: StageAdvance) throws(MomentumError) -> ProgressionTimelineItem {
        let id = advance.eventID
        guard let method = method(id: advance.methodID) else {
            throw MomentumError(
                .invalidEvent, "advance '\(id)' names method '\(advance.methodID)', which is not declared",
                field: "method")
        }
        guard let to = method.stage(id: advance.toStageID), let toNumber = method.stageNumber(of: to.id) else {
            throw MomentumError(
                .invalidEvent, "advance '\(id)': '\(method.name)' has no stage '\(advance.toStageID)'", field: "to")
        }
        var from: ProgressionStage?
        if let fromID = advance.fromStageID {
            guard let stage = method.stage(id: fromID) else {
                throw MomentumError(
                    .invalidEvent, "advance '\(id)': '\(method.name)' has no stage '\(fromID)'", field: "from")
            }
            from = stage
        }
        let previous = recordsByMethod[method.id]?.last.map { records[$0] }
        if let previous, advance.at < previous.date {
            throw MomentumError(
                .invalidEvent,
                "advance '\(id)' at \(RFC3339.format(advance.at)) is earlier than the previous advance of "
                    + "'\(method.name)' ('\(previous.advance.eventID)' at \(RFC3339.format(previous.date)))",
                field: "at")
        }
        let current = previous?.toStage
        guard current?.id == from?.id else {
            let leaves = from.map { "leaves stage '\($0.id)'" } ?? "has no 'from'"
            let state =
                current.map { "the user is at stage '\($0.id)' of '\(method.name)'" }
                ?? "'\(method.name)' has not been started, and the first advance of a method has no 'from'"
            throw MomentumError(.invalidEvent, "advance '\(id)' \(leaves), but \(state)", field: "from")
        }
        guard from?.id != to.id else {
            throw MomentumError(.invalidEvent, "advance '\(id)' does not change the stage ('\(to.id)')", field: "to")
        }
        let kind: ProgressionTimelineItem.Kind
        var skipped: [ProgressionStage] = []
        if let from, let fromNumber = method.stageNumber(of: from.id) {
            kind = toNumber > fromNumber ? .advance : .regression
            if toNumber > fromNumber + 1 { skipped = Array(method.stages[fromNumber..<(toNumber - 1)]) }
        } else {
            kind = .start
        }
        return ProgressionTimelineItem(
            advance: advance, methodName: method.name, kind: kind, fromStage: from, toStage: to,
            skippedStages: skipped, stageNumber: toNumber, stageCount: method.stages.count,
            timeAtPreviousStage: previous.map { StageDuration(from: $0.date, to: advance.at) })
    }
}
