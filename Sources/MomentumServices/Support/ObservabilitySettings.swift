/// How the server can be watched: where traces go, the form of its log lines, and the
/// listener the probes and metrics answer on.
public struct ObservabilitySettings: Sendable {
    /// The form of the log lines.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// `time level label: message key=value …` (logfmt after a prefix).
        case logfmt
        /// One JSON object per line: `time`, `level`, `message`, `label`, the metadata, and
        /// `trace_id` and `span_id` while a span is active.
        case json
    }

    /// The OTLP/HTTP collector's base URL (`http://collector:4318`); spans are posted to
    /// its `/v1/traces`. No tracer is set up when it is unset (the no-op tracer).
    public var otlpEndpoint: String?
    /// The `service.name` every span carries.
    public var serviceName: String = "momentum"
    /// The share of new traces recorded, from 0 to 1; a request that arrives in a trace
    /// follows its caller's decision.
    public var traceSampleRatio: Double = 1
    /// The form of the log lines.
    public var logFormat: LogFormat = .logfmt
    /// The address of the admin listener; 127.0.0.1 when only ``adminPort`` is set.
    public var adminHost: String?
    /// The port of the admin listener (0 picks a free one). When set, `/metrics`,
    /// `/livez`, `/readyz` and `/healthz` answer there only, and the public port answers
    /// 404 for them.
    public var adminPort: Int?

    /// Settings with nothing traced, logfmt lines and no admin listener.
    public init() {}

    /// What is wrong with these settings beside a public listener on `port`, if anything:
    /// an admin host without an admin port, the admin port the public one, a sample ratio
    /// outside 0…1.
    ///
    /// - Parameter port: The public port.
    /// - Returns: The problem, in words.
    public func problem(publicPort port: Int) -> String? {
        if adminHost != nil, adminPort == nil { return "adminHost needs adminPort: the admin listener's port" }
        if let adminPort, adminPort != 0, adminPort == port {
            return "adminPort \(adminPort) is the public port: the admin listener needs a port of its own"
        }
        if !(0...1).contains(traceSampleRatio) { return "traceSampleRatio must be from 0 to 1" }
        return nil
    }

    /// Where the admin listener listens, when there is one.
    public var adminAddress: (host: String, port: Int)? {
        adminPort.map { (adminHost ?? "127.0.0.1", $0) }
    }
}
