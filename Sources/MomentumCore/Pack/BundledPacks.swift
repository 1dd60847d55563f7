import Foundation

extension RulePack {
    /// Seeds 003 and 004: forgiving streaks by default, 1 day of backfill, a first check-in
    /// celebrated for every habit (the first day, week or month done), +20 diamonds per
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
          "version": "1.0.0",
          "title": "Habits",
          "icon": "🔥",
          "eventTypes": ["completion", "skip"],
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
            {"id": "first-check-in", "kind": "streak", "source": "habit", "at": [1], "tier": 2, "badge": "🌱",
             "category": "streaks", "title": "First {unit} done: {habit}"},
            {"id": "streak-7", "kind": "streak", "source": "habit", "at": [7], "tier": 2, "badge": "🔥",
             "category": "streaks", "title": "7-{unit} streak: {habit}"},
            {"id": "streak-milestone", "kind": "streak", "source": "habit", "at": [30, 60, 100, 365], "tier": 3,
             "badge": "🏆", "category": "streaks", "title": "{value}-{unit} streak: {habit}",
             "titleForms": {"one": "{value}-{unit} streak: {habit}"}},
            {"id": "personal-best", "kind": "personalBest", "source": "habit", "minimum": 3, "tier": 2, "badge": "⭐",
             "category": "streaks", "title": "New record on {habit}"},
            {"id": "back-on-track", "kind": "recovery", "source": "habit", "at": [3], "tier": 1, "badge": "💪",
             "category": "streaks", "title": "Back on track: {habit}"},
            {"id": "perfect-week", "kind": "consistency", "source": "habit", "days": 7, "tier": 2, "badge": "📅",
             "category": "consistency", "title": "A perfect week: every habit, 7 days running"},
            {"id": "hard-habit", "kind": "streak", "source": "habit", "difficulty": "hard", "at": [30, 100, 365],
             "tier": 3, "badge": "🏔️", "category": "streaks", "title": "Sustained hard habit: {value} {unit}s of {habit}",
             "titleForms": {"one": "Sustained hard habit: {value} {unit} of {habit}"}}
          ]
        }
        """#

    /// The `ollie` pack's JSON document.
    public static let ollieJSON = #"""
        {
          "name": "ollie",
          "version": "1.0.0",
          "title": "Puppy journal",
          "icon": "🐶",
          "eventTypes": ["log", "subject"],
          "backfillDays": null,
          "forms": [
            {"id": "potty", "title": "Potty break", "icon": "🚽", "type": "log", "kind": "potty", "today": true,
             "fields": [{"name": "item", "label": "Where", "input": "buttons", "options": [
               {"value": "outdoor", "label": "Outside", "icon": "🌳"},
               {"value": "indoor", "label": "Accident inside", "icon": "🏠"}]}]},
            {"id": "meal", "title": "Meal", "icon": "🍗", "type": "log", "kind": "meal", "today": true,
             "fields": [{"name": "item", "label": "Which", "input": "buttons", "options": [
               {"value": "breakfast", "label": "Breakfast", "icon": "🌅"},
               {"value": "lunch", "label": "Lunch", "icon": "☀️"},
               {"value": "dinner", "label": "Dinner", "icon": "🌙"}]}]},
            {"id": "walk", "title": "Walk", "icon": "🦮", "type": "log", "kind": "walk", "today": true,
             "fields": [{"name": "value", "label": "Minutes", "input": "number", "unit": "min", "minimum": 1,
                         "maximum": 600, "placeholder": "20"}]},
            {"id": "command", "title": "Command learned", "icon": "🐾", "type": "log", "kind": "command",
             "fields": [{"name": "item", "label": "Command", "required": true, "placeholder": "sit",
                         "suggestions": ["sit", "down", "stay", "come", "heel", "leave it", "drop it", "wait",
                                         "paw", "touch", "spin", "roll over", "place", "off"]},
                        {"name": "note", "label": "Note", "input": "note"}]},
            {"id": "social", "title": "Socialization checklist", "icon": "🌍", "type": "log", "kind": "social",
             "hint": "Tap what your puppy met calmly. Good coverage by 16 weeks completes the socialization window.",
             "fields": [{"name": "item", "label": "Experience", "input": "checklist", "options": [
               {"group": "people", "value": "children", "label": "Children", "icon": "🧒"},
               {"group": "people", "value": "men-with-beards", "label": "Men with beards", "icon": "🧔"},
               {"group": "people", "value": "hats", "label": "People in hats", "icon": "👒"},
               {"group": "people", "value": "uniforms", "label": "People in uniform", "icon": "👮"},
               {"group": "people", "value": "wheelchairs", "label": "Wheelchairs and walkers", "icon": "🧑‍🦽"},
               {"group": "animals", "value": "cats", "label": "Cats", "icon": "🐈"},
               {"group": "animals", "value": "birds", "label": "Birds", "icon": "🐦"},
               {"group": "animals", "value": "horses", "label": "Horses", "icon": "🐎"},
               {"group": "animals", "value": "livestock", "label": "Farm animals", "icon": "🐄"},
               {"group": "places", "value": "park", "label": "Park", "icon": "🏞️"},
               {"group": "places", "value": "pet-store", "label": "Pet store", "icon": "🏬"},
               {"group": "places", "value": "cafe", "label": "Café terrace", "icon": "☕"},
               {"group": "places", "value": "city-street", "label": "Busy street", "icon": "🏙️"},
               {"group": "sounds", "value": "thunder", "label": "Thunder", "icon": "⛈️"},
               {"group": "sounds", "value": "vacuum", "label": "Vacuum cleaner", "icon": "🧹"},
               {"group": "sounds", "value": "doorbell", "label": "Doorbell", "icon": "🔔"},
               {"group": "vehicles", "value": "car", "label": "Car", "icon": "🚗"},
               {"group": "vehicles", "value": "bus", "label": "Bus", "icon": "🚌"},
               {"group": "vehicles", "value": "train", "label": "Train", "icon": "🚆"},
               {"group": "vehicles", "value": "bicycle", "label": "Bicycle", "icon": "🚲"},
               {"group": "vehicles", "value": "truck", "label": "Truck", "icon": "🚚"},
               {"group": "surfaces", "value": "grass", "label": "Grass", "icon": "🌱"},
               {"group": "surfaces", "value": "gravel", "label": "Gravel", "icon": "🪨"},
               {"group": "surfaces", "value": "sand", "label": "Sand", "icon": "🏖️"},
               {"group": "surfaces", "value": "tile", "label": "Tile", "icon": "🔲"},
               {"group": "surfaces", "value": "wood", "label": "Wood", "icon": "🪵"},
               {"group": "surfaces", "value": "metal", "label": "Metal grate", "icon": "🔩"},
               {"group": "handling", "value": "paws", "label": "Paws touched", "icon": "🐾"},
               {"group": "handling", "value": "ears", "label": "Ears checked", "icon": "👂"},
               {"group": "handling", "value": "teeth", "label": "Teeth brushed", "icon": "🪥"}]}]},
            {"id": "dog", "title": "Dog met", "icon": "🐕", "type": "log", "kind": "social",
             "values": {"group": "dogs"},
             "fields": [{"name": "item", "label": "Dog's name", "required": true, "placeholder": "Biscuit"},
                        {"name": "note", "label": "Note", "input": "note"}]},
            {"id": "vaccination", "title": "Vaccination", "icon": "💉", "type": "log", "kind": "vaccination",
             "fields": [{"name": "item", "label": "Vaccine", "input": "choice", "required": true, "options": [
               {"value": "dhpp-1", "label": "DHPP, first dose"}, {"value": "dhpp-2", "label": "DHPP, second dose"},
               {"value": "dhpp-3", "label": "DHPP, third dose"}, {"value": "rabies", "label": "Rabies"}]},
                        {"name": "note", "label": "Note", "input": "note"}]},
            {"id": "vet", "title": "Vet visit", "icon": "🩺", "type": "log", "kind": "vet",
             "fields": [{"name": "note", "label": "What the vet said", "input": "note"}]},
            {"id": "weight", "title": "Weight", "icon": "⚖️", "type": "log", "kind": "weight",
             "fields": [{"name": "value", "label": "Weight", "input": "number", "unit": "kg", "required": true,
                         "minimum": 0.1, "maximum": 150, "placeholder": "8.5"},
                        {"name": "item", "label": "Vet's verdict", "input": "choice", "options": [
                          {"value": "healthy", "label": "A healthy weight"}]}]},
            {"id": "overnight", "title": "Night away from home", "icon": "🏕️", "type": "log", "kind": "overnight",
             "fields": [{"name": "note", "label": "Where", "input": "note"}]},
            {"id": "puppy", "title": "Your puppy", "icon": "🐶", "type": "subject", "newID": "subject",
             "values": {"kind": "puppy"},
             "fields": [{"name": "name", "label": "Name", "required": true, "placeholder": "Ollie"},
                        {"name": "dates.born", "label": "Birthday", "input": "date"},
                        {"name": "dates.gotcha", "label": "Gotcha day (came home)", "input": "date"}]}
          ],
          "achievements": [
            {"id": "potty-first-outdoor", "kind": "first", "match": {"kind": "potty", "item": "outdoor"}, "tier": 2,
             "badge": "🌱", "category": "potty", "title": "First outdoor potty"},
            {"id": "potty-streak-day", "kind": "streak", "match": {"kind": "potty", "item": "outdoor"},
             "breaks": {"kind": "potty", "item": "indoor"}, "every": 1, "minimum": 2, "tier": 1, "badge": "🔥",
             "category": "potty", "title": "{value} days in a row outside",
             "titleForms": {"one": "{value} day in a row outside"}},
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
             "category": "potty", "title": "New record: {value} days of outdoor potty",
             "titleForms": {"one": "New record: {value} day of outdoor potty"}},
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
             "at": [10, 50], "tier": 2, "badge": "🐕", "category": "socialization", "title": "{value} dogs met",
             "titleForms": {"one": "{value} dog met"}},
            {"id": "social-items", "kind": "distinctCount", "match": {"kind": "social"}, "every": 10, "tier": 1,
             "badge": "🌍", "category": "socialization", "title": "{value} socialization experiences",
             "titleForms": {"one": "{value} socialization experience"}},
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
             "badge": "⚖️", "category": "health", "title": "First healthy weight at the vet"},
            {"id": "walk-first", "kind": "first", "match": {"kind": "walk"}, "tier": 2, "badge": "🦮",
             "category": "lifestyle", "title": "First walk"},
            {"id": "walks", "kind": "count", "match": {"kind": "walk"}, "at": [25, 50, 100], "tier": 2, "badge": "🦮",
             "category": "lifestyle", "title": "{value} walks logged",
             "titleForms": {"one": "{value} walk logged"}},
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
          "version": "1.0.0",
          "title": "Savings",
          "icon": "💰",
          "eventTypes": ["goal", "contribution"],
          "backfillDays": 31,
          "forms": [
            {"id": "contribution", "title": "Add to a goal", "icon": "🪙", "type": "contribution", "today": true,
             "fields": [{"name": "goal", "label": "Goal", "input": "choice", "from": "goals", "required": true},
                        {"name": "amount", "label": "Amount", "input": "number", "unit": "$", "required": true,
                         "minimum": 0.01, "maximum": 1000000000, "placeholder": "50"},
                        {"name": "note", "label": "Note", "input": "note"}]},
            {"id": "goal", "title": "New goal", "icon": "🎯", "type": "goal", "newID": "goal",
             "fields": [{"name": "name", "label": "Name", "required": true, "placeholder": "Trip to Bali"},
                        {"name": "category", "label": "Category", "input": "choice", "required": true, "options": [
                          {"value": "vacation", "label": "Vacation", "icon": "🏖️"},
                          {"value": "house", "label": "House", "icon": "🏠"},
                          {"value": "wedding", "label": "Wedding", "icon": "💍"},
                          {"value": "retirement", "label": "Retirement", "icon": "🌅"},
                          {"value": "education", "label": "Education", "icon": "🎓"},
                          {"value": "car", "label": "Car", "icon": "🚗"},
                          {"value": "investment", "label": "Investment", "icon": "📈"},
                          {"value": "emergency", "label": "Emergency fund", "icon": "🛟"},
                          {"value": "other", "label": "Other", "icon": "💰"}]},
                        {"name": "target", "label": "Target", "input": "number", "unit": "$", "required": true,
                         "minimum": 1, "maximum": 1000000000, "placeholder": "5000"}]}
          ],
          "achievements": [
            {"id": "first-contribution", "kind": "first", "match": {"type": "contribution"}, "tier": 1, "badge": "🪙",
             "category": "savings", "title": "First contribution to {goal}"},
            {"id": "savings-small", "kind": "amount", "at": [1000], "tier": 2, "badge": "✨", "category": "savings",
             "title": "First milestone! {amount} saved"},
            {"id": "savings-medium", "kind": "amount", "at": [5000, 10000], "tier": 2, "badge": "💪",
             "category": "savings", "title": "Growing strong! {amount} saved"},
            {"id": "savings-large", "kind": "amount", "at": [25000], "tier": 2, "badge": "🌟", "category": "savings",
             "title": "Quarter century! {amount} saved"},
            {"id": "savings-epic", "kind": "amount", "at": [50000, 100000], "tier": 3, "badge": "🏆",
             "category": "savings", "title": "Incredible savings! {amount} saved"},
            {"id": "goal-completed", "kind": "goalCompleted", "tier": 3, "badge": "🎯", "category": "savings",
             "title": "Goal reached: {goal}"}
          ]
        }
        """#

    /// The `growth` pack's JSON document.
    public static let growthJSON = #"""
        {
          "name": "growth",
          "version": "1.0.0",
          "title": "Growth",
          "icon": "🌱",
          "eventTypes": ["stage"],
          "backfillDays": 7,
          "forms": [
            {"id": "stage", "title": "Record a stage", "icon": "🪜", "type": "stage",
             "hint": "Moving back a stage is part of growth too; it is recorded as it is.",
             "fields": [{"name": "method", "label": "Method", "input": "choice", "from": "methods", "required": true},
                        {"name": "to", "label": "Stage reached", "input": "choice", "from": "stages", "required": true},
                        {"name": "note", "label": "What changed", "input": "note"}]}
          ],
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
