import HTTPTypes
import Hummingbird

/// Sends `X-Content-Type-Options: nosniff` on every answer — JSON, pages, static files,
/// photos, errors and unknown addresses alike — so that a browser never reads a stored
/// photo (or anything else) as another type than the one it was sent as.
///
/// It is the outermost middleware: an error thrown by a route or an inner middleware is
/// turned into its response here, so that the header is on it too.
struct NoSniffMiddleware: RouterMiddleware {
    typealias Context = MomentumContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            // What Hummingbird would answer for an error it does not know.
            context.logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
            response = Response(status: .internalServerError)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
