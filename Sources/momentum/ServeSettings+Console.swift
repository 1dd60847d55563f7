extension ServeSettings {
    /// The operator's console (`/console`): whether it is on, and where it answers.
    static let console: [Setting] = [
        .toggle(
            "consoleEnabled", \.server.console.enabled,
            help: "Serve the operator's console at /console (off: every console path is 404)."),
        .list(
            "consoleHosts", \.server.console.hosts,
            help:
                "The Host header values the console answers on (console.example.com, or with a port); other hosts get 404 for every console path. None: any host."
        ),
        .list(
            "consoleOrigins", \.server.console.origins,
            help:
                "The origins (https://console.example.com) the console's forms may be posted from. None: only the request's own origin (its Host and scheme)."
        ),
    ]
}
