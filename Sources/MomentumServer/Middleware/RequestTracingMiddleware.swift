import HTTPTypes
import Hummingbird
import Tracing

/// Makes every request a server span: a request that arrives with a W3C `traceparent`
/// (and `tracestate`) continues its caller's trace; one without starts a trace. The
/// store's statements and the deliveries sent while it is handled are its children.
///
/// Unlike Hummingbird's `TracingMiddleware`, it records the path and the route but never
/// the query (a query may hold a stream ticket or a reset token), and with no tracer
/// bootstrapped (the no-op tracer) it does nothing at all: see `BENCHMARKS.md` for what it
/// costs then.
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = MomentumContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let tracer = InstrumentationSystem.tracer
        if tracer is NoOpTracer { return try await next(request, context) }
        var parent = InstrumentationContext.current ?? .topLevel
        tracer.extract(request.headers, into: &parent, using: HeadersExtractor())
        let span = tracer.startSpan("\(request.method.rawValue)", context: parent, ofKind: .server)
        defer { span.end() }
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = request.method.rawValue
                attributes["url.path"] = request.uri.path
                attributes["user_agent.original"] = request.headers[.userAgent]
            }
        }
        do {
            let response = try await InstrumentationContext.$current.withValue(span.context) {
                try await next(request, context)
            }
            describe(span, route: context.endpointPath, status: response.status)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            describe(span, route: context.endpointPath, status: status)
            span.recordError(error)
            throw error
        }
    }

    /// Names the span after its route (`POST /v1/habits/{habit}/check-ins`) and records the
    /// status; a 5xx is an error.
    private func describe(_ span: any Span, route: String?, status: HTTPResponse.Status) {
        guard span.isRecording else { return }
        if let route { span.operationName = "\(span.operationName) \(route)" }
        span.updateAttributes { attributes in
            attributes["http.route"] = route
            attributes["http.response.status_code"] = Int(status.code)
        }
        if status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }

    /// Reads trace context fields from a request's headers.
    struct HeadersExtractor: Extractor {
        func extract(key: String, from headers: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { headers[$0] }
        }
    }
}
