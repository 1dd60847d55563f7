import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore
import NIOCore

/// An error as the API reports it: one JSON shape for every failure,
/// `{"error": {"code", "message", "details": [{"field", "issue"}]}}`, with its status.
public struct APIError: Error, Sendable, HTTPResponseError {
    /// One problem with one field of the request.
    public struct Detail: Sendable, Codable, Hashable {
        /// The field's path, such as `events[2].at`.
        public var field: String
        /// What is wrong with it.
        public var issue: String

        /// Creates a detail.
        public init(field: String, issue: String) {
            self.field = field
            self.issue = issue
        }
    }

    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `invalid_json`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// Problems per field, when the request had any.
    public var details: [Detail]
    /// Extra headers (such as `Retry-After`).
    public var headers: HTTPFields = [:]

    /// Creates an error.
    public init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, details: [Detail] = [],
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    struct Body: Codable {
        struct Content: Codable {
            var code: String
            var message: String
            var details: [Detail]
        }
        var error: Content
    }

    /// The JSON body.
    var body: ByteBuffer {
        let data =
            (try? MomentumJSON.encode(Body(error: .init(code: code, message: message, details: details))))
            ?? Data()
        return ByteBuffer(bytes: data)
    }

    /// The response for this error.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    func response() -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    static let unauthorized = APIError(
        .unauthorized, "unauthorized", "sign in first: send 'Authorization: Bearer <token>'",
        headers: [.wwwAuthenticate: "Bearer"])

    static func notFound(_ what: String) -> APIError { APIError(.notFound, "not_found", "\(what) not found") }

    static func invalid(_ message: String, field: String? = nil) -> APIError {
        APIError(
            .unprocessableContent, "invalid_input", message,
            details: field.map { [Detail(field: $0, issue: message)] } ?? [])
    }

    /// The API form of any error a route may throw.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as ServiceError: return from(error)
        case let error as StoreError: return from(ServiceError(error))
        case let error as MomentumError:
            // The engine's verdict, unchanged from the engine to here (a check-in it refused).
            return from(
                ServiceError(
                    error.refusalKind, error.code.description, error.message,
                    fields: error.field.map { [.init(field: $0, issue: error.message)] } ?? []))
        case is NIOTooManyBytesError:
            return APIError(.contentTooLarge, "body_too_large", "the request body is too large")
        case let error as HTTPError:
            let code =
                switch error.status {
                case .notFound: "not_found"
                case .contentTooLarge: "body_too_large"
                case .methodNotAllowed: "method_not_allowed"
                case .badRequest: "bad_request"
                case .unsupportedMediaType: "unsupported_media_type"
                default: "http_\(error.status.code)"
                }
            let message =
                switch error.status {
                case .notFound: "no such endpoint"
                case .contentTooLarge: "the request body is too large"
                default: error.body ?? error.status.reasonPhrase
                }
            return APIError(error.status, code, message, headers: error.headers)
        default:
            return APIError(.internalServerError, "internal_error", "something went wrong on the server")
        }
    }

    /// The one table from a service's refusal to an HTTP status (and `Retry-After`).
    static func status(for kind: ServiceError.Kind) -> (HTTPResponse.Status, retryAfter: Int?) {
        switch kind {
        case .invalid: (.unprocessableContent, nil)
        case .notFound: (.notFound, nil)
        case .conflict: (.conflict, nil)
        case .unauthenticated: (.unauthorized, nil)
        case .forbidden: (.forbidden, nil)
        case .gone: (.gone, nil)
        case .unsupported: (.unsupportedMediaType, nil)
        case .tooLarge: (.contentTooLarge, nil)
        case .tooMany(let seconds): (.tooManyRequests, seconds)
        case .unavailable(let seconds): (.serviceUnavailable, seconds)
        case .failed: (.internalServerError, nil)
        }
    }

    /// The API form of a service's refusal.
    static func from(_ error: ServiceError) -> APIError {
        let (status, retryAfter) = status(for: error.kind)
        var headers: HTTPFields = [:]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if error.kind == .unauthenticated { headers[.wwwAuthenticate] = "Bearer" }
        return APIError(
            status, error.code, error.message, details: error.fields.map { Detail(field: $0.field, issue: $0.issue) },
            headers: headers)
    }
}
