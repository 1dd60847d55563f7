import Foundation
import MomentumCore
import Testing

/// `RFC3339.stored` gives the instant the text round trip gives, bit for bit, without the
/// text (the store rounds every instant it writes with it).
struct StoredInstantTests {
    private static func roundTrip(_ date: Date) -> Date {
        RFC3339.parse(RFC3339.format(date)) ?? date
    }

    private static func expectSame(_ interval: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let date = Date(timeIntervalSince1970: interval)
        let stored = RFC3339.stored(date).timeIntervalSince1970
        let expected = roundTrip(date).timeIntervalSince1970
        #expect(
            stored.bitPattern == expected.bitPattern, "\(interval): \(stored) ≠ \(expected)",
            sourceLocation: sourceLocation)
    }

    @Test func storedInstantsAreTheTextRoundTripsBitForBit() {
        var generator = SystemRandomNumberGenerator()
        // Around now, at every millisecond of a few seconds, and where rounding carries.
        for millis in 0..<5_000 { Self.expectSame(1_795_300_000 + Double(millis) / 1000) }
        for base in [0.0, -1, 1_795_300_000, -86_400 * 365.25 * 100] {
            for offset in [0.0004999, 0.0005, 0.0005001, 0.9994999, 0.9995, 0.9995001, 0.999999, 1e-9, -1e-9] {
                Self.expectSame(base + offset)
            }
        }
        // Anywhere in years 0000–9999 and beyond them, at random.
        for _ in 0..<200_000 {
            Self.expectSame(Double.random(in: -62_167_219_200..<253_402_300_800, using: &generator))
            Self.expectSame(Double.random(in: 1_700_000_000..<1_900_000_000, using: &generator))
        }
        for edge in [
            -62_167_219_200.0, -62_167_219_200.0005, -62_167_219_199.9995, 253_402_300_799.9995,
            253_402_300_799.999, 253_402_300_800, 1e15,
        ] {
            Self.expectSame(edge)
        }
        // Where the text cannot be written at all, the instant is kept.
        #expect(RFC3339.stored(Date(timeIntervalSince1970: .infinity)).timeIntervalSince1970 == .infinity)
        #expect(RFC3339.stored(Date(timeIntervalSince1970: 1e300)).timeIntervalSince1970 == 1e300)
    }
}
