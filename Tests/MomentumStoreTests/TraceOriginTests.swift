import MomentumStore
import Testing

/// The trace context kept with a queued webhook message: only a well-formed `traceparent`
/// is kept, and a `tracestate` only when it is within W3C's bound.
struct TraceOriginTests {
    static let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func aWellFormedTraceparentIsKeptWithItsState() throws {
        let origin = try #require(TraceOrigin(traceparent: Self.parent, tracestate: "vendor=abc,other=1"))
        #expect(origin.traceparent == Self.parent)
        #expect(origin.fields == ["traceparent": Self.parent, "tracestate": "vendor=abc,other=1"])
        #expect(TraceOrigin(traceparent: Self.parent)?.fields == ["traceparent": Self.parent])
    }

    @Test(arguments: [
        nil, "", "00", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",  // upper case
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // no trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // no span id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // a forbidden version
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0١",  // a digit that is not ASCII
        String(repeating: "0", count: 100_000),
    ])
    func aMalformedTraceparentKeepsNothing(_ traceparent: String?) {
        #expect(TraceOrigin(traceparent: traceparent, tracestate: "vendor=abc") == nil)
    }

    @Test func aTracestateOutsideTheBoundIsDropped() throws {
        let long = String(repeating: "a", count: TraceOrigin.maximumState + 1)
        for state in [long, "", "tab\there", "é=1", "line\nbreak"] {
            let origin = try #require(TraceOrigin(traceparent: Self.parent, tracestate: state))
            #expect(origin.tracestate == nil, "\(state.prefix(20))")
        }
        let longest = String(repeating: "a", count: TraceOrigin.maximumState)
        #expect(TraceOrigin(traceparent: Self.parent, tracestate: longest)?.tracestate == longest)
    }
}
