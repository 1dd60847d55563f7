import Logging
import Tracing

/// Puts the active span's ids on every log line: `trace_id` (32 hex digits) and `span_id`
/// (16), read from the W3C `traceparent` the bootstrapped tracer would send, so that a
/// line can be found from its trace and the other way round. Nothing while no span is
/// active, or with no tracer.
public enum TraceLogMetadata {
    /// The metadata provider for `LoggingSystem.bootstrap(_:metadataProvider:)`.
    public static let provider = Logger.MetadataProvider {
        guard let context = InstrumentationContext.current else { return [:] }
        var fields: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &fields, using: FieldsInjector())
        guard let parent = fields["traceparent"], let ids = ids(inTraceparent: parent) else { return [:] }
        return ["trace_id": .string(ids.trace), "span_id": .string(ids.span)]
    }

    /// The trace and span ids of a `traceparent` (`00-<trace>-<span>-<flags>`), when it is
    /// one.
    ///
    /// - Parameter traceparent: The header's value.
    /// - Returns: The ids, in lower-case hex.
    public static func ids(inTraceparent traceparent: String) -> (trace: String, span: String)? {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[1].count == 32, parts[2].count == 16,
            parts[1].allSatisfy(\.isHexDigit), parts[2].allSatisfy(\.isHexDigit),
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        return (parts[1].lowercased(), parts[2].lowercased())
    }

    private struct FieldsInjector: Injector {
        func inject(_ value: String, forKey key: String, into fields: inout [String: String]) {
            fields[key] = value
        }
    }
}
