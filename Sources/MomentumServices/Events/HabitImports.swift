import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

/// Bringing in habits another app exported (Loop Habit Tracker, Beaver Habit Tracker), and
/// the account's habits as CSV files.
///
/// An import is the person's own history, so it is not held to the arrival window that
/// bounds what devices send (``ArrivalGate``): the server reads the export and makes the
/// events itself, each habit new and starting on its first marked day, every day dated at
/// its own midday. Every rule of the engine applies to them, as to a push: a habit's
/// streak, milestones and rewards are what that history earns (celebrated as of the days
/// they happened). An export with a bad line imports nothing; the events' ids derive from
/// the export, so importing it again stores nothing twice, and an import cut short (a
/// restart) is finished by importing the same export again.
public struct HabitImports: Sendable {
    let store: any EventStore & AccountStore
    let ingest: EventIngest
    /// The now.
    public let now: @Sendable () -> Date
    let maxEventsPerRequest: Int

    /// The most habit-days one import may make the engine evaluate again, in all: an
    /// import into an account that has later check-ins re-evaluates the account's habits
    /// from each imported day on (one into an account without any costs little).
    public static let evaluationBudget = 25 * EventLimits.requestEvaluationBudget

    /// The largest import request: 32 MiB of export, decades of a hundred habits.
    public static let maxBytes = 32 << 20

    /// Reads the export, checks every event it makes against the account, and stores them
    /// (unless `dryRun`).
    ///
    /// - Throws: `.invalid` naming each bad line of the export, or each event the engine refuses
    ///   (with its habit and day); nothing is stored then.
    public func run(_ request: HabitImportRequest, user: String) async throws -> HabitImportReport {
        let source = HabitImport.Source(rawValue: request.source.rawValue) ?? .loop
        let files = request.files.additionalProperties
        let parsed: HabitImport
        do throws(HabitImportError) {
            switch source {
            case .loop:
                parsed = try HabitImport.loop(files: files)
            case .beaver:
                guard files.count == 1, let (name, text) = files.first else {
                    throw HabitImportError(problems: [
                        .init(
                            file: "files", line: nil,
                            reason: "a Beaver export is one JSON file; \(files.count) were sent")
                    ])
                }
                parsed = try HabitImport.beaver(json: Data(text.utf8), file: name)
            }
        } catch {
            throw Self.invalid(error.problems)
        }
        let now = now()
        guard let profile = try await store.profile(of: user) else { throw ServiceError.notFound("account") }
        let zone = profile.timeZone
        let dayStartHour = profile.dayStartHour
        let budget = Self.evaluationBudget
        // Against the account as it is: each habit's id (the one an earlier import gave it,
        // or a free one), then every event tried on a copy of the engine.
        let maxEvents = maxEventsPerRequest
        let plan = try await store.evaluate(user) { user, _ in
            Self.plan(
                parsed, user: user, zone: zone, dayStartHour: dayStartHour, now: now, budget: budget,
                maxEventsPerRequest: maxEvents)
        }
        if !plan.problems.isEmpty { throw Self.invalid(plan.problems) }
        let dryRun = request.dryRun ?? false
        if !dryRun {
            for chunk in plan.chunks {
                let stored = try await ingest.importHistory(chunk.map(\.event), for: user)
                let refused = zip(chunk, stored.results).filter {
                    $0.1.status == "invalid" || $0.1.status == "rejected"
                }
                if let (first, result) = refused.first {
                    // The account changed between the check and the write (another device
                    // pushed meanwhile); what was stored stays, and a second import finishes.
                    throw ServiceError(
                        .conflict, "import_interrupted",
                        "the account changed during the import; import the same file again to finish it "
                            + "(\(first.event.id): \(result.error?.message ?? "refused"))")
                }
            }
        }
        return HabitImportReport(
            alreadyImported: plan.already, dryRun: dryRun, future: plan.future, habits: plan.habits,
            notes: parsed.notes, source: .init(rawValue: source.rawValue), stored: plan.new.count)
    }

