import AsyncHTTPClient
import Foundation
import MomentumStore
import NIOHTTP1
import Tracing

/// The spans of outgoing deliveries (webhooks, Web Push, APNs, FCM and its token
/// exchange): each request is a client span, a child of the work that sends it (a request,
/// or a background pass's own root span), and carries that span's W3C `traceparent` (and
/// `tracestate`), so that a receiver that traces continues the trace.
///
/// A delivery queued by a request (a webhook event message of a check-in) keeps that
/// request's trace context (`TraceOrigin`): its span is then a child of the request's,
/// in the request's trace, with a link to the pass that sent it.
///
/// Only the method, the host, the port and the status are recorded: a delivery's URL may
/// hold a device token or a webhook's secret path. With no tracer bootstrapped nothing is
/// added to the request.
enum OutgoingSpans {
    /// What ``DeliveryHTTP/execute(_:client:)`` answers.
    typealias Answer = (response: HTTPClientResponse?, body: String, error: String?)

    /// Sends `request` with `send` inside a client span, with the span's trace context in
    /// its headers: a child of `origin` when it is given, else of the current span.
    static func send(
        _ request: HTTPClientRequest, origin: TraceOrigin? = nil, _ send: (HTTPClientRequest) async -> Answer
    ) async -> Answer {
        let tracer = InstrumentationSystem.tracer
        if tracer is NoOpTracer { return await send(request) }
        let span: any Span
        if let origin {
            span = tracer.startSpan(request.method.rawValue, context: origin.context, ofKind: .client)
            if let pass = ServiceContext.current { span.addLink(SpanLink(context: pass, attributes: [:])) }
        } else {
            span = tracer.startSpan(request.method.rawValue, ofKind: .client)
        }
        defer { span.end() }
        var request = request
        tracer.inject(span.context, into: &request.headers, using: HeadersInjector())
        if span.isRecording, let url = URLComponents(string: request.url) {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = request.method.rawValue
                attributes["server.address"] = url.host
                attributes["server.port"] = url.port ?? (url.scheme == "http" ? 80 : 443)
            }
        }
        let answer = await InstrumentationContext.$current.withValue(span.context) { await send(request) }
        if let response = answer.response {
            span.attributes["http.response.status_code"] = Int(response.status.code)
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        } else if let error = answer.error {
            span.setStatus(SpanStatus(code: .error, message: DeliveryHTTP.status(of: error)))
        }
        return answer
    }

    /// Writes trace context fields into a request's headers.
    struct HeadersInjector: Injector {
        func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
            headers.replaceOrAdd(name: key, value: value)
        }
    }
}
