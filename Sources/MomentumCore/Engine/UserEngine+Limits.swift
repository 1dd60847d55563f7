import Foundation

/// The bounds on the work one event may cause (``EventLimits``).
extension UserEngine {
    /// The error for a habit beyond ``EventLimits/maximumHabits``.
    static var tooManyHabits: MomentumError {
        MomentumError(
            .limitExceeded,
            "an account may have at most \(EventLimits.maximumHabits) habits (archived ones count); archive is not "
                + "deletion, so reuse one instead",
            field: "habit")
    }

    /// Refuses, before anything changes, an event that would create a habit beyond
    /// ``EventLimits/maximumHabits`` or make the engine evaluate more than
    /// ``EventLimits/evaluationBudget`` habit-days again.
    ///
    /// An event that sorts before the open day makes the sweep rewind to the checkpoint at
    /// or before its day and judge every habit's days again up to the open day; that work
    /// is what the budget bounds. An event for the open day or later costs O(1).
    func checkLimits(_ event: Event) throws(MomentumError) {
        if case .habitCreated(let definition) = event.payload, habitMeta[definition.id] == nil,
            habitMeta.count >= EventLimits.maximumHabits
        {
            throw Self.tooManyHabits
        }
        guard let cost = reevaluation(for: event), cost.work > EventLimits.evaluationBudget else { return }
        throw MomentumError(
            .limitExceeded,
            "\(LocalDay(number: cost.earliest)) is \(cost.daysBack) days back: evaluating \(cost.habits) habits again "
                + "from then exceeds the limit of \(EventLimits.evaluationBudget) habit-days per event",
            field: cost.field)
    }

    /// The habit-days `event` would make the engine evaluate again: 0 for an event for the
    /// open day or later (O(1)), `Int.max` when the product overflows.
    ///
    /// A caller appending a batch adds these up to bound a whole request
    /// (``EventLimits/requestEvaluationBudget``), since each event's rewind is paid again.
    public func evaluationCost(of event: Event) -> Int {
        let work = reevaluation(for: event)?.work ?? 0
        // A milestone of the user's own, defined or removed, makes the achievements read
        // every event again.
        var milestone = false
        switch event.payload {
        case .milestone, .milestoneDeleted: milestone = true
        case .removal(let target):
            if let index = indexByID[target] {
                switch log[Int(index)].payload {
                case .milestone, .milestoneDeleted: milestone = true
                default: break
                }
            }
        default: break
        }
        guard milestone else { return work }
        let (total, overflow) = work.addingReportingOverflow(entries.count)
        return overflow ? .max : total
    }

    private func reevaluation(
        for event: Event
    ) -> (work: Int, earliest: Int, daysBack: Int, habits: Int, field: String)? {
        guard let open = run.openDay, let table = table(for: event.timeZone) else { return nil }
        var earliest = clock.localDay(of: event.at, in: table).number
        var field = "at"
        func reaches(_ day: LocalDay?, _ name: String) {
            guard let day, day.number < earliest else { return }
            earliest = day.number
            field = name
        }
        switch event.payload {
        case .habitCreated(let definition): reaches(definition.startDay, "start")
        case .completion(_, let day, _, _), .skip(_, let day, _), .contribution(_, _, let day, _): reaches(day, "day")
        case .activity(let activity): reaches(activity.day, "day")
        case .freezeDecision(_, let day, _): reaches(day, "day")
        case .removal(let target):
            if let index = indexByID[target], let removed = entries.first(where: { $0.event == index }) {
                reaches(LocalDay(number: removed.day), "event")
                if case .pause(let pause) = log[Int(index)].payload { reaches(pause.from, "event") }
            }
        case .pause(let pause): reaches(pause.from, "from")
        case .amnesty(let amnesty):
            reaches(clock.localDay(of: amnesty.start, in: table), "start")
        case .amnestyLifted(let id):
            if let index = indexByID[id], case .amnesty(let amnesty) = log[Int(index)].payload,
                let zone = self.table(for: log[Int(index)].timeZone)
            {
                reaches(clock.localDay(of: amnesty.start, in: zone), "amnesty")
            }
        case .habitUpdated, .habitArchived, .habitUnarchived, .purchase, .subject, .goal, .stage, .resume, .order,
            .milestone, .milestoneDeleted, .grant, .rewardsKept, .unknown:
            break
        }
        guard earliest < open else { return nil }
        let habits = max(1, run.habits.count + (habitMeta[event.payload.habitID ?? ""] == nil ? 1 : 0))
        let (days, overflowDays) = (open - earliest).addingReportingOverflow(Self.checkpointInterval)
        let (work, overflow) = habits.multipliedReportingOverflow(by: days)
        return (overflowDays || overflow ? .max : work, earliest, open - earliest, habits, field)
    }
}
