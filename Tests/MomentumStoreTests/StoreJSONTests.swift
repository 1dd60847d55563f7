import Foundation
import MomentumCore
import Testing

@testable import MomentumStore

/// What the store writes is what it can read back: a value that cannot be encoded is an
/// error, never a stored `null`.
struct StoreJSONTests {
    struct Reading: Codable { var value: Double }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aValueThatCannotBeEncodedThrowsInsteadOfStoringNull(value: Double) {
        do {
            let stored = try StoreJSON.encode(Reading(value: value))
            Issue.record("encoded as \(stored)")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message.contains("cannot be stored"))
        }
    }

    @Test func anEncodableValueRoundTrips() throws {
        let text = try StoreJSON.encode(Reading(value: 12.5))
        #expect(text == #"{"value":12.5}"#)
        #expect(try StoreJSON.decode(Reading.self, text, "reading").value == 12.5)
    }
}
