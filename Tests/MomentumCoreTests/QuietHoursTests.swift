import Foundation
import MomentumCore
import Testing

/// An instant from a local wall-clock time, by Foundation's calendar (the reference).
private func local(_ zone: String, _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

/// Quiet hours, the daily cap and what each channel carries (seed 004 R11.5): pure
/// decisions, checked against Foundation's calendar across DST changes.
@Suite struct QuietHoursTests {
    let night = QuietHours(from: 22 * 60, to: 7 * 60)

    @Test func overnightHoursEndTheNextMorningOrThisMorning() {
        let berlin = ZoneOffsetTable.named("Europe/Berlin")!
        // 23:30 on July 14: quiet until 07:00 on the 15th.
        #expect(
            night.end(after: local("Europe/Berlin", 2026, 7, 14, 23, 30), in: berlin)
                == local("Europe/Berlin", 2026, 7, 15, 7))
        // 02:00: quiet until 07:00 the same morning.
        #expect(
            night.end(after: local("Europe/Berlin", 2026, 7, 15, 2), in: berlin)
                == local("Europe/Berlin", 2026, 7, 15, 7))
        // 22:00 is quiet, 07:00 and 21:59 are not.
        #expect(night.end(after: local("Europe/Berlin", 2026, 7, 14, 22), in: berlin) != nil)
        #expect(night.end(after: local("Europe/Berlin", 2026, 7, 15, 7), in: berlin) == nil)
        #expect(night.end(after: local("Europe/Berlin", 2026, 7, 14, 21, 59), in: berlin) == nil)
        // Daytime hours (a nap from 13:00 to 15:00) do not wrap.
        let nap = QuietHours(from: 13 * 60, to: 15 * 60)
        #expect(
            nap.end(after: local("Europe/Berlin", 2026, 7, 14, 14), in: berlin)
                == local("Europe/Berlin", 2026, 7, 14, 15))
        #expect(nap.end(after: local("Europe/Berlin", 2026, 7, 14, 16), in: berlin) == nil)
    }

    @Test func theNightsTheClocksChangeEndAtTheRealSevenOClock() {
        let berlin = ZoneOffsetTable.named("Europe/Berlin")!
        // March 29, 2026: 02:00 becomes 03:00 in Berlin; October 25: 03:00 becomes 02:00.
        for (day, month) in [(28, 3), (29, 3), (24, 10), (25, 10)] {
            let end = night.end(after: local("Europe/Berlin", 2026, month, day, 23), in: berlin)
            #expect(end == local("Europe/Berlin", 2026, month, day + 1, 7), "\(month)/\(day)")
        }
        // Quiet hours that end at a time the clocks skip end when the clocks reach it.
        let skipped = QuietHours(from: 23 * 60, to: 2 * 60 + 30)
        #expect(
            skipped.end(after: local("Europe/Berlin", 2026, 3, 28, 23, 30), in: berlin)
                == local("Europe/Berlin", 2026, 3, 29, 3, 30))
        // New York and Lord Howe (a 30-minute shift) agree with Foundation too.
        let newYork = ZoneOffsetTable.named("America/New_York")!
        #expect(
            night.end(after: local("America/New_York", 2026, 3, 7, 23), in: newYork)
                == local("America/New_York", 2026, 3, 8, 7))
        let lordHowe = ZoneOffsetTable.named("Australia/Lord_Howe")!
        #expect(
            night.end(after: local("Australia/Lord_Howe", 2026, 4, 4, 23), in: lordHowe)
                == local("Australia/Lord_Howe", 2026, 4, 5, 7))
    }

    @Test func preferencesSayWhatEachChannelCarriesAndRefuseNonsense() throws {
        var preferences = NotificationPreferences(weeklySummary: true)
        #expect(preferences.wants(.milestone, on: .webPush))
        preferences.channels[.webPush] = ChannelPreference(kinds: [.milestone, .streakAtRisk])
        preferences.channels[.apns] = ChannelPreference(enabled: false)
        #expect(preferences.wants(.milestone, on: .webPush))
        #expect(!preferences.wants(.reminder, on: .webPush))
        #expect(!preferences.wants(.milestone, on: .apns))
        #expect(preferences.wants(.reminder, on: .webhook))
        // The inbox has every kind the user wants, whatever the channels say.
        #expect(preferences.wants(.reminder, on: .inApp))
        preferences.reminders = false
        #expect(!preferences.wants(.reminder, on: .inApp) && !preferences.wants(.reminder, on: .webhook))

        preferences.quietHours = night
        preferences.dailyCap = 3
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(preferences)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""quietHours":{"from":"22:00","to":"07:00"}"#), "\(text)")
        #expect(try JSONDecoder().decode(NotificationPreferences.self, from: json) == preferences)
        // Saved before these fields existed: no quiet hours, no cap, every channel.
        let old = try JSONDecoder().decode(NotificationPreferences.self, from: Data(#"{"reminders": true}"#.utf8))
        #expect(old.quietHours == nil && old.dailyCap == nil && old.channels.isEmpty)

        #expect(NotificationPreferences(dailyCap: 0).problem == "the daily cap must be 1 to 100, not 0")
        #expect(NotificationPreferences(dailyCap: 101).problem != nil)
        #expect(NotificationPreferences(quietHours: QuietHours(from: 60, to: 60)).problem != nil)
        #expect(NotificationPreferences(quietHours: QuietHours(from: -1, to: 60)).problem != nil)
        #expect(NotificationPreferences(channels: [.inApp: ChannelPreference(enabled: false)]).problem != nil)
        for bad in [#"{"quietHours": {"from": "25:00", "to": "07:00"}}"#, #"{"channels": {"sms": {}}}"#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(NotificationPreferences.self, from: Data(bad.utf8))
            }
        }
        // Extreme instants do not trap.
        for seconds in [-1e300, -1e12, 0, 1e12, 1e300, .infinity, -.infinity, .nan] {
            _ = night.end(after: Date(timeIntervalSince1970: seconds), in: ZoneOffsetTable.named("Europe/Berlin")!)
        }
    }
}
