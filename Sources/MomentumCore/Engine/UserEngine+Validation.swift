import Foundation

extension UserEngine {
    /// Checks an event against the pack and the habits the log knows, and digests it.
    mutating func validate(_ event: Event, index: Int32, now: Date?) throws(MomentumError) -> Entry {
        guard let table = cachedTable(for: event.timeZone) else {
            throw MomentumError(
                .unknownTimeZone, "'\(event.timeZone)' is not an IANA time zone such as Europe/Paris", field: "tz")
        }
        if let now, event.at.timeIntervalSince(now) > Double(pack.futureToleranceSeconds) {
            throw MomentumError(
                .futureTimestamp,
                "\(RFC3339.format(event.at)) is more than \(pack.futureToleranceSeconds / 60) minutes after now (\(RFC3339.format(now)))",
                field: "at")
        }
        if now != nil { try Self.checkText(of: event) }
        let atDay = clock.localDay(of: event.at, in: table).number
        let at = event.at.timeIntervalSince1970
        func entry(_ day: Int, _ operation: Entry.Operation, habit: Int32 = -1) -> Entry {
            Entry(day: day, rank: 2, operation: operation, backfilled: false, habit: habit, event: index, at: at)
        }

        switch event.payload {
        case .habitCreated(let definition):
            if habitMeta[definition.id] == nil { try registerHabit(event) }
            let meta = habitMeta[definition.id]!
            guard meta.createdKey.id == event.id else {
                throw MomentumError(.duplicateHabit, "habit '\(definition.id)' already exists", field: "habit")
            }
            var created = entry(meta.startDay, .create, habit: meta.ordinal)
            created.rank = 0
            return created
        case .habitUpdated(let changes):
            let meta = try habit(changes.habit, on: atDay)
            if let name = changes.name { try Self.checkName(name) }
            if let group = changes.group { try Self.checkGroup(group) }
            var update = entry(atDay, .update, habit: meta.ordinal)
            // A new schedule holds from the start of its day: it sorts after the day's habit
            // creations and before everything else.
            if changes.schedule != nil { update.rank = 1 }
            return update
        case .habitArchived(let id):
            return entry(atDay, .archive, habit: try habit(id, on: atDay).ordinal)
        case .habitUnarchived(let id):
            return entry(atDay, .unarchive, habit: try habit(id, on: atDay).ordinal)
        case .order(let habits):
            for id in habits where habitMeta[id] == nil {
                throw MomentumError(.unknownHabit, "there is no habit '\(id)'", field: "habits")
            }
            return entry(atDay, .order)
        case .completion(let id, let day, let value, _):
            let target = try loggedDay(day, atDay: atDay, limitedBy: "completion")
            var completion = entry(target, .complete, habit: try habit(id, on: target).ordinal)
            completion.value = value
            completion.backfilled = target < atDay
            return completion
        case .skip(let id, let day, _):
            let target = try loggedDay(day, atDay: atDay, limitedBy: nil)
            guard let id else { return entry(target, .skipAll) }
            return entry(target, .skip, habit: try habit(id, on: target).ordinal)
        case .pause(let pause):
            if let window = pack.backfillDays(forEventType: "completion"), atDay - pause.from.number > window {
                throw MomentumError(
                    .outsideBackfillWindow,
                    "a pause may begin at most \(window) day\(window == 1 ? "" : "s") back, as completions may (\(pause.from) is \(atDay - pause.from.number) days back): a broken streak cannot be paused after the fact",
                    field: "from")
            }
            guard let id = pause.habit else { return entry(atDay, .pause) }
            guard let meta = habitMeta[id] else {
                throw MomentumError(.unknownHabit, "there is no habit '\(id)'", field: "habit")
            }
            return entry(atDay, .pause, habit: meta.ordinal)
        case .resume:
            return entry(atDay, .resume)
        case .purchase(let item, let days):
            let quote = try pack.store.quote(item: item, days: days)
            var purchase = entry(atDay, .purchase)
            purchase.freezes = Int32(quote.freezes)
            purchase.diamonds = Int32(quote.diamonds)
            return purchase
        case .freezeDecision(let id, let day, _):
            let meta = try habit(id, on: day.number)
            guard day.number < atDay else {
                throw MomentumError(
                    .invalidEvent, "a freeze offer can only be answered after the missed day \(day)", field: "day")
            }
            guard atDay <= day.number + 1 else {
                throw MomentumError(
                    .invalidEvent, "the freeze offer for \(day) expired at the end of \(day.advanced(by: 1))",
                    field: "day")
            }
            return entry(atDay, .decision, habit: meta.ordinal)
        case .removal(let target):
            guard target != event.id else {
                throw MomentumError(.invalidEvent, "an event cannot remove itself", field: "event")
            }
            return entry(atDay, .decision)
        case .subject(let subject):
            guard !subject.id.isEmpty, subject.id.utf8.count <= 128 else {
                throw MomentumError(.invalidEvent, "a subject id is 1…128 bytes", field: "subject")
            }
            if let photo = subject.photo, !photo.isEmpty {
                guard photo.utf8.count <= 256 else {
                    throw MomentumError(.invalidEvent, "a photo path is at most 256 bytes", field: "photo")
                }
                try MemoryPhoto.validate(photo, field: "photo", under: Subject.photoDirectory)
            }
            return entry(atDay, .record)
        case .activity(let activity):
            return entry(try loggedDay(activity.day, atDay: atDay, limitedBy: "log"), .record)
        case .goal(let goal):
            guard !goal.id.isEmpty, goal.id.utf8.count <= 128 else {
                throw MomentumError(.invalidEvent, "a goal id is 1…128 bytes", field: "goal")
            }
            return entry(atDay, .record)
        case .contribution(_, _, let day, _):
            return entry(try loggedDay(day, atDay: atDay, limitedBy: "contribution"), .record)
        case .stage:
            return entry(atDay, .record)
        case .milestone(let milestone):
            if let problem = milestone.problem {
                throw MomentumError(.invalidEvent, problem.reason, field: problem.field)
            }
            return entry(atDay, .record)
        case .milestoneDeleted(let milestone):
            if let problem = CustomMilestone.idProblem(milestone) {
                throw MomentumError(.invalidEvent, problem, field: "milestone")
            }
            return entry(atDay, .record)
        case .grant(let grant):
            if let problem = grant.problem { throw MomentumError(.invalidEvent, problem.reason, field: problem.field) }
            var credit = entry(atDay, .grant)
            credit.freezes = Int32(grant.freezes)
            credit.diamonds = Int32(grant.diamonds)
            return credit
        case .rewardsKept(let kept):
            if let problem = kept.problem { throw MomentumError(.invalidEvent, problem.reason, field: problem.field) }
            return entry(atDay, .kept)
        case .amnesty(let amnesty):
            if let problem = amnesty.problem {
                throw MomentumError(.invalidEvent, problem.reason, field: problem.field)
            }
            guard amnesty.end <= event.at else {
                throw MomentumError(
                    .invalidEvent, "an amnesty covers an outage that has ended: end is after the event's at",
                    field: "end")
            }
            return entry(atDay, .amnesty)
        case .amnestyLifted(let id):
            if let problem = Event.idProblem(id) {
                throw MomentumError(.invalidEvent, "amnesty " + problem, field: "amnesty")
            }
            return entry(atDay, .amnestyLifted)
        case .unknown:
            // A type from a newer engine: only the envelope above is checked; it is kept
            // and changes nothing.
            return entry(atDay, .record)
        }
    }

