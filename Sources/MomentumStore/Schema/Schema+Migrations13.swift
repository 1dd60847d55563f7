extension Schema {
    /// Version 13 of ``migrations``: the W3C trace context of the work that queued each
    /// webhook event message (`trace_parent`, `trace_state` on `webhook_messages`), so that
    /// its post continues the trace of the request that caused it (``TraceOrigin``).
    static let migrations13: [Migration] = [
        Migration(
            version: 13, name: "webhook_trace_origin",
            sqlite: traceOriginStatements,
            postgres: traceOriginStatements
        )
    ]

    private static let traceOriginStatements = [
        "ALTER TABLE webhook_messages ADD COLUMN trace_parent TEXT",
        "ALTER TABLE webhook_messages ADD COLUMN trace_state TEXT",
    ]
}
