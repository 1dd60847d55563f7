import Foundation

extension ProgressionHistory {
    /// Progression statistics across all methods at an instant (AC6).
    ///
    /// - Parameter now: The instant; records after it are ignored.
    /// - Returns: The statistics, with the definitions of ``ProgressionStatistics``.
    public func statistics(at now: Date) -> ProgressionStatistics {
        var standings: [ProgressionStatistics.MethodStanding] = []
        var stays: [ProgressionStatistics.StageStay] = []
        var advances: [ProgressionTimelineItem] = []
        var regressions = 0
        for method in methods {
            // A method's records never go back in time, so those up to `now` are a prefix.
            let items = records(of: method.id).prefix { $0.date <= now }
            guard let last = items.last else { continue }
            standings.append(
                ProgressionStatistics.MethodStanding(
                    methodID: method.id, methodName: method.name, stage: last.toStage, stageNumber: last.stageNumber,
                    stageCount: last.stageCount, since: last.date, timeAtStage: StageDuration(from: last.date, to: now)
                ))
            for item in items {
                guard let from = item.fromStage, let duration = item.timeAtPreviousStage else { continue }
                stays.append(
                    ProgressionStatistics.StageStay(
                        methodID: method.id, methodName: method.name, stage: from, duration: duration,
                        endedBy: item.advance))
                switch item.kind {
                case .advance: advances.append(item)
                case .regression: regressions += 1
                case .start: break
                }
            }
        }
        let byEnd: (ProgressionStatistics.StageStay, ProgressionStatistics.StageStay) -> Bool = {
            $0.endedBy.at < $1.endedBy.at
        }
        let ordered = stays.sorted(by: byEnd)
        let forward = Set(advances.map(\.advance.eventID))
        let total = stays.reduce(0) { $0 + $1.duration.seconds }
        return ProgressionStatistics(
            at: now,
            methodsPracticed: standings.count,
            totalAdvances: advances.count,
            regressions: regressions,
            currentStages: standings,
            averageTimeAtStage: stays.isEmpty ? nil : StageDuration(seconds: total / Double(stays.count)),
            // `max(by:)` and `min(by:)` keep the first of equal elements: the stay that ended first.
            longestStay: ordered.max { $0.duration < $1.duration },
            fastestAdvance: ordered.filter { forward.contains($0.endedBy.eventID) }.min { $0.duration < $1.duration },
            timeSinceLastAdvance: advances.map(\.date).max().map { StageDuration(from: $0, to: now) },
            methodsAtFinalStage: standings.filter(\.isFinalStage).map(\.methodID))
    }
}
