import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// Cross-origin access as the ``CORSPolicy`` grants it, per origin: preflight answers, and
/// `Access-Control-Allow-Origin` (with `Vary: Origin`, and credentials where granted) on
/// every answer to an allowed origin, refusals and the change stream included (the
/// middleware sits outside the request log, which turns errors into answers).
///
/// Hummingbird's `CORSMiddleware` is not used because its list form,
/// `AllowOriginExtended.oneOf(_:)`, is variadic: a list read from the configuration at run
/// time cannot be passed to it, and its other forms either allow every origin or echo any
/// origin back, which would let every site read answers with a visitor's credentials.
struct CORS: RouterMiddleware {
    typealias Context = MomentumContext
    let policy: CORSPolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        guard let grant = policy.grant(origin: origin, path: request.uri.path) else {
            var response = try await next(request, context)
            response.headers[.vary] = "Origin"
            return response
        }
        var headers: HTTPFields = [.accessControlAllowOrigin: grant.allowOrigin, .vary: "Origin"]
        if grant.credentials { headers[.accessControlAllowCredentials] = "true" }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            headers[.accessControlAllowMethods] =
                grant.streamOnly ? "GET, OPTIONS" : "GET, POST, PUT, PATCH, DELETE, OPTIONS"
            // The web app's header, which a cookie's write needs, only where cookies may come.
            headers[.accessControlAllowHeaders] =
                grant.streamOnly
                ? "Last-Event-ID"
                : "Authorization, Content-Type, Idempotency-Key, Momentum-Device-Key, X-Request-ID, Last-Event-ID"
                    + (grant.credentials ? ", X-Momentum-Client" : "")
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        for field in headers { response.headers[field.name] = field.value }
        response.headers[.accessControlExposeHeaders] = policy.exposedHeaders
        return response
    }
}
