import HTTPTypes
import Hummingbird
import MomentumServices
import MomentumStore

/// The middleware of every `/console` route: answers only on the configured hosts (404 on
/// any other, as for an address with nothing at it) and puts the console's security headers
/// on every answer, refusals and redirects included.
struct ConsoleGuard<Context: RequestContext>: RouterMiddleware {
    let settings: ConsoleSettings
    /// The HTTP layer's one table from a refusal to a status.
    let status: @Sendable (ServiceError) -> HTTPResponse.Status

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard settings.answers(host: ConsoleForm.host(of: request)) else { throw HTTPError(.notFound) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as ServiceError {
            // A refusal no page caught (before an operator is known): a page of its own.
            response = ConsoleLayout.problem(error, status: status(error))
        } catch let error as StoreError {
            let refusal = ServiceError(error)
            response = ConsoleLayout.problem(refusal, status: status(refusal))
        }
        for field in ConsoleLayout.securityHeaders { response.headers[field.name] = field.value }
        return response
    }
}
