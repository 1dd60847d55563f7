import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// Reading JSON requests with field-level errors, and writing JSON responses.
enum JSONIO {
    /// Decodes the request body as `T`.
    ///
    /// - Throws: 413 when the body exceeds `limit`, 415 for a body that is not JSON, 400
    ///   for malformed JSON, and 422 with the failing field for wrong types, missing fields,
    ///   a field `T` does not know (which would otherwise be dropped without a word) or a
    ///   key given twice in one object.
    ///
    /// - Parameters:
    ///   - userInfo: What `T`'s decoding is given to work with (an `EventRequest`'s route).
    ///   - emptyIsObject: Whether an empty body is read as `{}` (a route whose fields are
    ///     all optional), rather than refused.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, limit: Int, userInfo: [CodingUserInfoKey: any Sendable] = [:],
        emptyIsObject: Bool = false
    ) async throws -> T {
        try decode(
            type, body: try await collect(request, limit: limit), of: request, userInfo: userInfo,
            emptyIsObject: emptyIsObject)
    }

    /// Decodes a body already collected from `request` (``collect(_:limit:)``) as `T`, with
    /// the errors of ``decode(_:from:limit:userInfo:emptyIsObject:)`` but the size and media
    /// type.
    static func decode<T: Decodable>(
        _ type: T.Type, body: ByteBuffer, of request: Request, userInfo: [CodingUserInfoKey: any Sendable] = [:],
        emptyIsObject: Bool = false
    ) throws -> T {
        try decodeBody(
            type, from: Data(buffer: body), userInfo: userInfo, emptyIsObject: emptyIsObject,
            contract: { RequestContract.shared.body(method: request.method.rawValue, path: request.uri.path) })
    }

    /// A JSON request's body, whole.
    ///
    /// - Throws: 415 for a body that is not JSON, 413 when it exceeds `limit`.
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let contentType = request.headers[.contentType], !contentType.lowercased().contains("json") {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type", "send JSON with 'Content-Type: application/json'")
        }
        return try await request.body.collect(upTo: limit)
    }

    /// Decodes a request body as `T`, with the errors of
    /// ``decode(_:from:limit:userInfo:emptyIsObject:)`` but the size and media type.
    ///
    /// The body is decoded once, by `JSONDecoder`; the request types refuse the fields they
    /// do not know. Only when that fails is more work done, to name the field at fault:
    /// `contract` gives what the API document says of the body (``RequestContract``).
    static func decodeBody<T: Decodable>(
        _ type: T.Type, from data: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:],
        emptyIsObject: Bool = false, contract: () -> RequestShape? = { nil }
    ) throws -> T {
        if data.isEmpty, emptyIsObject {
            return try decodeBody(type, from: Data("{}".utf8), userInfo: userInfo, contract: contract)
        }
        if data.isEmpty { throw APIError(.badRequest, "invalid_json", "the request body is empty; send a JSON object") }
        let decoder = MomentumJSON.decoder()
        decoder.userInfo = userInfo
        let decoded: T
        do {
            decoded = try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw refusal(error, of: data, contract: contract)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.badRequest, "invalid_json", "the request body is not valid JSON")
        }
        if let field = JSONDuplicateKeys.first(in: data) { throw duplicate(field) }
        return decoded
    }

    /// The answer to a body `JSONDecoder` refused with `error`, naming the field at fault.
    private static func refusal(_ error: DecodingError, of data: Data, contract: () -> RequestShape?) -> APIError {
        // Malformed JSON is a 400, and is told before anything else.
        guard let tree = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return APIError(.badRequest, "invalid_json", "the request body is not valid JSON")
        }
        // A key given twice is told before what either value holds: the two may differ.
        if let field = JSONDuplicateKeys.first(in: data) { return duplicate(field) }
        let shape = contract() ?? .any
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Well-formed JSON that JSONDecoder calls corrupt: a number it will not take as
            // an integer. The contract says where integers go.
            if let field = shape.firstNonInteger(in: tree) { return invalid(field, "must be an integer") }
            return invalid("body", "holds a value that cannot be read (a number too large for its field?)")
        case .dataCorrupted(let context)
        where context.debugDescription.hasPrefix("Additional properties are disabled"):
            // A generated type's refusal of a field it does not know: the contract lists
            // the ones it takes.
            let known = shape.at(context.codingPath.dropLast()).fields.keys.sorted()
            return invalid(
                path(context.codingPath),
                known.isEmpty ? "is not a field here" : "is not a field here (\(known.joined(separator: ", ")))")
        case .dataCorrupted(let context) where context.debugDescription.hasPrefix("Cannot initialize "):
            // A value outside an enumeration: name the values it takes, not the Swift type.
            let choices = shape.at(context.codingPath).choices
            if !choices.isEmpty, let text = value(at: context.codingPath, in: tree) as? String {
                return invalid(
                    path(context.codingPath),
                    "\(quoted(text)) is not one of \(choices.joined(separator: ", "))")
            }
            return apiError(error)
        default:
            return apiError(error)
        }
    }

    /// The value at `path` in a `JSONSerialization` tree.
    private static func value(at path: [any CodingKey], in tree: Any) -> Any? {
        var value: Any? = tree
        for key in path {
            if let index = key.intValue {
                guard let array = value as? [Any], array.indices.contains(index) else { return nil }
                value = array[index]
            } else {
                value = (value as? [String: Any])?[key.stringValue]
            }
        }
        return value
    }

    /// `text` as a JSON string, as the body wrote it.
    private static func quoted(_ text: String) -> String {
        (try? MomentumJSON.encodeBytes(text)).map { String(decoding: $0, as: UTF8.self) } ?? "'\(text)'"
    }

    private static func duplicate(_ field: String) -> APIError {
        let issue = "is given twice in one object; send each field once"
        return APIError(
            .unprocessableContent, "duplicate_key", "\(field): \(issue)", details: [.init(field: field, issue: issue)])
    }

    /// Decodes `data` as `T` (a type with no contract of its own, such as `JSONValue`),
    /// with the errors of ``decode(_:from:limit:userInfo:emptyIsObject:)``.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodeBody(type, from: data)
    }

    /// The field path of a coding path: `events[2].at`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "body" : text
    }

    static func apiError(_ error: DecodingError) -> APIError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return APIError(.badRequest, "invalid_json", "the request body is not valid JSON")
        case .dataCorrupted(let context):
            // The engine's reasons name their field ("value must be …", "'colour' is not a
            // field of …"); the answer's issue goes beside the field, so it leaves the name out.
            var issue = context.debugDescription
            if let key = context.codingPath.last?.stringValue {
                for named in [key + " ", "'\(key)' "] where issue.hasPrefix(named) {
                    issue.removeFirst(named.count)
                }
            }
            return invalid(path(context.codingPath), issue)
        case .keyNotFound(let key, let context):
            return invalid(path(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context):
            return invalid(path(context.codingPath), "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            return invalid(path(context.codingPath), "must be \(describe(type)), not null")
        @unknown default:
            return APIError(.badRequest, "invalid_json", "the request body could not be read")
        }
    }

    private static func invalid(_ field: String, _ issue: String) -> APIError {
        APIError(
            .unprocessableContent, "invalid_input", "\(field): \(issue)", details: [.init(field: field, issue: issue)])
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    /// A JSON response.
    static func response(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    )
        throws -> Response
    {
        response(
            json: try MomentumJSON.encodeBytes(value, renaming: AnswerForm.renames), status: status, headers: headers)
    }

    /// A response carrying JSON already encoded.
    static func response(
        json: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        var data = json
        data.append(UInt8(ascii: "\n"))
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The server's request decoding, for the benchmarks that measure it against
/// `JSONDecoder` (BENCHMARKS.md): not API.
@_spi(Benchmarks)
public enum RequestDecoding {
    /// Decodes a request body as the routes do (``JSONIO/decodeBody(_:from:userInfo:emptyIsObject:contract:)``).
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws -> T {
        try JSONIO.decodeBody(type, from: data, userInfo: userInfo)
    }
}
