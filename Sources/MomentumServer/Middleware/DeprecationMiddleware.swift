import Foundation
import HTTPTypes
import Hummingbird

/// Tells a client that the operation it called is deprecated, as docs/api-versioning.md
/// promises: a `Deprecation` header (RFC 9745) with the date it was deprecated, a `Sunset`
/// header (RFC 8594) with the date it stops being served when one is set, on every answer
/// of an operation `openapi.json` marks `deprecated: true`.
///
/// The document is the one table: an operation is deprecated by marking it there, with
/// `x-deprecated-at` (the date, `2027-01-31`) and optionally `x-sunset` (the date it goes),
/// so the document a client generates from and the headers it gets cannot disagree.
struct DeprecationMiddleware: RouterMiddleware {
    typealias Context = MomentumContext

    /// One deprecated operation and its headers.
    struct Notice: Sendable, Equatable {
        var method: HTTPRequest.Method
        /// Path segments; `{name}` matches one segment, `{path}` the rest.
        var pattern: [String]
        /// `Deprecation`: `@` and the Unix time it was deprecated (an RFC 9651 date).
        var deprecation: String
        /// `Sunset`: the HTTP date it stops being served, when set.
        var sunset: String?
    }

    let notices: [Notice]

    /// The deprecated operations of an OpenAPI document (none when it cannot be read).
    init(document: Data) {
        let parsed = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any] ?? [:]
        var notices: [Notice] = []
        for (path, operations) in parsed["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in operations {
                guard let operation = operation as? [String: Any], operation["deprecated"] as? Bool == true,
                    let method = HTTPRequest.Method(method.uppercased()),
                    let deprecated = (operation["x-deprecated-at"] as? String).flatMap(Self.day)
                else { continue }
                notices.append(
                    Notice(
                        method: method, pattern: path.split(separator: "/").map(String.init),
                        deprecation: "@\(Int(deprecated.timeIntervalSince1970))",
                        sunset: (operation["x-sunset"] as? String).flatMap(Self.day).map(Self.httpDate)))
            }
        }
        self.notices = notices.sorted { $0.pattern.joined(separator: "/") < $1.pattern.joined(separator: "/") }
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let segments = request.uri.path.split(separator: "/").map(String.init)
        guard let notice = notices.first(where: { $0.method == request.method && Self.matches($0.pattern, segments) })
        else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // A refusal of a deprecated operation says so too.
            response = try error.response(from: request, context: context)
        }
        response.headers[.deprecation] = notice.deprecation
        if let sunset = notice.sunset { response.headers[.sunset] = sunset }
        return response
    }

    private static func matches(_ pattern: [String], _ segments: [String]) -> Bool {
        if pattern.last == "{path}" {
            return segments.count >= pattern.count && zip(pattern.dropLast(), segments).allSatisfy(segment)
        }
        return pattern.count == segments.count && zip(pattern, segments).allSatisfy(segment)
    }

    private static func segment(_ pair: (String, String)) -> Bool { pair.0.hasPrefix("{") || pair.0 == pair.1 }

    /// A date (`2027-01-31`), at midnight UTC.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// An HTTP date (RFC 9110 IMF-fixdate): `Sun, 31 Jan 2027 00:00:00 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

extension HTTPField.Name {
    /// RFC 9745.
    static let deprecation = HTTPField.Name("Deprecation")!
    /// RFC 8594.
    static let sunset = HTTPField.Name("Sunset")!
}
