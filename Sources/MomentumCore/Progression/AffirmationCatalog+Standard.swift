extension AffirmationCatalog {
    /// Momentum's English catalog: five or six templates per occasion, at least four of them
    /// without `{name}`, and a fast advance below 7 days.
    public static let standard = AffirmationCatalog(
        templates: [
            .init(id: "start.1", kind: .start, text: "Your {method} journey begins at {to}. Every stage starts here."),
            .init(id: "start.2", kind: .start, text: "Welcome to {method}! {to} is where your growth begins."),
            .init(
                id: "start.3", kind: .start,
                text: "You've started {method} at stage {stage_number} of {stage_count}. Here's to the road ahead."),
            .init(
                id: "start.4", kind: .start, text: "A fresh start: {to} in {method}. Show up, and the stages follow."),
            .init(id: "start.5", kind: .start, text: "Welcome aboard, {name}! Your {method} journey starts at {to}."),

            .init(
                id: "advance.1", kind: .advance,
                text: "After {duration} at {from}, you've reached {to}. Your practice is paying off."),
            .init(id: "advance.2", kind: .advance, text: "Stage {stage_number} of {stage_count}: welcome to {to}!"),
            .init(id: "advance.3", kind: .advance, text: "From {from} to {to}: your {method} practice keeps growing."),
            .init(
                id: "advance.4", kind: .advance, text: "{to} unlocked! {duration} of dedication at {from} got you here."
            ),
            .init(id: "advance.5", kind: .advance, text: "Well done, {name}! You've advanced to {to} in {method}."),
            .init(id: "advance.6", kind: .advance, text: "{name}, your time at {from} paid off: you're now at {to}."),

            .init(
                id: "fast.1", kind: .fastAdvance,
                text: "You went from {from} to {to} in {duration}. Impressive momentum!"),
            .init(
                id: "fast.2", kind: .fastAdvance,
                text: "That was quick! {to} in {method}, stage {stage_number} already."),
            .init(id: "fast.3", kind: .fastAdvance, text: "Fast progress: {from} to {to} in {duration}."),
            .init(
                id: "fast.4", kind: .fastAdvance,
                text: "You're on a roll: {to} already, stage {stage_number} of {stage_count} in {method}."),
            .init(id: "fast.5", kind: .fastAdvance, text: "Look at you go, {name}! {from} to {to} in {duration}."),

            .init(
                id: "final.1", kind: .finalStage,
                text: "You've reached {to}, the final stage of {method}. What a journey!"
            ),
            .init(
                id: "final.2", kind: .finalStage, text: "All {stage_count} stages of {method}: you made it to the top!"),
            .init(
                id: "final.3", kind: .finalStage, text: "The summit of {method}: {to}. Your persistence got you here."),
            .init(
                id: "final.4", kind: .finalStage,
                text: "Final stage reached! {to} is the reward for every session you put in."),
            .init(id: "final.5", kind: .finalStage, text: "{name}, you've reached the final stage of {method}: {to}!"),

            .init(
                id: "regression.1", kind: .regression,
                text: "Back to {to} in {method}. Every journey has switchbacks, and you've got this."),
            .init(
                id: "regression.2", kind: .regression,
                text: "Returning to {to} is part of growing. Your progress still counts."),
            .init(
                id: "regression.3", kind: .regression,
                text: "A step back to {to} builds a stronger base for what comes next."),
            .init(
                id: "regression.4", kind: .regression,
                text: "{to} again, with everything you learned at {from}. Keep going."),
            .init(
                id: "regression.5", kind: .regression,
                text: "It still counts, {name}. {to} is a solid place to build from."),
        ],
        titles: [
            .start: "{method} started",
            .advance: "Stage {stage_number}: {to}",
            .fastAdvance: "Quick climb to {to}",
            .finalStage: "Final stage reached: {to}",
            .regression: "Back to {to}",
        ],
        fastAdvanceDays: 7)
}
