import Foundation

extension RulePack {
    /// Seeds 003 and 004: forgiving streaks by default, 1 day of backfill, +20 diamonds per
    /// 10 streak days and +N at every 100th, +30 for every 30 streak periods of a hard habit
    /// (seed 004's extra recognition for hard habits), one earned freeze per 30-day
    /// milestone, seed 003's freeze store, and streak milestones 7/30/60/100/365 with
    /// badges, personal bests, recoveries and perfect weeks.
    public static let habits = bundled("habits", habitsJSON)

    /// Seed 000 (Ollie, a puppy journal): every item of its achievement categories — potty
    /// training, commands, socialization, health, lifestyle and time-based — with no
    /// backfill limit.
    public static let ollie = bundled("ollie", ollieJSON)

    /// Seed 002 (savings): goals completed, by goal category, and amount milestones at the
    /// boundaries of its milestone tiers.
    public static let savings = bundled("savings", savingsJSON)

    /// Seed 001 (growth): progression methods with ordered stages, celebrated on every
    /// advance and with a major celebration at each method's final stage.
    public static let growth = bundled("growth", growthJSON)

    private static func bundled(_ name: String, _ json: String) -> RulePack {
        do {
            return try decode(Data(json.utf8), source: "bundled pack '\(name)'")
        } catch {
            fatalError("\(error)")
        }
    }

