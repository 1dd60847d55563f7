import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices

/// Cross-origin access for the configured origins (`*` for any): preflight answers and
/// `Access-Control-Allow-Origin` on responses to allowed origins only.
///
/// Hummingbird's `CORSMiddleware` is not used because its list form,
/// `AllowOriginExtended.oneOf(_:)`, is variadic: a list read from the configuration at run
/// time cannot be passed to it, and its other forms either allow every origin or echo any
/// origin back, which would let every site read answers with a visitor's credentials.
struct CORS: RouterMiddleware {
    typealias Context = MomentumContext
    let origins: Set<String>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let origin = request.headers[.origin], origins.contains("*") || origins.contains(origin) else {
            return try await next(request, context)
        }
        let allowed = origins.contains("*") ? "*" : origin
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: allowed, .vary: "Origin",
                    .accessControlAllowMethods: "GET, POST, PUT, PATCH, DELETE, OPTIONS",
                    .accessControlAllowHeaders:
                        "Authorization, Content-Type, Idempotency-Key, Momentum-Device-Key, X-Request-ID",
                    .accessControlMaxAge: "600",
                ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] =
            "X-Request-ID, Idempotent-Replayed, Retry-After, Momentum-Device-Key"
        return response
    }
}
