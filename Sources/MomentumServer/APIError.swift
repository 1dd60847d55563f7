import Foundation
import Hummingbird
import MomentumCore
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
        case let error as StoreError: return from(error)
        case let error as MomentumError:
            return APIError(.unprocessableContent, "invalid_event", error.description)
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

    static func from(_ error: StoreError) -> APIError {
        switch error.code {
        case .notFound: APIError(.notFound, "not_found", error.message)
        case .emailTaken:
            APIError(.conflict, "email_taken", error.message, details: [.init(field: "email", issue: error.message)])
        case .userExists: APIError(.conflict, "user_exists", error.message)
        case .invalidInput, .invalidArchive: APIError(.unprocessableContent, "invalid_input", error.message)
        case .unknownPack:
            APIError(
                .unprocessableContent, "unknown_pack", error.message,
                details: [.init(field: "pack", issue: error.message)])
        case .idempotencyConflict: APIError(.conflict, "idempotency_conflict", error.message)
        case .unavailable, .migration: APIError(.serviceUnavailable, "storage_unavailable", error.message)
        case .corrupt: APIError(.internalServerError, "internal_error", "stored data could not be read")
        default: APIError(.internalServerError, "internal_error", error.message)
        }
    }
}
