import Foundation
import HTTPTypes
import Hummingbird
import Logging

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
            response = apiError.response()
        }
        response.headers[.xRequestID] = id
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code)",
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
