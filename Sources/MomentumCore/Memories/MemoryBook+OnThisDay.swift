extension MemoryBook {
    /// The memories to bring back on a day: seed 000's "On this day".
    ///
    /// Two kinds of anniversary count:
    /// - **Yearly**: memories from the same month and day in earlier years.
    /// - **Monthly, for young subjects**: memories from the same day of the month in earlier
    ///   months, while the memory's subject is younger than one year on `day` (its `born`
    ///   date from ``Subject/dates``, so a puppy's first weeks come back month by month).
    ///
    /// A memory on a day the shown month lacks (the 29th to 31st, or February 29 in a common
    /// year) comes back on that month's last day: a memory of January 31 comes back on
    /// April 30. Memories whose subject is unknown or has no `born` date come back yearly only.
    ///
    /// - Parameters:
    ///   - day: The local day to show (the user's today).
    ///   - subjects: The user's subjects, for their birth dates.
    /// - Returns: The memories, newest first, each once.
    public func onThisDay(_ day: LocalDay, subjects: [Subject] = []) -> [Memory] {
        let today = day.civil
        let births = Dictionary(subjects.map { ($0.id, $0.dates["born"]) }, uniquingKeysWith: { first, _ in first })
        return scrapbook.filter { memory in
            let then = memory.day.civil
            guard memory.day < day, Self.day(then.day, fallingIn: today.month, of: today.year) == today.day else {
                return false
            }
            if then.month == today.month, then.year < today.year { return true }
            guard let subject = memory.subjectID, let born = births[subject] ?? nil else { return false }
            return day >= born && day < Self.firstBirthday(of: born)
        }
    }

    /// The day a day of the month falls on in another month: itself, or the month's last day
    /// when the month is shorter.
    static func day(_ dayOfMonth: Int, fallingIn month: Int, of year: Int) -> Int {
        min(dayOfMonth, LocalDay.daysIn(month: month, year: year))
    }

    /// The first birthday of someone born on a day; February 29 births turn one on February 28.
    static func firstBirthday(of born: LocalDay) -> LocalDay {
        let (year, month, dayOfMonth) = born.civil
        return LocalDay(year: year + 1, month: month, day: day(dayOfMonth, fallingIn: month, of: year + 1))!
    }
}
