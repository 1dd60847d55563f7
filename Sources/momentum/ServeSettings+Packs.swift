extension ServeSettings {
    /// Packs as configuration (uploaded with the admin API or the console).
    static let packs: [Setting] = [
        .integer(
            "packsMaxBytes", 1_024...67_108_864, \.server.packs.maxBytes,
            help: "The largest pack upload, in bytes; a larger one is refused (413) before it is read."),
        .integer(
            "packsRefreshSeconds", 1...3_600, \.server.packs.refreshSeconds,
            help:
                "Seconds between reloads of the active pack versions on each instance (the instance that activates one reloads at once)."
        ),
    ]
}
