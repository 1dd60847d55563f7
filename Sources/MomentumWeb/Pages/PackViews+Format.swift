import Foundation
import MomentumCore
import MomentumServices
import MomentumStore

/// The words and numbers of the packs' pages: ages, durations, tiers, money.
extension WebViews {
    // MARK: Formatting

    /// An age in the words seed 000 uses: "9 weeks", then "4 months", then "1 year, 2 months".
    static func age(from born: LocalDay, to today: LocalDay) -> String {
        let days = today.number - born.number
        guard days >= 0 else { return L("packs.age.notBornYet") }
        if days < 7 { return span(days, .day) }
        if days < 16 * 7 { return span(days / 7, .week) }
        let (by, bm, bd) = born.civil
        let (ty, tm, td) = today.civil
        var months = (ty - by) * 12 + (tm - bm)
        if td < bd { months -= 1 }
        let years = months / 12
        let rest = months % 12
        if years == 0 { return span(months, .month) }
        return rest == 0
            ? span(years, .year) : L("packs.age.pair", ["first": span(years, .year), "second": span(rest, .month)])
    }

    /// A stay at a stage by ``StageDuration``'s rules, in the page's language: "less than a
    /// day", "3 weeks, 2 days", "1 year, 1 month".
    static func duration(_ duration: StageDuration) -> String {
        guard duration.wholeDays > 0 else { return L("packs.age.lessThanADay") }
        var remaining = duration.wholeDays
        var parts: [String] = []
        for unit in [SpanUnit.year, .month, .week, .day] where parts.count < 2 {
            let count = remaining / unit.days
            remaining %= unit.days
            if count > 0 { parts.append(span(count, unit)) }
        }
        return parts.count == 2 ? L("packs.age.pair", ["first": parts[0], "second": parts[1]]) : parts[0]
    }

    /// The units of an age or a stay, with their lengths in ``StageDuration``'s days.
    enum SpanUnit {
        case day, week, month, year

        var days: Int {
            switch self {
            case .day: 1
            case .week: 7
            case .month: 30
            case .year: 365
            }
        }
    }

    /// A number of days, weeks, months or years: "1 day", "3 weeks".
    static func span(_ count: Int, _ unit: SpanUnit) -> String {
        switch unit {
        case .day: Wording.current.count("packs.age.days", count)
        case .week: Wording.current.count("packs.age.weeks", count)
        case .month: Wording.current.count("packs.age.months", count)
        case .year: Wording.current.count("packs.age.years", count)
        }
    }

    /// "stage 2 of 5".
    static func stageOf(_ number: Int, _ count: Int) -> String {
        L("packs.method.stageOf", ["number": integer(number), "total": integer(count)])
    }

    /// How a record moved along a method: "start", "advance", "regression".
    static func kindName(_ kind: ProgressionTimelineItem.Kind) -> String {
        switch kind {
        case .start: L("packs.kind.start")
        case .advance: L("packs.kind.advance")
        case .regression: L("packs.kind.regression")
        }
    }

    /// A savings milestone's tier as the ladder names it.
    static func tierName(_ tier: MilestoneTier) -> String {
        switch tier {
        case .small: L("packs.tier.small")
        case .medium: L("packs.tier.medium")
        case .large: L("packs.tier.large")
        case .epic: L("packs.tier.epic")
        }
    }

    /// A checklist group's heading: the bundled packs' groups by name, any other group's
    /// identifier capitalized.
    static func groupName(_ group: String) -> String {
        switch group {
        case "animals": L("packs.group.animals")
        case "dogs": L("packs.group.dogs")
        case "handling": L("packs.group.handling")
        case "people": L("packs.group.people")
        case "places": L("packs.group.places")
        case "sounds": L("packs.group.sounds")
        case "surfaces": L("packs.group.surfaces")
        case "vehicles": L("packs.group.vehicles")
        default: group.prefix(1).uppercased() + group.dropFirst()
        }
    }

    /// A family member's role as the family line names it.
    static func roleName(_ role: String) -> String {
        switch role {
        case "owner": L("packs.role.owner")
        case FamilyRole.coOwner.rawValue: L("packs.role.coOwner")
        case FamilyRole.caregiver.rawValue: L("packs.role.caregiver")
        case FamilyRole.viewer.rawValue: L("packs.role.viewer")
        default: role
        }
    }

    /// An amount of money in the page's language (`$1,234.50`, `R$ 1.234,50`); whole amounts
    /// without cents (`$1,000`), as seed 002 writes them; a value that is not finite as zero.
    static func money(_ amount: Double) -> String {
        let strings = Wording.current
        let cents = amount.isFinite ? (amount * 100).rounded() : 0
        guard cents.truncatingRemainder(dividingBy: 100) == 0 else { return strings.money(amount) }
        let whole = cents == 0 ? 0 : cents / 100
        return whole.formatted(.currency(code: strings.currency).precision(.fractionLength(0)).locale(strings.locale))
    }

    /// A number in the page's language without a needless fraction: `8`, `8.5`, `8.25`.
    static func number(_ value: Double) -> String {
        Wording.current.number(value.isFinite ? value : 0, fractionDigits: 2)
    }

    /// A whole number in the page's language.
    static func integer(_ value: Int) -> String {
        Wording.current.number(Double(value))
    }

    /// A number as an HTML attribute (`min`, `max`) reads it, the same in every language:
    /// `8`, `8.5`, `8.25`.
    static func attribute(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.2f", value).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    static func json(_ values: [String: String]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: values, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
