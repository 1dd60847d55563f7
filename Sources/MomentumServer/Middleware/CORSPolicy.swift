import Foundation
import MomentumServices

/// Which pages on other origins may read which answers, decided per origin from the
/// settings `corsOrigins`, `corsStreamOrigins`, `corsCredentialOrigins` and
/// `corsExposedHeaders`.
///
/// - An origin in `corsOrigins` (or any, with `*`) may call the whole API; its pages send
///   a bearer token, not cookies.
/// - An origin in `corsStreamOrigins` (or any, with `*`) may read the change stream only
///   (`GET /v1/stream`, opened with a stream ticket): every other answer is kept from it.
/// - An allowed origin also in `corsCredentialOrigins` is echoed with
///   `Access-Control-Allow-Credentials: true`, so its pages may send cookies. That list
///   takes exact origins only, so an arbitrary origin is never echoed with credentials:
///   `*` answers `Access-Control-Allow-Origin: *`, which browsers never combine with
///   credentials.
struct CORSPolicy: Sendable {
    /// What an allowed origin gets.
    struct Grant: Equatable, Sendable {
        /// The `Access-Control-Allow-Origin` value: the origin, or `*`.
        var allowOrigin: String
        /// Whether `Access-Control-Allow-Credentials: true` goes with it.
        var credentials: Bool
        /// Whether only the change stream is open to it (its preflights allow `GET` only).
        var streamOnly: Bool
    }

    /// The path of the change stream, the one route stream origins may read.
    static let streamPath = "/v1/stream"
    /// The headers every allowed page may read.
    static let exposedByDefault = ["X-Request-ID", "Idempotent-Replayed", "Retry-After", "Momentum-Device-Key"]

    let api: Set<String>
    let stream: Set<String>
    let credentials: Set<String>
    /// The `Access-Control-Expose-Headers` value.
    let exposedHeaders: String

    init(_ configuration: ServerConfiguration) {
        api = Set(configuration.corsOrigins)
        stream = Set(configuration.corsStreamOrigins)
        credentials = Set(configuration.corsCredentialOrigins)
        exposedHeaders = (Self.exposedByDefault + configuration.corsExposedHeaders).joined(separator: ", ")
    }

    /// Whether no origin is allowed anything (the middleware is then not installed).
    var isEmpty: Bool { api.isEmpty && stream.isEmpty }

    /// What a page of `origin` may read at `path`, or `nil` when nothing.
    func grant(origin: String, path: String) -> Grant? {
        let isStream = path == Self.streamPath
        let apiAllowed = api.contains(origin) || api.contains("*")
        let streamAllowed = isStream && (stream.contains(origin) || stream.contains("*"))
        guard apiAllowed || streamAllowed else { return nil }
        let streamOnly = !apiAllowed
        if credentials.contains(origin) {
            return Grant(allowOrigin: origin, credentials: true, streamOnly: streamOnly)
        }
        let listed = api.contains(origin) || (isStream && stream.contains(origin))
        return Grant(allowOrigin: listed ? origin : "*", credentials: false, streamOnly: streamOnly)
    }

    /// What is wrong with the CORS settings, if anything: an entry that is not an origin as
    /// browsers send it (`scheme://host[:port]`, lowercase, no path), `*` or an origin no
    /// other list allows among the credential origins, a header name that is not a token.
    static func problem(in configuration: ServerConfiguration) -> String? {
        let lists = [
            ("corsOrigins", configuration.corsOrigins), ("corsStreamOrigins", configuration.corsStreamOrigins),
            ("corsCredentialOrigins", configuration.corsCredentialOrigins),
        ]
        for (name, origins) in lists {
            for origin in origins where !(origin == "*" && name != "corsCredentialOrigins") && !isOrigin(origin) {
                return origin == "*"
                    ? "\(name) cannot be *: credentials go only to origins named one by one"
                    : "\(name): '\(origin)' is not an origin as browsers send it (scheme://host[:port], lowercase, no path)"
            }
        }
        let allowed = Set(configuration.corsOrigins + configuration.corsStreamOrigins)
        for origin in configuration.corsCredentialOrigins where !allowed.contains(origin) && !allowed.contains("*") {
            return "corsCredentialOrigins: '\(origin)' is in neither corsOrigins nor corsStreamOrigins"
        }
        for header in configuration.corsExposedHeaders
        where header.isEmpty || !header.unicodeScalars.allSatisfy({ $0.isASCII && tokenCharacters.contains($0) }) {
            return "corsExposedHeaders: '\(header)' is not a header name"
        }
        return nil
    }

    private static let tokenCharacters = CharacterSet(
        charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// Whether `text` is an origin exactly as a browser serializes it.
    static func isOrigin(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            let host = components.host, !host.isEmpty,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil
        else { return false }
        let port = components.port.map { ":\($0)" } ?? ""
        return text == "\(scheme)://\(host)\(port)" && text == text.lowercased()
    }
}
