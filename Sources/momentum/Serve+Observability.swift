import Logging
import MomentumServer
import MomentumServices
import OTel
import ServiceLifecycle

extension Serve {
    /// Sets up the process's logging (the format `logFormat` names) and, when
    /// `otlpEndpoint` is set, its tracer: swift-otel's, exporting spans over OTLP/HTTP.
    /// Without an endpoint nothing is bootstrapped, so the tracer is the no-op one and the
    /// tracing code in the server, the store and the deliveries steps aside.
    ///
    /// swift-otel also reads the standard `OTEL_*` environment variables (for instance
    /// `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json`), which override these settings.
    ///
    /// - Parameter configuration: The server's configuration.
    /// - Returns: The exporter's service, to run beside the application, when tracing is on.
    /// - Throws: What swift-otel throws for a configuration it refuses.
    static func bootstrapObservability(_ configuration: ServerConfiguration) throws -> (any Service)? {
        let level = configuration.logLevel
        let format = configuration.observability.logFormat
        let settings = configuration.observability
        guard let endpoint = settings.otlpEndpoint else {
            LoggingSystem.bootstrap { label in MomentumLogHandler(label: label, level: level, format: format) }
            return nil
        }
        LoggingSystem.bootstrap(
            { label, provider in
                var handler = MomentumLogHandler(label: label, level: level, format: format)
                handler.metadataProvider = provider
                return handler
            }, metadataProvider: TraceLogMetadata.provider)
        var otel = OTel.Configuration.default
        otel.serviceName = settings.serviceName
        otel.logs.enabled = false
        otel.metrics.enabled = false
        otel.traces.enabled = true
        otel.traces.exporter = .otlp
        otel.traces.otlpExporter.protocol = .httpProtobuf
        otel.traces.otlpExporter.endpoint =
            (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + "/v1/traces"
        // The caller's decision for a request that arrives in a trace; the ratio for new ones.
        otel.traces.sampler =
            .parentBasedTraceIDRatio(ratio: min(max(settings.traceSampleRatio, 0), 1)) ?? .parentBasedAlwaysOn
        otel.propagators = [.traceContext]
        otel.diagnosticLogger = .custom(Logger(label: "momentum.otel"))
        otel.diagnosticLogLevel = .warning
        return try OTel.bootstrap(configuration: otel)
    }
}