    /// The plan of an import: the events to store (with what each costs the engine), the
    /// summary of each habit, and the problems that refuse it.
    public struct Plan: Sendable {
        struct Item: Sendable {
            /// The event.
            public var event: Event
            var cost: Int
        }

        var new: [Item] = []
        /// `new` in the requests the store takes, each within the request's size and
        /// evaluation budget as the store counts it (see ``plan(_:user:zone:dayStartHour:now:budget:maxEventsPerRequest:)``).
        var chunks: [[Item]] = []
        var already = 0
        var future = 0
        /// The habits.
        public var habits: [ImportedHabit] = []
        /// The problems.
        public var problems: [HabitImportError.Problem] = []
    }

    /// Plans an import against the account as it is: every event tried, in order, on a copy
    /// of the account's engine exactly as the store will apply it (each appended as
    /// detected `now`, the clock moved to `now` after each request), and cut into the
    /// requests the store takes. Each event's cost is the store's own measure
    /// (`UserEngine/evaluationCost(of:)` at the point the store will meet it, including
    /// the rewind a request's closing advance causes for the next request's far-back
    /// events), so a planned request always fits the store's per-request budget, and an
    /// import whose requests together exceed `budget` is refused here, before anything is
    /// stored. Events an earlier import stored cost nothing: sending a partly stored export
    /// again stores the rest.
    public static func plan(
        _ parsed: HabitImport, user: MomentumUser, zone: String, dayStartHour: Int, now: Date, budget: Int,
        maxEventsPerRequest: Int
    ) -> Plan {
        let engine = user.streaks
        var plan = Plan()
        var ids: [String: String] = [:]
        var taken = Set<String>()
        var isNew: [String: Bool] = [:]
        for habit in parsed.habits {
            let created = HabitImport.EventID.created(parsed.source, key: habit.key)
            if let event = engine.event(id: created), case .habitCreated(let definition) = event.payload {
                ids[habit.key] = definition.id
                isNew[habit.key] = false
                continue
            }
            var candidate = habit.key
            var n = 2
            while engine.hasHabit(candidate) || taken.contains(candidate) {
                candidate = "\(habit.key)-\(n)"
                n += 1
            }
            taken.insert(candidate)
            ids[habit.key] = candidate
            isNew[habit.key] = true
        }
        var (events, future) = parsed.events(ids: ids, zone: zone, dayStartHour: dayStartHour, now: now)
        plan.future = future
        // New habits keep the other app's order, after the account's own.
        let added = parsed.habits.filter { isNew[$0.key] == true }
        let existing = engine.displayOrder
        if let first = added.first, added.count > 1 || !existing.isEmpty {
            var order = existing
            order += added.compactMap { ids[$0.key] }
            events.append(
                Event(
                    id: "import:\(parsed.source.rawValue):order:\(first.key)", at: now, timeZone: zone,
                    payload: .order(habits: order)))
        }
        var trial = user
        var spent = 0
        // The request being planned: its events and the engine work they cost as the store
        // counts it (``EventLimits/requestEvaluationBudget``).
        var chunk: [Plan.Item] = []
        var chunkSpent = 0
        let perRequest = EventLimits.requestEvaluationBudget
        let size = max(1, maxEventsPerRequest)
        let names = Dictionary(parsed.habits.map { (ids[$0.key] ?? $0.key, $0.name) }, uniquingKeysWith: { a, _ in a })
        for event in events {
            if trial.streaks.event(id: event.id) != nil {
                // Stored by an earlier import (today's check-in may carry another time).
                plan.already += 1
                continue
            }
            var cost = trial.streaks.evaluationCost(of: event)
            if !chunk.isEmpty, chunk.count >= size || cost > perRequest - chunkSpent {
                // The store closes each request by moving the clock to now: the next
                // request's far-back events rewind from there.
                plan.chunks.append(chunk)
                chunk = []
                chunkSpent = 0
                _ = trial.advance(to: now)
                cost = trial.streaks.evaluationCost(of: event)
            }
            spent = spent > budget - cost ? budget + 1 : spent + cost
            guard spent <= budget, cost <= perRequest else {
                plan.problems.append(
                    .init(
                        file: "files", line: nil,
                        reason: "this import would make the server evaluate more than "
                            + "\(cost > perRequest ? perRequest : budget) habit-days of history "
                            + "(\(parsed.habits.count) habits, the earliest day "
                            + "\(parsed.habits.compactMap { $0.days.first?.day }.min()?.description ?? "?"), "
                            + "with the account's habits and later check-ins); nothing was stored: "
                            + "export fewer habits or a shorter history and import each part in turn"))
                plan.chunks = []
                return plan
            }
            chunkSpent += cost
            do throws(MomentumError) {
                switch try trial.append(event, now: now, detectedAt: now).0 {
                case .applied:
                    plan.new.append(.init(event: event, cost: cost))
                    chunk.append(.init(event: event, cost: cost))
                case .duplicate: plan.already += 1
                case .rejected(let error): plan.problems.append(problem(event, error, names: names))
                }
            } catch {
                plan.problems.append(problem(event, error, names: names))
            }
            if plan.problems.count >= 100 { break }
        }
        if !chunk.isEmpty { plan.chunks.append(chunk) }
        // What each habit brings, days after today (left out) not counted.
        let today = ZoneOffsetTable.named(zone).map { DayClock(dayStartHour: dayStartHour).localDay(of: now, in: $0) }
        plan.habits = parsed.habits.map { original in
            var habit = original
            if let today { habit.days.removeAll { $0.day > today } }
            return ImportedHabit(
                archived: habit.archived,
                checkIns: habit.days.count { if case .done = $0.mark { true } else { false } },
                habit: ids[habit.key] ?? habit.key, name: habit.name, new: isNew[habit.key] ?? true,
                skips: habit.days.count { $0.mark == .skipped })
        }
        return plan
    }

