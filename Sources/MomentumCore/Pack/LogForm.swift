import Foundation

/// How a rule pack's events are logged: a form an app renders without code of its own.
///
/// A form makes one event of one ``type`` (`log`, `goal`, `contribution`, `stage` or
/// `subject`). Its ``fields`` name the event's payload fields; a ``LogField/Input/buttons``
/// or ``LogField/Input/checklist`` field makes the form one tap per option. Seed 000's
/// one-tap potty log is:
///
/// ```json
/// {"id": "potty", "title": "Potty", "icon": "🚽", "type": "log", "kind": "potty", "today": true,
///  "fields": [{"name": "item", "label": "Where", "input": "buttons", "options": [
///    {"value": "outdoor", "label": "Outside", "icon": "🌳"},
///    {"value": "indoor", "label": "Accident inside", "icon": "🏠"}]}]}
/// ```
///
/// ``RulePack/decode(_:source:)`` checks every form: known types, payload fields the type
/// takes, options where a choice needs them.
public struct LogForm: Hashable, Sendable, Codable {
    /// The form's id, unique in its pack (`potty`).
    public var id: String
    /// What the form is called (`Potty`).
    public var title: String
    /// An emoji shown beside the title.
    public var icon: String?
    /// A sentence under the title, if any.
    public var hint: String?
    /// The event type it records: `log`, `goal`, `contribution`, `stage` or `subject`.
    public var type: String
    /// For a `log` form, the activity's kind (`potty`, `command`, `social`).
    public var kind: String?
    /// The payload fields the user fills in, in order.
    public var fields: [LogField]
    /// Whether Today shows the form (the one-tap logs of a day); others are on the pack's page.
    public var today: Bool
    /// The payload field that takes a new id for each entry (`goal` for a new goal).
    public var newID: String?
    /// Whether the form offers an earlier day, within the pack's backfill window.
    public var backdate: Bool
    /// Payload values every entry carries (`{"group": "dogs"}` for a dog met).
    public var values: [String: String]

    /// The event types a form may record, with the payload fields each takes.
    public static let payloadFields: [String: Set<String>] = [
        "log": ["item", "group", "value", "subject", "note"],
        "goal": ["goal", "name", "category", "target"],
        "contribution": ["goal", "amount", "note"],
        "stage": ["method", "to", "note"],
        "subject": ["subject", "name", "kind", "dates.born", "dates.gotcha", "dates.started"],
    ]

    /// Creates a form.
    public init(
        id: String, title: String, icon: String? = nil, hint: String? = nil, type: String, kind: String? = nil,
        fields: [LogField], today: Bool = false, newID: String? = nil, backdate: Bool? = nil,
        values: [String: String] = [:]
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.hint = hint
        self.type = type
        self.kind = kind
        self.fields = fields
        self.today = today
        self.newID = newID
        self.backdate = backdate ?? Self.takesDay(type)
        self.values = values
    }

    /// Whether events of this type carry a `day` (an earlier local day).
    public static func takesDay(_ type: String) -> Bool { type == "log" || type == "contribution" }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, title, icon, hint, type, kind, fields, today, newID, backdate, values
    }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Decodes a form; `today` is false and `backdate` true for the types that take a day
    /// unless the document says otherwise.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        let type = try c.decode(String.self, forKey: .type)
        self.init(
            id: try c.decode(String.self, forKey: .id), title: try c.decode(String.self, forKey: .title),
            icon: try c.decodeIfPresent(String.self, forKey: .icon),
            hint: try c.decodeIfPresent(String.self, forKey: .hint), type: type,
            kind: try c.decodeIfPresent(String.self, forKey: .kind),
            fields: try c.decodeIfPresent([LogField].self, forKey: .fields) ?? [],
            today: try c.decodeIfPresent(Bool.self, forKey: .today) ?? false,
            newID: try c.decodeIfPresent(String.self, forKey: .newID),
            backdate: try c.decodeIfPresent(Bool.self, forKey: .backdate),
            values: try c.decodeIfPresent([String: String].self, forKey: .values) ?? [:])
    }

    /// What is wrong with the form, as a field path and a reason; `nil` when it is sound.
    public var problem: (field: String, reason: String)? {
        guard let allowed = Self.payloadFields[type] else {
            return ("type", "'\(type)' is not one of \(Self.payloadFields.keys.sorted().joined(separator: ", "))")
        }
        if type == "log", kind?.isEmpty ?? true { return ("kind", "a log form needs the activity's kind") }
        if type != "log", kind != nil { return ("kind", "only a log form has a kind") }
        if let newID, !allowed.contains(newID) { return ("newID", "'\(newID)' is not a field of a \(type) event") }
        if backdate, !Self.takesDay(type) { return ("backdate", "a \(type) event has no day to backdate") }
        if let key = values.keys.sorted().first(where: { !allowed.contains($0) }) {
            return ("values.\(key)", "'\(key)' is not a field of a \(type) event")
        }
        var names: Set<String> = []
        for (index, field) in fields.enumerated() {
            let at = "fields[\(index)]"
            guard allowed.contains(field.name) else {
                return ("\(at).name", "'\(field.name)' is not a field of a \(type) event")
            }
            guard names.insert(field.name).inserted, values[field.name] == nil else {
                return ("\(at).name", "'\(field.name)' is given twice")
            }
            if let problem = field.problem { return ("\(at).\(problem.field)", problem.reason) }
        }
        let taps = fields.filter { $0.input == .buttons || $0.input == .checklist }
        if taps.count > 1 { return ("fields", "a form has at most one buttons or checklist field") }
        return nil
    }
}

