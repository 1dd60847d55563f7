import Foundation

extension Translation {
    /// The units a streak counts (``Coaching/unit(_:)``) and an age is told in.
    static let units = ["day", "week", "month", "year", "period"]

    /// An amount of a unit: "1 day", "12 days" (the plural group `count.<unit>`).
    ///
    /// A unit without texts of its own reads as English adds an "s", so any unit a caller
    /// names is written.
    func count(_ count: Int, _ unit: String) -> String {
        self.count(String(count), value: Double(count), unit)
    }

    /// An amount already written as text ("1,000"), in the form of `value`.
    func count(_ written: String, value: Double, _ unit: String) -> String {
        Self.fill(text("count.\(unit)", count: value, english: Self.englishCount(unit)), ["count": written])
    }

    /// The length of a streak, as it qualifies the streak: "12-day" in "your 12-day streak"
    /// (the plural group `streak.<unit>`).
    func streakLength(_ count: Int, _ unit: String) -> String {
        let english: [PluralCategory: String] = [.one: "{count}-\(unit)", .other: "{count}-\(unit)"]
        return Self.fill(text("streak.\(unit)", count: Double(count), english: english), ["count": String(count)])
    }

    /// The name of a unit on its own ("day" in "that day"; `unit.<unit>`).
    func unitName(_ unit: String) -> String {
        text("unit.\(unit)", default: unit)
    }

    /// The word that fills `{unit}` in achievement titles, for the title's `{value}` (the
    /// plural group `pack.unit.<unit>`). English titles write "7-{unit} streak" and
    /// "{value} {unit}s", so English's word is the bare singular in every form; a language
    /// writes whatever form its titles need ("dia", "dias").
    func titleUnit(_ unit: String, count: Double?) -> String {
        text("pack.unit.\(unit)", count: count ?? .nan, english: [.one: unit, .other: unit])
    }

    /// An ordinal number: "1st", "22nd", "50th" in English (`ordinal.one`, `.two`, `.few`,
    /// `.other`, chosen by English's rule: 1, 2 and 3 but not 11, 12 or 13 in the last two
    /// digits).
    func ordinal(_ value: Int) -> String {
        let category: String
        switch (value.magnitude % 100, value.magnitude % 10) {
        case (11...13, _): category = "other"
        case (_, 1): category = "one"
        case (_, 2): category = "two"
        case (_, 3): category = "few"
        default: category = "other"
        }
        return Self.fill(
            text("ordinal.\(category)", default: Self.englishOrdinals[category] ?? "{count}"), ["count": String(value)])
    }

    /// An amount of money: the number with cents only when there are some, in the
    /// language's currency pattern (`number.money`, "${amount}"): "$1,000", "-$12.50".
    func money(_ value: Double) -> String {
        var amount = number(abs(value))
        if let separator = amount.range(of: decimalSeparator),
            amount.distance(from: separator.upperBound, to: amount.endIndex) == 1
        {
            amount += "0"
        }
        let text = Self.fill(text("number.money", default: "${amount}"), ["amount": amount])
        return (value < 0 && amount != "0" ? "-" : "") + text
    }

    // MARK: Calendar

    /// The full name of a month, 1 to 12 (`date.month.<january>`).
    func monthName(_ month: Int) -> String {
        let english = Self.monthNames[min(max(month, 1), 12) - 1]
        return text("date.month.\(english.lowercased())", default: english)
    }

    /// A day written briefly: "Tue 3 Mar 2026" in English (`date.readable`, with
    /// `date.weekday.short.<monday>` and `date.month.short.<january>`).
    func readable(_ day: LocalDay) -> String {
        let (year, month, date) = day.civil
        let weekday = Self.weekdayNames[day.weekday.rawValue - 1]
        let monthName = Self.monthNames[month - 1]
        return Self.fill(
            text("date.readable", default: "{weekday} {day} {month} {year}"),
            [
                "weekday": text("date.weekday.short.\(weekday.lowercased())", default: String(weekday.prefix(3))),
                "day": String(date),
                "month": text("date.month.short.\(monthName.lowercased())", default: String(monthName.prefix(3))),
                "year": String(year),
            ])
    }

    /// A day written in full: "February 27, 2026" in English (`date.long`).
    func longDate(_ day: LocalDay) -> String {
        let (year, month, date) = day.civil
        return Self.fill(
            text("date.long", default: "{month} {day}, {year}"),
            ["month": monthName(month), "day": String(date), "year": String(year)])
    }

    /// "on Monday": the weekday of a day earlier this week (`relative.on.<monday>`).
    func onWeekday(_ weekday: Weekday) -> String {
        let english = Self.weekdayNames[weekday.rawValue - 1]
        return text("relative.on.\(english.lowercased())", default: "on \(english)")
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    private static func englishCount(_ unit: String) -> [PluralCategory: String] {
        [.one: "{count} \(unit)", .other: "{count} \(unit)s"]
    }

    private static let englishOrdinals = [
        "one": "{count}st", "two": "{count}nd", "few": "{count}rd", "other": "{count}th",
    ]

    /// The plural groups among the texts above: a unit's amount, a streak's length and a
    /// title's unit word. (Ordinals are not: their forms follow English's ordinal rule.)
    static var wordPluralKeys: [String] {
        units.flatMap { ["count.\($0)", "streak.\($0)", "pack.unit.\($0)"] }
    }

    /// Every key of the texts above, with its English text.
    static var wordEntries: [(key: String, english: String)] {
        var entries: [(key: String, english: String)] = []
        for unit in units {
            entries += [
                ("count.\(unit).one", "{count} \(unit)"), ("count.\(unit).other", "{count} \(unit)s"),
                ("streak.\(unit).one", "{count}-\(unit)"), ("streak.\(unit).other", "{count}-\(unit)"),
                ("unit.\(unit)", unit), ("pack.unit.\(unit).one", unit), ("pack.unit.\(unit).other", unit),
            ]
        }
        entries += englishOrdinals.sorted { $0.key < $1.key }.map { ("ordinal.\($0.key)", $0.value) }
        entries.append(("number.money", "${amount}"))
        entries += [("date.readable", "{weekday} {day} {month} {year}"), ("date.long", "{month} {day}, {year}")]
        for month in monthNames {
            entries.append(("date.month.\(month.lowercased())", month))
            entries.append(("date.month.short.\(month.lowercased())", String(month.prefix(3))))
        }
        for weekday in weekdayNames {
            entries.append(("date.weekday.short.\(weekday.lowercased())", String(weekday.prefix(3))))
            entries.append(("relative.on.\(weekday.lowercased())", "on \(weekday)"))
        }
        return entries
    }
}