    /// The `habits` pack's JSON document.
    public static let habitsJSON = #"""
        {
          "name": "habits",
          "defaultPolicy": "forgiving",
          "backfillDays": 1,
          "rewards": [
            {"every": 10, "diamonds": 20},
            {"every": 100, "diamonds": "streak"},
            {"every": 30, "diamonds": 30, "difficulty": "hard"}
          ],
          "earnedFreezeEvery": 30,
          "streakMilestones": [7, 30, 60, 100, 365],
          "achievements": [
            {"id": "streak-7", "kind": "streak", "source": "habit", "at": [7], "tier": 2, "badge": "🔥",
             "category": "streaks", "title": "7-{unit} streak: {habit}"},
            {"id": "streak-milestone", "kind": "streak", "source": "habit", "at": [30, 60, 100, 365], "tier": 3,
             "badge": "🏆", "category": "streaks", "title": "{value}-{unit} streak: {habit}"},
            {"id": "personal-best", "kind": "personalBest", "source": "habit", "minimum": 3, "tier": 2, "badge": "⭐",
             "category": "streaks", "title": "New record on {habit}"},
            {"id": "back-on-track", "kind": "recovery", "source": "habit", "at": [3], "tier": 1, "badge": "💪",
             "category": "streaks", "title": "Back on track: {habit}"},
            {"id": "perfect-week", "kind": "consistency", "source": "habit", "days": 7, "tier": 2, "badge": "📅",
             "category": "consistency", "title": "A perfect week: every habit, 7 days running"},
            {"id": "hard-habit", "kind": "streak", "source": "habit", "difficulty": "hard", "at": [30, 100, 365],
             "tier": 3, "badge": "🏔️", "category": "streaks", "title": "Sustained hard habit: {value} {unit}s of {habit}"}
          ]
        }
        """#

    /// The `ollie` pack's JSON document.
    public static let ollieJSON = #"""
        {
          "name": "ollie",
          "backfillDays": null,
          "achievements": [
            {"id": "potty-first-outdoor", "kind": "first", "match": {"kind": "potty", "item": "outdoor"}, "tier": 2,
             "badge": "🌱", "category": "potty", "title": "First outdoor potty"},
            {"id": "potty-streak-day", "kind": "streak", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "every": 1, "minimum": 2, "tier": 1, "badge": "🔥",
             "category": "potty", "title": "{value} days in a row outside"},
            {"id": "potty-streak-3", "kind": "streak", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "at": [3], "tier": 1, "badge": "🔥",
             "category": "potty", "title": "3-day outdoor potty streak"},
            {"id": "potty-streak-7", "kind": "streak", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "at": [7], "tier": 2, "badge": "🏅",
             "category": "potty", "title": "7-day outdoor potty streak"},
            {"id": "potty-trained", "kind": "streak", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "at": [14], "tier": 3, "badge": "🎓",
             "category": "potty", "title": "Potty trained! 14 days of outdoor success"},
            {"id": "potty-record", "kind": "personalBest", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "minimum": 3, "tier": 2, "badge": "⭐",
             "category": "potty", "title": "New record: {value} days of outdoor potty"},
            {"id": "potty-recovery", "kind": "recovery", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "at": [2], "tier": 1, "badge": "💪",
             "category": "potty", "title": "Back on track after an accident"},
            {"id": "command-first", "kind": "first", "match": {"kind": "command"}, "tier": 2, "badge": "🐾",
             "category": "commands", "title": "First command learned: {item}"},
            {"id": "command-each", "kind": "distinctCount", "match": {"kind": "command"}, "every": 1, "minimum": 2,
             "tier": 1, "badge": "🐾", "category": "commands", "title": "New command: {item}"},
            {"id": "commands-5", "kind": "distinctCount", "match": {"kind": "command"}, "at": [5], "tier": 2,
             "badge": "🎖️", "category": "commands", "title": "5 commands mastered"},
            {"id": "commands-10", "kind": "distinctCount", "match": {"kind": "command"}, "at": [10], "tier": 2,
             "badge": "🌟", "category": "commands", "title": "10 commands mastered: star pupil!"},
            {"id": "social-first-dog", "kind": "first", "match": {"kind": "social", "group": "dogs"}, "tier": 2,
             "badge": "🐕", "category": "socialization", "title": "First dog met: {item}"},
            {"id": "social-dogs-10", "kind": "distinctCount", "match": {"kind": "social", "group": "dogs"},
             "at": [10, 50], "tier": 2, "badge": "🐕", "category": "socialization", "title": "{value} dogs met"},
            {"id": "social-items", "kind": "distinctCount", "match": {"kind": "social"}, "every": 10, "tier": 1,
             "badge": "🌍", "category": "socialization", "title": "{value} socialization experiences"},
            {"id": "social-vehicles", "kind": "setCompleted", "match": {"kind": "social", "group": "vehicles"},
             "items": ["car", "bus", "train", "bicycle", "truck"], "tier": 2, "badge": "🚌",
             "category": "socialization", "title": "All vehicle types experienced"},
            {"id": "social-surfaces", "kind": "setCompleted", "match": {"kind": "social", "group": "surfaces"},
             "items": ["grass", "gravel", "sand", "tile", "wood", "metal"], "tier": 2, "badge": "🪵",
             "category": "socialization", "title": "All surfaces explored"},
            {"id": "social-window", "kind": "combination", "date": "born", "unit": "weeks", "at": [16],
             "coverage": {"match": {"kind": "social"}, "total": 30, "atLeast": 0.6}, "tier": 3, "badge": "🎉",
             "category": "socialization", "title": "Socialization window complete"},
            {"id": "health-first-vaccination", "kind": "first", "match": {"kind": "vaccination"}, "tier": 2,
             "badge": "💉", "category": "health", "title": "First vaccination"},
            {"id": "health-vaccinations", "kind": "setCompleted", "match": {"kind": "vaccination"},
             "items": ["dhpp-1", "dhpp-2", "dhpp-3", "rabies"], "tier": 3, "badge": "🛡️", "category": "health",
             "title": "All puppy vaccinations complete"},
            {"id": "health-first-vet", "kind": "first", "match": {"kind": "vet"}, "tier": 2, "badge": "🩺",
             "category": "health", "title": "First vet checkup"},
            {"id": "health-weight", "kind": "first", "match": {"kind": "weight", "item": "healthy"}, "tier": 2,
             "badge": "⚖️", "category": "health", "title": "Healthy weight milestone"},
            {"id": "walk-first", "kind": "first", "match": {"kind": "walk"}, "tier": 2, "badge": "🦮",
             "category": "lifestyle", "title": "First walk"},
            {"id": "walks", "kind": "count", "match": {"kind": "walk"}, "at": [25, 50, 100], "tier": 2, "badge": "🦮",
             "category": "lifestyle", "title": "{value} walks logged"},
            {"id": "overnight-first", "kind": "first", "match": {"kind": "overnight"}, "tier": 2, "badge": "🏕️",
             "category": "lifestyle", "title": "First overnight stay away from home"},
            {"id": "complete-logs", "kind": "consistency", "source": "log", "require": ["potty", "meal"], "days": 5,
             "tier": 1, "badge": "📓", "category": "consistency", "title": "5 days of complete logs"},
            {"id": "weeks-old", "kind": "age", "date": "born", "unit": "weeks", "every": 1, "maximum": 16,
             "includePast": false, "tier": 2, "badge": "🐶", "category": "time", "title": "{name} is {age} old!"},
            {"id": "month-birthday", "kind": "age", "date": "born", "unit": "months", "every": 1, "minimum": 3,
             "maximum": 11, "tier": 2, "badge": "🎂", "category": "time", "title": "{name} is {age} old!"},
            {"id": "first-birthday", "kind": "age", "date": "born", "unit": "years", "at": [1], "tier": 3,
             "badge": "🎂", "category": "time", "title": "{name}'s first birthday!"},
            {"id": "gotcha-day", "kind": "age", "date": "gotcha", "unit": "years", "every": 1, "tier": 2,
             "badge": "🏡", "category": "time", "title": "Gotcha day: {age} together"}
          ]
        }
        """#

    /// The `savings` pack's JSON document.
    public static let savingsJSON = #"""
        {
          "name": "savings",
          "backfillDays": 31,
          "achievements": [
            {"id": "first-contribution", "kind": "first", "match": {"type": "contribution"}, "tier": 1, "badge": "🪙",
             "category": "savings", "title": "First contribution to {goal}"},
            {"id": "savings-small", "kind": "amount", "at": [1000], "tier": 2, "badge": "✨", "category": "savings",
             "title": "First milestone! {value} saved"},
            {"id": "savings-medium", "kind": "amount", "at": [5000, 10000], "tier": 2, "badge": "💪",
             "category": "savings", "title": "Growing strong! {value} saved"},
            {"id": "savings-large", "kind": "amount", "at": [25000], "tier": 2, "badge": "🌟", "category": "savings",
             "title": "Quarter century! {value} saved"},
            {"id": "savings-epic", "kind": "amount", "at": [50000, 100000], "tier": 3, "badge": "🏆",
             "category": "savings", "title": "Incredible savings! {value} saved"},
            {"id": "goal-completed", "kind": "goalCompleted", "tier": 3, "badge": "🎯", "category": "savings",
             "title": "Goal reached: {goal}"}
          ]
        }
        """#

    /// The `growth` pack's JSON document.
    public static let growthJSON = #"""
        {
          "name": "growth",
          "backfillDays": 7,
          "methods": [
            {"id": "meditation", "name": "Meditation", "stages": [
              {"id": "beginner", "name": "Beginner", "order": 1},
              {"id": "steady", "name": "Steady Sitter", "order": 2},
              {"id": "deepening", "name": "Deepening", "order": 3},
              {"id": "master", "name": "Master", "order": 4}]},
            {"id": "journaling", "name": "Journaling", "stages": [
              {"id": "first-pages", "name": "First Pages", "order": 1},
              {"id": "daily-writer", "name": "Daily Writer", "order": 2},
              {"id": "reflective", "name": "Reflective Writer", "order": 3}]}
          ],
          "achievements": [
            {"id": "meditation-stage", "kind": "stageReached", "method": "meditation", "tier": 2, "badge": "🧘",
             "category": "growth", "title": "Meditation: reached {stage}"},
            {"id": "meditation-master", "kind": "stageReached", "method": "meditation", "stage": "master", "tier": 3,
             "badge": "🏔️", "category": "growth", "title": "Meditation mastered"},
            {"id": "journaling-stage", "kind": "stageReached", "method": "journaling", "tier": 2, "badge": "📔",
             "category": "growth", "title": "Journaling: reached {stage}"},
            {"id": "journaling-final", "kind": "stageReached", "method": "journaling", "stage": "reflective",
             "tier": 3, "badge": "🪶", "category": "growth", "title": "Reflective Writer: the final stage"}
          ]
        }
        """#
}
