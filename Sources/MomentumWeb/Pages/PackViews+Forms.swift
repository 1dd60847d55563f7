import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// A pack's logging forms as its page and Today show them.
extension WebViews {
    // MARK: Forms

    /// A form's template context; Today's copy (`whole` false) logs for today only, the
    /// pack's page offers an earlier day too.
    func form(_ form: LogForm, _ pack: RulePack, _ journal: JournalPage, whole: Bool) -> LogFormView {
        var values = form.values
        var prefill: [String: String] = [:]
        var submit = L("packs.form.log")
        switch form.type {
        case "subject":
            // The puppy's profile edits the puppy there is, or adds the first.
            submit = L("packs.form.save")
            if let subject = Self.subject(for: pack, journal) {
                values["subject"] = subject.id
                prefill["name"] = subject.name
                for (key, day) in subject.dates { prefill["dates.\(key)"] = day.description }
            }
        case "goal": submit = L("packs.form.createGoal")
        case "stage": submit = L("packs.form.record")
        case "contribution": submit = L("packs.form.add")
        default: break
        }
        let taps = form.fields.first { $0.input == .buttons || $0.input == .checklist }
        let others = form.fields.filter { $0.input != .buttons && $0.input != .checklist }
        var context = LogFormView(
            key: "\(pack.name)-\(form.id)", title: form.title.nonEmpty, icon: form.icon?.nonEmpty,
            hint: form.hint?.nonEmpty, type: form.type.nonEmpty, kind: form.kind?.nonEmpty,
            newID: values["subject"] == nil ? form.newID?.nonEmpty : nil, values: Self.json(values).nonEmpty,
            submit: submit.nonEmpty,
            fields: others.map { field(form, $0, pack, journal, value: prefill[$0.name]) },
            hasFields: !others.isEmpty || (form.backdate && whole),
            // A form of taps alone records on a tap; one with fields too has a submit button.
            hasSubmit: taps == nil)
        if form.backdate, whole {
            let earliest = pack.backfillDays.map { journal.today.advanced(by: -$0) }
            context.backdate = LogFormView.Backdate(
                max: journal.today.description.nonEmpty, min: earliest?.description.nonEmpty,
                window: (pack.backfillDays.map { Wording.current.count("packs.form.daysBack", $0) }
                    ?? L("packs.form.anyEarlierDay")).nonEmpty)
        }
        if let taps {
            let done = journal.journal.items[form.kind ?? ""] ?? []
            let options = taps.options.map { option in
                let key = option.group.map { "\($0)/\(option.value)" } ?? option.value
                return LogFormView.Tap(
                    value: option.value, label: option.label, icon: option.icon ?? "", group: option.group ?? "",
                    done: taps.input == .checklist && done.contains(key))
            }
            if taps.input == .checklist {
                var groups: [(String, [LogFormView.Tap])] = []
                for option in options {
                    if groups.last?.0 == option.group {
                        groups[groups.count - 1].1.append(option)
                    } else {
                        groups.append((option.group, [option]))
                    }
                }
                let checked = options.filter(\.done).count
                context.checklist = LogFormView.Checklist(
                    field: taps.name,
                    groups: groups.map { group, options in
                        LogFormView.Checklist.Group(
                            label: Self.groupName(group), options: options,
                            progress: "\(options.filter(\.done).count)/\(options.count)")
                    },
                    progress: L(
                        "packs.form.checkedOff", ["done": Self.integer(checked), "total": Self.integer(options.count)]))
            } else {
                context.buttons = LogFormView.Buttons(field: taps.name, options: options)
            }
        }
        if form.fields.contains(where: { $0.from == .goals }), journal.journal.goals.isEmpty {
            context.needsGoal = true
        }
        return context
    }

    /// The forms in the pack's order, except that one that needs a goal comes after the
    /// others while the user has none (a new saver sees "New goal" first).
    static func ordered(_ forms: [LogForm], _ journal: JournalPage) -> [LogForm] {
        guard journal.journal.goals.isEmpty else { return forms }
        let needsGoal = { (form: LogForm) in form.fields.contains { $0.from == .goals } }
        return forms.filter { !needsGoal($0) } + forms.filter(needsGoal)
    }

    func field(
        _ form: LogForm, _ field: LogField, _ pack: RulePack, _ journal: JournalPage, value: String?
    ) -> LogFormView.Field {
        var context = LogFormView.Field(
            name: field.name.nonEmpty, label: field.label.nonEmpty, required: field.required, value: value ?? "",
            placeholder: field.placeholder?.nonEmpty, unit: field.unit?.nonEmpty,
            id: "f-\(pack.name)-\(form.id)-\(field.name.replacingOccurrences(of: ".", with: "-"))",
            hasSelection: false)
        switch field.input {
        case .text: context.text = true
        case .number: context.number = true
        case .date: context.date = true
        case .note: context.note = true
        case .choice:
            // Its own (empty) lists, so that a section the choice does not fill reads nothing
            // rather than the enclosing page's list of that name (Today's habit groups).
            context.choice = true
            context.options = []
            context.groups = []
        case .buttons, .checklist: break
        }
        if let minimum = field.minimum { context.min = Self.attribute(minimum).nonEmpty }
        if let maximum = field.maximum { context.max = Self.attribute(maximum).nonEmpty }
        if field.input == .date { context.max = journal.today.description.nonEmpty }
        if !field.suggestions.isEmpty {
            // Suggestions not logged yet come first (a command already learned is still offered).
            let logged = journal.journal.items[form.kind ?? ""] ?? []
            context.suggestions =
                field.suggestions.filter { !logged.contains($0) } + field.suggestions.filter(logged.contains)
            context.hasSuggestions = true
        }
        switch field.from {
        case .goals:
            // With one goal open, it is the one chosen.
            let open = journal.journal.goals.filter { !$0.completed }
            context.options = journal.journal.goals.map {
                LogFormView.Field.Option(
                    value: $0.goal.id, label: $0.goal.name,
                    selected: open.count == 1 && open[0].goal.id == $0.goal.id)
            }
        case .methods:
            // Each method carries the stage it is at (the record's `from`) and the next one,
            // which the stage choice offers first.
            context.options = pack.methods.map { method in
                let current = journal.progression.timelines[method.id]?.last?.toStage
                let ordered = method.stages.sorted { $0.order < $1.order }
                let next = current.flatMap { stage in ordered.first { $0.order > stage.order } } ?? ordered.first
                return LogFormView.Field.Option(
                    value: method.id, label: method.name.nonEmpty, selected: false, from: current?.id.nonEmpty,
                    next: current?.id == ordered.last?.id ? nil : next?.id.nonEmpty)
            }
        case .stages:
            context.groups = pack.methods.map { method in
                LogFormView.Field.Group(
                    label: method.name, method: method.id,
                    options: method.stages.sorted { $0.order < $1.order }.map {
                        LogFormView.Field.Option(value: $0.id, label: "\($0.order). \($0.name)", method: method.id)
                    })
            }
        case nil:
            context.options = field.options.map {
                LogFormView.Field.Option(
                    value: $0.value, label: [$0.icon, $0.label].compactMap { $0 }.joined(separator: " "),
                    selected: $0.value == value)
            }
        }
        context.hasSelection = (context.options ?? []).contains { $0.selected == true }
        return context
    }
}
