import Foundation
import MomentumCore
import Testing

/// Every name the tz database defines is a zone Momentum accepts, links and fixed offsets
/// included; nothing else is.
struct TimeZoneNameTests {
    /// The zone and link names of the installed tz database (tzdata.zi), and its release.
    static func installedDatabase() throws -> (version: String?, names: Set<String>) {
        let text = try String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8)
        var version: String?
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if line.hasPrefix("# version "), fields.count >= 3 { version = String(fields[2]) }
            guard fields.count >= 3 else { continue }
            // `Z NAME STDOFF …` defines a zone, `L TARGET NAME` a link.
            if fields[0] == "Z" { names.insert(String(fields[1])) }
            if fields[0] == "L" { names.insert(String(fields[2])) }
        }
        return (version, names)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/tzdata.zi")))
    func everyZoneAndLinkOfTheInstalledDatabaseIsAccepted() throws {
        let (version, names) = try Self.installedDatabase()
        #expect(names.count > 500)
        for name in ["GMT+0", "GMT-0", "GMT0", "Etc/GMT+5", "US/Eastern", "Asia/Calcutta", "Greenwich", "UCT", "Zulu"] {
            #expect(names.contains(name), "\(name)")
        }
        let refused = names.filter { ZoneOffsetTable.named($0) == nil }.sorted()
        #expect(refused.isEmpty, "\(refused)")
        if version == ZoneOffsetTable.tzDatabaseVersion {
            // The same release: exactly its names, no more.
            #expect(ZoneOffsetTable.tzDatabaseNames == names)
        }
    }

    @Test func fixedOffsetNamesFollowTheirDatabaseMeaning() throws {
        // POSIX sign convention: Etc/GMT+5 is five hours behind UTC.
        #expect(try #require(ZoneOffsetTable.named("Etc/GMT+5")).offset(atSecond: 1_800_000_000) == -18_000)
        #expect(try #require(ZoneOffsetTable.named("Etc/GMT-14")).offset(atSecond: 1_800_000_000) == 50_400)
        for name in ["GMT+0", "GMT-0", "GMT0", "Greenwich", "UCT", "Zulu", "UTC", "Etc/UTC"] {
            let table = try #require(ZoneOffsetTable.named(name), "\(name)")
            #expect(table.offset(atSecond: 1_800_000_000) == 0, "\(name)")
            // The table answers to the name it was asked by, not Foundation's (`GMT`).
            #expect(table.identifier == name)
        }
        let calcutta = try #require(ZoneOffsetTable.named("Asia/Calcutta"))
        #expect(calcutta.offset(atSecond: 1_800_000_000) == 19_800)
    }

    @Test func namesOutsideTheDatabaseAreRefused() {
        // Foundation makes up zones for several of these (`GMT+5`, `UTC+5`, `PST`); the tz
        // database defines none of them.
        for name in [
            "Mars/Olympus", "GMT+5", "GMT-5", "GMT+05:00", "UTC+5", "+05:00", "", "../etc/passwd", "PST", "CEST",
            "utc", "europe/paris", "Europe/Paris ", "Europe//Paris", "/usr/share/zoneinfo/UTC", "posixrules",
            "localtime", "right/UTC", "posix/Europe/Paris", "zone.tab", String(repeating: "A", count: 10_000),
        ] {
            #expect(ZoneOffsetTable.named(name) == nil, "\(name)")
            #expect(!ZoneOffsetTable.isTZDatabaseName(name), "\(name)")
        }
    }

    @Test func eventsInDatabaseNamesAreAcceptedAndOthersRefusedWithTheUnknownZoneError() throws {
        var engine = UserEngine()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for (index, zone) in ["GMT+0", "GMT-0", "Etc/GMT+5", "US/Eastern", "Zulu"].enumerated() {
            let event = Event(
                id: "ok\(index)", at: now, timeZone: zone, payload: .skip(habit: nil, day: nil, note: nil))
            #expect(try engine.append(event, now: now) == .applied, "\(zone)")
        }
        for (index, zone) in ["GMT+5", "Mars/Olympus", "+05:00", "", "../etc/passwd"].enumerated() {
            let event = Event(
                id: "bad\(index)", at: now, timeZone: zone, payload: .skip(habit: nil, day: nil, note: nil))
            #expect(throws: MomentumError.self, "\(zone)") { try engine.append(event, now: now) }
            do {
                _ = try engine.append(event, now: now)
            } catch {
                #expect(error.code == .unknownTimeZone, "\(zone)")
            }
        }
    }
}
