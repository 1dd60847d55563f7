import Foundation
import Hummingbird
import MomentumCore

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
        if let contentType = request.headers[.contentType], !contentType.lowercased().contains("json") {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type", "send JSON with 'Content-Type: application/json'")
        }
        let buffer = try await request.body.collect(upTo: limit)
        return try decodeBody(type, from: Data(buffer: buffer), userInfo: userInfo, emptyIsObject: emptyIsObject)
    }

    /// Decodes a request body as `T`, with the errors of ``decode(_:from:limit:userInfo:emptyIsObject:)``
    /// but the size and media type: the body is parsed, and the parsed value decoded once.
    static func decodeBody<T: Decodable>(
        _ type: T.Type, from data: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:],
        emptyIsObject: Bool = false
    ) throws -> T {
        if data.isEmpty, emptyIsObject {
            // `{}` holds no field to refuse: no record of the fields asked for is needed.
            do {
                return try JSONValueDecoder.decode(type, from: .object([:]), userInfo: userInfo)
            } catch let error as DecodingError {
                throw apiError(error)
            }
        }
        let value = try decode(JSONValue.self, from: data)
        do {
            return try JSONValueDecoder.decodeKnownFields(type, from: value, userInfo: userInfo)
        } catch let error as DecodingError {
            throw apiError(error)
        }
    }

    /// Decodes `data` as `T`, with the same errors as ``decode(_:from:limit:)``.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if data.isEmpty { throw APIError(.badRequest, "invalid_json", "the request body is empty; send a JSON object") }
        let value = try parse(type, from: data)
        // Checked once the JSON is known to be well formed, so malformed JSON stays a 400.
        if let field = JSONDuplicateKeys.first(in: data) {
            let issue = "is given twice in one object; send each field once"
            throw APIError(
                .unprocessableContent, "duplicate_key", "\(field): \(issue)",
                details: [.init(field: field, issue: issue)])
        }
        return value
    }

    private static func parse<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try MomentumJSON.decoder().decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let value = try? MomentumJSON.decoder().decode(JSONValue.self, from: data)
            {
                // The JSON is readable, but JSONDecoder named no field (it does so for a
                // number it will not take as an integer): decoding the parsed value names
                // the field, or takes a whole number written as a fraction (`2.0`).
                do {
                    return try JSONValueDecoder.decode(type, from: value)
                } catch let precise as DecodingError {
                    throw apiError(precise)
                }
            }
            throw apiError(error)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.badRequest, "invalid_json", "the request body is not valid JSON")
        }
    }

    /// Decodes `value` as `T`, with the same errors as ``decode(_:from:limit:)`` (and the same
    /// results as writing `value` out as JSON and decoding that).
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        do {
            return try JSONValueDecoder.decode(type, from: value)
        } catch let error as DecodingError {
            throw apiError(error)
        }
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
    /// Decodes a request body as the routes do (``JSONIO/decodeBody(_:from:userInfo:emptyIsObject:)``).
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws -> T {
        try JSONIO.decodeBody(type, from: data, userInfo: userInfo)
    }
}