    /// Records a `habit.created` event's habit and gives it its place in creation order.
    ///
    /// - Returns: `true` if habits created earlier in the log had to move up (the caller
    ///   must rewind).
    @discardableResult
    mutating func registerHabit(_ event: Event) throws(MomentumError) -> Bool {
        guard case .habitCreated(let definition) = event.payload else { return false }
        guard habitMeta[definition.id] == nil else {
            throw MomentumError(.duplicateHabit, "habit '\(definition.id)' is created twice", field: "habit")
        }
        guard !definition.id.isEmpty, definition.id.utf8.count <= 128 else {
            throw MomentumError(.invalidEvent, "a habit id is 1…128 bytes", field: "habit")
        }
        try Self.checkName(definition.name)
        if let group = definition.group { try Self.checkGroup(group) }
        guard let table = cachedTable(for: event.timeZone) else {
            throw MomentumError(.unknownTimeZone, "'\(event.timeZone)' is not an IANA time zone", field: "tz")
        }
        let atDay = clock.localDay(of: event.at, in: table).number
        let start = definition.startDay?.number ?? atDay
        guard start <= atDay else {
            throw MomentumError(
                .invalidEvent, "start \(LocalDay(number: start)) is after the day the habit was created", field: "start"
            )
        }
        let key = EventKey(day: start, rank: 0, at: event.at.timeIntervalSince1970, id: event.id)
        let later = habitMeta.values.filter { key < $0.createdKey }.count
        habitMeta[definition.id] = HabitMeta(ordinal: Int32(habitMeta.count - later), startDay: start, createdKey: key)
        guard later > 0 else { return false }
        renumberHabits()
        return true
    }

    /// Gives every habit its ordinal by creation order and updates the log's references.
    mutating func renumberHabits() {
        let ordered = habitMeta.sorted { $0.value.createdKey < $1.value.createdKey }
        for (ordinal, pair) in ordered.enumerated() { habitMeta[pair.key]?.ordinal = Int32(ordinal) }
        for index in entries.indices {
            if let id = log[Int(entries[index].event)].payload.habitID, let meta = habitMeta[id] {
                entries[index].habit = meta.ordinal
            }
        }
    }

