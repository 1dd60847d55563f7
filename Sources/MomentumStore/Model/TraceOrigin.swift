import Tracing

/// The W3C trace context of the work that queued something, kept with it so that the work
/// that sends it later continues that trace: a webhook's post is a span of the check-in
/// that caused it, not only of the delivery pass that happened to send it.
///
/// Only well-formed values are kept: a `traceparent` of the W3C form
/// (`00-<32 hex>-<16 hex>-<2 hex>`, ids not all zero) and a `tracestate` of at most 512
/// printable characters.
public struct TraceOrigin: Hashable, Sendable {
    /// The `traceparent` field.
    public let traceparent: String
    /// The `tracestate` field, if any.
    public let tracestate: String?

    /// The most characters of a `tracestate` kept: the length W3C Trace Context asks every
    /// vendor to carry, and a bound on what a caller's header can make the queue store.
    public static let maximumState = 512

    /// A trace context from its two fields; `nil` unless `traceparent` is well formed (a
    /// malformed `tracestate` is dropped).
    public init?(traceparent: String?, tracestate: String? = nil) {
        guard let traceparent, Self.isWellFormed(traceparent) else { return nil }
        self.traceparent = traceparent
        self.tracestate = tracestate.flatMap { state in
            state.count <= Self.maximumState && !state.isEmpty
                && state.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) } ? state : nil
        }
    }

    /// The context of the task's current span, as the bootstrapped instrument writes it;
    /// `nil` with no tracer, or outside any span.
    public static var current: TraceOrigin? {
        guard let context = ServiceContext.current else { return nil }
        var fields: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &fields, using: FieldsInjector())
        return TraceOrigin(traceparent: fields["traceparent"], tracestate: fields["tracestate"])
    }

    /// The fields, as headers or a carrier: `traceparent`, and `tracestate` when there is one.
    public var fields: [String: String] {
        var fields = ["traceparent": traceparent]
        if let tracestate { fields["tracestate"] = tracestate }
        return fields
    }

    /// A service context holding this trace context as the remote parent, as the
    /// bootstrapped instrument reads it.
    public var context: ServiceContext {
        var context = ServiceContext.topLevel
        InstrumentationSystem.instrument.extract(fields, into: &context, using: FieldsExtractor())
        return context
    }

    private static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].count == 2, parts[1].count == 32, parts[2].count == 16, parts[3].count == 2
        else { return false }
        let hex = parts.allSatisfy { part in
            part.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
        }
        return hex && parts[0] != "ff" && parts[1].contains { $0 != "0" } && parts[2].contains { $0 != "0" }
    }

    private struct FieldsInjector: Injector {
        func inject(_ value: String, forKey key: String, into fields: inout [String: String]) { fields[key] = value }
    }

    private struct FieldsExtractor: Extractor {
        func extract(key: String, from fields: [String: String]) -> String? { fields[key] }
    }
}
