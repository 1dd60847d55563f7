extension ServeSettings {
    /// Server keys of apps' backends (created with the admin API).
    static let serverKeys: [Setting] = [
        .integer(
            "serverKeyFailuresPerMinute", 0...100_000, \.server.serverKeyFailuresPerMinute,
            help:
                "Failed server keys a client address may show per minute before its server-key calls are refused (429) for a while; 0: no limit."
        )
    ]
}