    private func habit(_ id: String, on day: Int) throws(MomentumError) -> HabitMeta {
        guard let meta = habitMeta[id] else {
            throw MomentumError(.unknownHabit, "there is no habit '\(id)'", field: "habit")
        }
        guard day >= meta.startDay else {
            throw MomentumError(
                .invalidEvent,
                "\(LocalDay(number: day)) is before habit '\(id)' started (\(LocalDay(number: meta.startDay)))",
                field: "day")
        }
        return meta
    }

    /// The local day an event names, checked against the backfill window of its event type
    /// (`nil` for no window).
    private func loggedDay(_ day: LocalDay?, atDay: Int, limitedBy type: String?) throws(MomentumError) -> Int {
        guard let day else { return atDay }
        guard day.number <= atDay else {
            throw MomentumError(
                .invalidEvent,
                "day \(day) is after the local day of the event's timestamp (\(LocalDay(number: atDay)))",
                field: "day")
        }
        if let type, let window = pack.backfillDays(forEventType: type), atDay - day.number > window {
            let what = ["completion": "completions", "log": "journal entries", "contribution": "contributions"][type]
            throw MomentumError(
                .outsideBackfillWindow,
                "\(day) is \(atDay - day.number) days back; the \(pack.owner(ofEventType: type)) pack accepts \(what ?? "events") up to \(window) day\(window == 1 ? "" : "s") back",
                field: "day")
        }
        return day.number
    }

    /// Refuses control characters in an arriving event's ids, names, kinds and notes.
    private static func checkText(of event: Event) throws(MomentumError) {
        func check(_ text: String?, _ field: String, lineBreaks: Bool = false) throws(MomentumError) {
            guard let text, TextRules.hasControlCharacter(text, allowingLineBreaks: lineBreaks) else { return }
            throw MomentumError(.invalidEvent, TextRules.controlCharacterMessage(field), field: field)
        }
        try check(event.id, "id")
        try check(event.timeZone, "tz")
        switch event.payload {
        case .habitCreated(let definition):
            try check(definition.id, "habit")
            try check(definition.name, "name")
            try check(definition.category, "category")
            try check(definition.group, "group")
        case .habitUpdated(let changes):
            try check(changes.name, "name")
            try check(changes.category, "category")
            try check(changes.group, "group")
        case .completion(_, _, _, let note), .skip(_, _, let note):
            try check(note, "note", lineBreaks: true)
        case .pause(let pause):
            try check(pause.habit, "habit")
            try check(pause.note, "note", lineBreaks: true)
        case .resume(let pause):
            try check(pause, "pause")
        case .purchase(let item, _):
            try check(item, "item")
        case .subject(let subject):
            try check(subject.id, "subject")
            try check(subject.name, "name")
            try check(subject.kind, "kind")
            for key in subject.dates.keys { try check(key, "dates") }
            try check(subject.photo, "photo")
        case .activity(let activity):
            try check(activity.kind, "kind")
            try check(activity.item, "item")
            try check(activity.group, "group")
            try check(activity.subject, "subject")
            try check(activity.note, "note", lineBreaks: true)
        case .goal(let goal):
            try check(goal.id, "goal")
            try check(goal.name, "name")
            try check(goal.category, "category")
        case .contribution(_, _, _, let note):
            try check(note, "note", lineBreaks: true)
        case .stage(let method, let from, let to, let note):
            try check(method, "method")
            try check(from, "from")
            try check(to, "to")
            try check(note, "note", lineBreaks: true)
        case .habitArchived, .habitUnarchived, .freezeDecision, .removal, .unknown, .rewardsKept, .amnestyLifted:
            break
        case .grant(let grant):
            try check(grant.reason, "reason")
            try check(grant.operatorID, "operator")
        case .amnesty(let amnesty):
            try check(amnesty.id, "amnesty")
            try check(amnesty.reason, "reason")
        case .order(let habits):
            for id in habits { try check(id, "habits") }
        case .milestoneDeleted(let milestone):
            try check(milestone, "milestone")
        case .milestone(let milestone):
            try check(milestone.id, "milestone")
            try check(milestone.title, "title")
            try check(milestone.message, "message", lineBreaks: true)
            try check(milestone.badge, "badge")
            for (field, text) in [
                ("kind", milestone.kind), ("item", milestone.item), ("breaks", milestone.breaks),
                ("breaksItem", milestone.breaksItem), ("habit", milestone.habit),
            ] {
                try check(text, field)
            }
        }
    }

    private static func checkGroup(_ group: String) throws(MomentumError) {
        guard group.count <= 100 else {
            throw MomentumError(.invalidEvent, "a group name is at most 100 characters", field: "group")
        }
    }

    private static func checkName(_ name: String) throws(MomentumError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, name.count <= 200 else {
            throw MomentumError(.invalidEvent, "a habit name is 1…200 characters", field: "name")
        }
    }
}