    private static func problem(
        _ event: Event, _ error: MomentumError, names: [String: String]
    ) -> HabitImportError.Problem {
        let habit = event.payload.habitID.flatMap { names[$0] } ?? event.payload.habitID ?? "?"
        let day: String =
            switch event.payload {
            case .completion(_, let day?, _, _), .skip(_, let day?, _): " on \(day)"
            default: ""
            }
        return .init(file: habit, line: nil, reason: "\(habit)\(day): \(error.message)")
    }

    /// The `.invalid` for an export that cannot be imported.
    public static func invalid(_ problems: [HabitImportError.Problem]) -> ServiceError {
        ServiceError(
            .invalid, "invalid_import",
            problems.count == 1
                ? "nothing was imported: \(problems[0].description)"
                : "nothing was imported: \(problems.count) problems, the first \(problems[0].description)",
            fields: problems.map { problem in
                .init(field: problem.line.map { "\(problem.file):\($0)" } ?? problem.file, issue: problem.reason)
            })
    }

    // MARK: CSV export

    /// The account's habits as CSV files in Loop's layout, zipped (see
    /// `HabitImport/loopCSV(habits:days:)`).
    public func csvZip(of user: String) async throws -> [UInt8] {
        let now = now()
        let files = try await store.evaluate(user) { user, profile in
            var engine = user.streaks
            let state = engine.state(at: now, zone: profile.timeZone, calendarDays: 0)
            let byID = Dictionary(state.habits.map { ($0.definition.id, $0) }, uniquingKeysWith: { a, _ in a })
            let habits = state.order.compactMap { id in
                byID[id].map { (definition: $0.definition, archived: $0.archivedDay != nil) }
            }
            return HabitImport.loopCSV(habits: habits, days: engine.markedDays())
        }
        return ZipWriter.archive(files.map { (path: "momentum-csv/" + $0.path, bytes: Array($0.text.utf8)) })
    }
}
