import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MomentumServices

/// Gives every request an id (the client's `X-Request-ID` when it sends a sensible one),
/// logs one structured line per request, and turns every error into the API's JSON shape.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = MomentumContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        let supplied = request.headers[.xRequestID].flatMap { id in
            id.count <= 64 && id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ? id : nil
        }
        let id = supplied ?? Tokens.id("r_")
        context.requestID = id
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let apiError = APIError.from(error)
            if apiError.status == .internalServerError {
                context.logger.error(
                    "request failed",
                    metadata: ["request_id": .string(id), "error": .string(String(reflecting: error))])
            }
            response =
                apiError.status == .notFound && error is HTTPError && Self.isBrowserPage(request)
                ? Self.notFoundPage() : apiError.response()
        }
        response.headers[.xRequestID] = id
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code)",
            // The path only, never the query: a query may hold a stream ticket
            // (`/v1/stream?ticket=`), which must not reach the log.
            // The request id goes with each line rather than into the logger's metadata:
            // setting that makes the stream handler format all of its metadata again, on
            // every request, whether or not anything is logged.
            metadata: [
                "request_id": .string(id), "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
                "ms": .string(String(format: "%.2f", milliseconds)),
                "user": .string(context.logged.user ?? "-"),
            ])
        return response
    }
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-ID")!
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}

extension RequestLogMiddleware {
    /// Whether a request is a browser asking for a page (not an API call): a `GET` outside
    /// `/v1/` that accepts HTML.
    static func isBrowserPage(_ request: Request) -> Bool {
        request.method == .get && !request.uri.path.hasPrefix("/v1/")
            && request.headers[.accept]?.contains("text/html") == true
    }

    /// The page a browser gets for an address the server has nothing at.
    static func notFoundPage() -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Not found · Momentum</title><link rel="stylesheet" href="/static/app.css"></head>
            <body><main><section class="card"><h1>Not found</h1>
            <p>There is nothing at this address. <a href="/">Go to Momentum</a></p></section></main></body></html>

            """
        return Response(
            status: .notFound, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