/// One payload field of a ``LogForm``.
public struct LogField: Hashable, Sendable, Codable {
    /// How the field is entered.
    public enum Input: String, Hashable, Sendable, Codable, CaseIterable {
        /// One line of text, with ``LogField/suggestions`` offered.
        case text
        /// A number, within ``LogField/minimum`` and ``LogField/maximum``, in ``LogField/unit``.
        case number
        /// A date (`YYYY-MM-DD`).
        case date
        /// Several lines of text (a note).
        case note
        /// One of ``LogField/options`` (or of the user's own goals, methods or stages, see
        /// ``LogField/from``).
        case choice
        /// One button per option: a tap records the event.
        case buttons
        /// The options by ``LogOption/group``, each a tap that records it; those already
        /// logged show as done.
        case checklist
    }

    /// Where a choice's options come from when they are the user's own.
    public enum Source: String, Hashable, Sendable, Codable, CaseIterable {
        /// The user's savings goals.
        case goals
        /// The pack's progression methods.
        case methods
        /// The stages of the pack's methods.
        case stages
    }

    /// The payload field it fills (`item`, `value`, `dates.born`).
    public var name: String
    /// The label shown.
    public var label: String
    /// How it is entered.
    public var input: Input
    /// Whether the event needs it.
    public var required: Bool
    /// The options of a choice, buttons or checklist.
    public var options: [LogOption]
    /// Where a choice's options come from when they are the user's own.
    public var from: Source?
    /// Values offered while typing a text field (`sit`, `stay`).
    public var suggestions: [String]
    /// The unit of a number (`kg`, `minutes`, `$`).
    public var unit: String?
    /// The smallest number allowed.
    public var minimum: Double?
    /// The largest number allowed.
    public var maximum: Double?
    /// An example shown in an empty field.
    public var placeholder: String?

    /// Creates a field.
    public init(
        name: String, label: String, input: Input = .text, required: Bool = false, options: [LogOption] = [],
        from: Source? = nil, suggestions: [String] = [], unit: String? = nil, minimum: Double? = nil,
        maximum: Double? = nil, placeholder: String? = nil
    ) {
        self.name = name
        self.label = label
        self.input = input
        self.required = required
        self.options = options
        self.from = from
        self.suggestions = suggestions
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.placeholder = placeholder
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, label, input, required, options, from, suggestions, unit, minimum, maximum, placeholder
    }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Decodes a field; absent fields take the defaults of the initializer.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            name: try c.decode(String.self, forKey: .name), label: try c.decode(String.self, forKey: .label),
            input: try c.decodeIfPresent(Input.self, forKey: .input) ?? .text,
            required: try c.decodeIfPresent(Bool.self, forKey: .required) ?? false,
            options: try c.decodeIfPresent([LogOption].self, forKey: .options) ?? [],
            from: try c.decodeIfPresent(Source.self, forKey: .from),
            suggestions: try c.decodeIfPresent([String].self, forKey: .suggestions) ?? [],
            unit: try c.decodeIfPresent(String.self, forKey: .unit),
            minimum: try c.decodeIfPresent(Double.self, forKey: .minimum),
            maximum: try c.decodeIfPresent(Double.self, forKey: .maximum),
            placeholder: try c.decodeIfPresent(String.self, forKey: .placeholder))
    }

    var problem: (field: String, reason: String)? {
        switch input {
        case .choice:
            if options.isEmpty, from == nil { return ("options", "a choice needs options or 'from'") }
        case .buttons, .checklist:
            if options.isEmpty { return ("options", "\(input.rawValue) need options") }
            if from != nil { return ("from", "\(input.rawValue) take their own options") }
        default:
            if !options.isEmpty || from != nil { return ("options", "only a choice, buttons or checklist has options") }
        }
        if input == .checklist, options.contains(where: { $0.group == nil }) {
            return ("options", "every option of a checklist names its group")
        }
        if let minimum, let maximum, minimum > maximum { return ("minimum", "is above the maximum") }
        var values: Set<String> = []
        for option in options where !values.insert("\(option.group ?? "")/\(option.value)").inserted {
            return ("options", "'\(option.value)' is listed twice")
        }
        return nil
    }
}

/// One option of a choice, buttons or checklist field.
public struct LogOption: Hashable, Sendable, Codable {
    /// The value recorded (`outdoor`).
    public var value: String
    /// The label shown (`Outside`); the value when absent.
    public var label: String
    /// An emoji shown beside the label.
    public var icon: String?
    /// The group a checklist option belongs to (`vehicles`); recorded as the event's `group`.
    public var group: String?

    /// Creates an option.
    public init(value: String, label: String? = nil, icon: String? = nil, group: String? = nil) {
        self.value = value
        self.label = label ?? value
        self.icon = icon
        self.group = group
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case value, label, icon, group }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Decodes an option; its label is its value when absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try UnknownFields.refuse(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            value: try c.decode(String.self, forKey: .value), label: try c.decodeIfPresent(String.self, forKey: .label),
            icon: try c.decodeIfPresent(String.self, forKey: .icon),
            group: try c.decodeIfPresent(String.self, forKey: .group))
    }
}
