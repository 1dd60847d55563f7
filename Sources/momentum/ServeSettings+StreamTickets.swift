extension ServeSettings {
    /// Web clients on other origins: who may open the change stream with a ticket, who may
    /// send credentials, what answers expose, and how long a stream ticket lasts.
    static let webOrigins: [Setting] = [
        .list(
            "corsStreamOrigins", \.server.corsStreamOrigins,
            help: "Origins whose pages may open the change stream with a stream ticket, and nothing else; * for any."),
        .list(
            "corsCredentialOrigins", \.server.corsCredentialOrigins,
            help:
                "Allowed origins that may also send cookies (Access-Control-Allow-Credentials); exact origins, never *."
        ),
        .list(
            "corsExposedHeaders", \.server.corsExposedHeaders,
            help: "Answer headers allowed pages may read, besides X-Request-ID, Retry-After and the API's own."),
        .seconds(
            "streamTicketLifetime", 5...600, \.server.streamTicketLifetime,
            help: "Seconds a stream ticket (POST /v1/stream-tickets) opens the change stream, once."),
    ]
}
