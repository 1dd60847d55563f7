import Hummingbird
import MomentumCore
import MomentumServices

/// Answers every request with ``ServerConfiguration/answerRenames`` applied (installed
/// only when there are renames; the outermost middleware, so that errors are renamed too).
struct AnswerFormMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    let renames: JSONKeyRenames

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await AnswerForm.$renames.withValue(renames) { try await next(request, context) }
    }
}
