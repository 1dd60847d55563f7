import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// The checks every console form passes before it acts: its body within bounds, its hidden
/// `csrf` field equal to the token it must carry, and its `Origin` (or, without one, its
/// `Referer`) one the console accepts forms from.
enum ConsoleForm {
    /// The most bytes a console form's body may hold.
    static let maximumBytes = 64 * 1_024

    /// The form's fields, once its origin and CSRF token are checked.
    ///
    /// - Parameters:
    ///   - request: The form's request.
    ///   - csrf: The token the form must carry (the session's, or the sign-in page's cookie).
    ///   - settings: The console's settings (the accepted origins).
    ///   - secure: Whether the request came over HTTPS (for its own origin's scheme).
    /// - Returns: The fields, percent-decoded (a repeated field keeps its last value).
    /// - Throws: `ServiceError` forbidden `console_csrf` or `console_origin`, too large
    ///   `body_too_large`.
    static func fields(
        _ request: Request, csrf: String, settings: ConsoleSettings, secure: Bool
    ) async throws -> [String: String] {
        try checkOrigin(request, settings: settings, secure: secure)
        let fields = try decode(try await body(request))
        guard let sent = fields["csrf"], equal(sent, csrf) else {
            throw ServiceError(
                .forbidden, "console_csrf",
                "this form has expired or was not sent from the console; open the page again and retry")
        }
        return fields
    }

    /// The body, at most ``maximumBytes``.
    static func body(_ request: Request) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: maximumBytes)
        } catch {
            throw ServiceError(.tooLarge, "body_too_large", "the form is larger than \(maximumBytes / 1_024) KB")
        }
    }

    /// An `application/x-www-form-urlencoded` body's fields.
    static func decode(_ buffer: ByteBuffer) throws -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = parts.first ?? nil, !name.isEmpty else { continue }
            guard let value = parts.count > 1 ? parts[1] : "" else {
                throw ServiceError.invalid("is not percent-encoded", field: name)
            }
            fields[name] = value
        }
        return fields
    }

    /// Refuses a form whose `Origin` (or `Referer`, when the browser sent no `Origin`) is
    /// not one the console accepts; a form with neither is refused too.
    static func checkOrigin(_ request: Request, settings: ConsoleSettings, secure: Bool) throws {
        let sent: String? =
            if let header = request.headers[.origin] {
                header
            } else if let referer = request.headers[.referer] {
                origin(of: referer)
            } else {
                nil
            }
        guard let sent, sent != "null", let normalized = origin(of: sent) else { throw foreignOrigin }
        let allowed =
            settings.origins.isEmpty
            ? ownOrigin(request, secure: secure).map { [$0] } ?? []
            : settings.origins.compactMap { origin(of: $0) }
        guard allowed.contains(normalized) else { throw foreignOrigin }
    }

    /// The request's own origin: its scheme and `Host`.
    static func ownOrigin(_ request: Request, secure: Bool) -> String? {
        guard let host = host(of: request), !host.isEmpty else { return nil }
        return origin(of: "\(secure ? "https" : "http")://\(host)")
    }

    /// The origin of a URL, normalized: `scheme://host[:port]` in lower case, without the
    /// scheme's default port; `nil` for what is not an http(s) URL.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        switch (scheme, components.port) {
        case (_, nil), ("http", 80), ("https", 443): return "\(scheme)://\(bracketed)"
        case (_, let port?): return "\(scheme)://\(bracketed):\(port)"
        }
    }

    /// The request's `Host` (HTTP/1.1) or `:authority` (HTTP/2).
    static func host(of request: Request) -> String? {
        request.head.authority ?? request.headers[HTTPField.Name("Host")!]
    }

    /// Whether two tokens are equal, in a time that depends only on their lengths.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static let foreignOrigin = ServiceError(
        .forbidden, "console_origin", "this form was not sent from the console's own pages")
}
