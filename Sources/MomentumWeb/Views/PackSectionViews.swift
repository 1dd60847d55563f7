/// `/packs/:pack`: one of the user's packs (the puppy journal, savings, growth) in whole.
struct PackPage: TemplateModel {
    static let template = "pack"

    var section: PackSection
}

/// A pack's section (the `packsection` partial): in whole on its page, its one-tap forms
/// and what matters today on Today. A string that would be empty is `nil`, as a template's
/// `{{#hint}}` is true of any string, the empty one too.
struct PackSection: Codable {
    /// Who the journal is about, and how old.
    struct Subject: Codable {
        var id: String
        var name: String
        var emblem: String
        var hasPhoto: Bool
        var photo: String
        var age: String?
        var born: String?
        var gotcha: String?
        var addPhoto: String
        var removePhotoLabel: String
        var shareWithFamily: String
    }

    /// A streak of a logged activity, named by the form that logs it.
    struct Streak: Codable {
        var label: String
        var icon: String
        var current: String
        var best: String
        var days: String
    }

    /// A count of a form's: walks logged, dogs met, the checklist's coverage, the latest weight.
    struct Stat: Codable {
        var icon: String
        var label: String
        var value: String
        var note: String
    }

    /// A savings goal.
    struct Goal: Codable {
        var id: String
        var name: String
        var icon: String
        var category: String
        var percent: Int
        var completed: Bool
        var progress: String
        var left: String
    }

    /// An amount milestone on the way, reached or not (seed 002's tiers).
    struct Rung: Codable {
        var amount: String
        var tier: String
        var tierName: String
        var reached: Bool
        var next: Bool
    }

    /// A growth method and the stage it is at.
    struct Method: Codable {
        /// An advance (or regression) of the method.
        struct Step: Codable {
            var stage: String?
            var stageOf: String?
            var kind: String?
            var day: String?
            var note: String?
            var time: String?
        }

        var name: String?
        var id: String?
        var count: Int
        var notStarted: Bool?
        var stage: String?
        var stageOf: String?
        var percent: Int?
        var final: Bool?
        var since: String?
        var affirmation: String?
        var hasTimeline: Bool?
        var timeline: [Step]?
    }

    /// A recent entry, with its Remove.
    struct Entry: Codable {
        var event: String?
        var icon: String?
        var what: String?
        var note: String?
        var day: String?
        var removeLabel: String?
    }

    /// A milestone of the pack's.
    struct Badge: Codable {
        var badge: String
        var title: String
        var day: String
        var unlock: String
        var postLabel: String
    }

    var name: String?
    var title: String?
    var icon: String?
    var href: String?
    var whole: Bool
    var forms: [LogFormView]
    var subject: Subject?
    /// The subject's family (the puppy's caregivers), on the pack's page only.
    var family: FamilyCard?
    var noSubject: Bool?
    var streaks: [Streak]
    var hasStreaks: Bool
    var stats: [Stat]?
    var hasStats: Bool
    var goals: [Goal]?
    var hasGoals: Bool?
    var noGoals: Bool?
    var ladder: [Rung]?
    var totalSaved: String?
    var methods: [Method]?
    var recent: [Entry]?
    var hasRecent: Bool?
    var badges: [Badge]?
    var hasBadges: Bool?
}

/// A pack's logging form (the `logform` partial); empty strings are `nil`, as in ``PackSection``.
struct LogFormView: Codable {
    /// A tap of a buttons or checklist form.
    struct Tap: Codable {
        var value: String
        var label: String
        var icon: String
        var group: String
        var done: Bool
    }

    /// One tap per option.
    struct Buttons: Codable {
        var field: String
        var options: [Tap]
    }

    /// The options by group, those logged done.
    struct Checklist: Codable {
        /// A group of the checklist.
        struct Group: Codable {
            var label: String
            var options: [Tap]
            var progress: String
        }

        var field: String
        var groups: [Group]
        var progress: String
    }

    /// The day a form may log, back to the pack's window.
    struct Backdate: Codable {
        var max: String?
        var min: String?
        var window: String?
    }

    /// A field of the form; the key named after its input (`text`, `number`…) is `true`.
    struct Field: Codable {
        /// A choice's option.
        struct Option: Codable {
            var value: String
            var label: String?
            var selected: Bool?
            var from: String?
            var next: String?
            var method: String?
        }

        /// The stages of a method, for a stage choice.
        struct Group: Codable {
            var label: String
            var method: String
            var options: [Option]
        }

        var name: String?
        var label: String?
        var required: Bool
        var value: String
        var placeholder: String?
        var unit: String?
        var id: String?
        var text: Bool?
        var number: Bool?
        var date: Bool?
        var note: Bool?
        var choice: Bool?
        var min: String?
        var max: String?
        var suggestions: [String]?
        var hasSuggestions: Bool?
        var options: [Option]?
        var groups: [Group]?
        var hasSelection: Bool
    }

    var key: String?
    var title: String?
    var icon: String?
    var hint: String?
    var type: String?
    var kind: String?
    var newID: String?
    var values: String?
    var submit: String?
    var backdate: Backdate?
    var checklist: Checklist?
    var buttons: Buttons?
    var fields: [Field]
    var hasFields: Bool
    var hasSubmit: Bool
    var needsGoal: Bool?
}

extension String {
    /// The string, or `nil` when empty (what ``WebViews/dropEmpty(_:)`` did to a context).
    var nonEmpty: String? { isEmpty ? nil : self }
}
