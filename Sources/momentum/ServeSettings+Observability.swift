import MomentumServices

extension ServeSettings {
    /// Tracing (OTLP export), the form of the log lines, and the admin listener of the
    /// probes and metrics.
    static let observability: [Setting] = [
        Setting(
            key: "otlpEndpoint", kind: .text,
            help:
                "The OTLP/HTTP collector's base URL (http://collector:4318) that spans are sent to, at /v1/traces; no tracing when unset.",
            read: { $0.server.observability.otlpEndpoint.map(Setting.Value.text) },
            write: { settings, value throws(Setting.Problem) in
                guard case .text(let text) = value else { return }
                let lowered = text.lowercased()
                guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
                    throw Setting.Problem("'\(text)' is not an http: or https: URL")
                }
                settings.server.observability.otlpEndpoint = text
            }),
        .text(
            "serviceName", \.server.observability.serviceName,
            help: "The service.name the spans carry.",
            check: { $0.isEmpty ? "must not be empty" : nil }),
        Setting(
            key: "traceSampleRatio", kind: .text,
            help:
                "The share of new traces recorded, 0 to 1 (0.1: one in ten); a request that arrives in a trace follows its caller's choice.",
            read: { .text(Self.ratio($0.server.observability.traceSampleRatio)) },
            write: { settings, value throws(Setting.Problem) in
                guard case .text(let text) = value else { return }
                guard let ratio = Double(text.trimmingCharacters(in: .whitespaces)), ratio >= 0, ratio <= 1 else {
                    throw Setting.Problem("'\(text)' is not a number from 0 to 1")
                }
                settings.server.observability.traceSampleRatio = ratio
            }),
        Setting(
            key: "logFormat", kind: .choice(ObservabilitySettings.LogFormat.allCases.map(\.rawValue)),
            help: "The form of the log lines: logfmt, or json (one object per line).",
            read: { .text($0.server.observability.logFormat.rawValue) },
            write: { settings, value in
                if case .text(let word) = value, let format = ObservabilitySettings.LogFormat(rawValue: word) {
                    settings.server.observability.logFormat = format
                }
            }),
        .optionalText(
            "adminHost", \.server.observability.adminHost,
            help: "The address of the admin listener (with adminPort); 127.0.0.1 when unset."),
        Setting(
            key: "adminPort", kind: .integer(0...65_535),
            help:
                "The port of an admin listener for /metrics, /livez, /readyz and /healthz, which then answer there only (404 on the public port); unset: on the public port.",
            read: { $0.server.observability.adminPort.map(Setting.Value.integer) },
            write: { settings, value in
                if case .integer(let port) = value { settings.server.observability.adminPort = port }
            }),
    ]

    /// A ratio as the table shows it: `1`, `0.25`.
    private static func ratio(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
