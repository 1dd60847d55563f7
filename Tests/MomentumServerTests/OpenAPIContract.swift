import Foundation
import NIOCore
import Synchronization
import Testing

/// Checks every JSON answer the router tests receive against the response schema that
/// `MomentumAPI`'s `openapi.json` documents for its operation and status, so the server
/// cannot drift from its contract.
///
/// The document keeps answers open (docs/api-versioning.md): a client must accept fields and
/// enumeration values it does not know, because a newer server may send them. Our own server
/// is held to more: here an object's documented properties are all it may send, and an open
/// enumeration (`anyOf` its known values and any string) only its known values, so a field or
/// value the server sends that the document does not list is still caught.
final class OpenAPIContract: Sendable {
    static let shared = OpenAPIContract()

    private struct Operation: @unchecked Sendable {
        var method: String
        var pattern: [String]  // path segments; `{name}` matches one segment, `{path}` the rest
        var responses: [String: Any]
    }

    private let operations: [Operation]
    nonisolated(unsafe) private let schemas: [String: Any]  // immutable after init
    nonisolated(unsafe) private let responses: [String: Any]  // immutable after init

    /// The contract's document in the repository.
    static let documentURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources/MomentumAPI/openapi.json")

    private init() {
        let document =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: Self.documentURL))) as? [String: Any] ?? [:]
        schemas = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
        responses = ((document["components"] as? [String: Any])?["responses"] as? [String: Any]) ?? [:]
        var operations: [Operation] = []
        for (path, methods) in (document["paths"] as? [String: [String: Any]]) ?? [:] {
            for (method, operation) in methods {
                operations.append(
                    Operation(
                        method: method.uppercased(), pattern: path.split(separator: "/").map(String.init),
                        responses: ((operation as? [String: Any])?["responses"] as? [String: Any]) ?? [:]))
            }
        }
        // Literal segments before templates, so `/v1/habits/{habit}` does not swallow a literal route.
        self.operations = operations.sorted {
            $0.pattern.filter { $0.hasPrefix("{") }.count < $1.pattern.filter { $0.hasPrefix("{") }.count
        }
    }

    /// Validates one answer; records an issue when it does not match its documented schema.
    func check(method: String, uri: String, status: Int, body: ByteBuffer) {
        for problem in problems(method: method, uri: uri, status: status, body: Data(buffer: body)) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// What is wrong with an answer, measured against openapi.json (empty when it matches).
    func problems(method: String, uri: String, status: Int, body data: Data) -> [String] {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        let segments = path.split(separator: "/").map { String($0) }
        guard let operation = operations.first(where: { $0.method == method && Self.matches($0.pattern, segments) })
        else {
            // The web app's pages are not API operations; an unknown API path must be a 404.
            return path.hasPrefix("/v1/") && status != 404 ? ["no documented operation for \(method) \(path)"] : []
        }
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return ["\(method) \(path) answered \(status) with invalid JSON"]
        }
        let template = "/" + operation.pattern.joined(separator: "/")
        guard
            var response = operation.responses[String(status)] as? [String: Any]
                ?? operation.responses["default"] as? [String: Any]
        else {
            return ["openapi.json documents no \(status) answer for \(method) \(template)"]
        }
        if let reference = response["$ref"] as? String {
            response = responses[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:]
        }
        guard
            let schema = ((response["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
        else { return [] }
        var problems: [String] = []
        validate(value, against: schema, at: "$", problems: &problems)
        guard !problems.isEmpty else { return [] }
        let listed = problems.prefix(8).joined(separator: "\n")
        return ["\(method) \(template) \(status) does not match openapi.json:\n\(listed)"]
    }

    private static func matches(_ pattern: [String], _ segments: [String]) -> Bool {
        if pattern.last == "{path}" {
            return segments.count >= pattern.count && zip(pattern.dropLast(), segments).allSatisfy(Self.segment)
        }
        return pattern.count == segments.count && zip(pattern, segments).allSatisfy(Self.segment)
    }

    private static func segment(_ pair: (String, String)) -> Bool {
        pair.0.hasPrefix("{") || pair.0 == pair.1
    }

    /// The JSON kind of a decoded value: `null`, `boolean`, `integer`, `number`, `string`,
    /// `array` or `object`.
    static func kind(of value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" || type(of: value) == Bool.self { return "boolean" }
            let double = number.doubleValue
            return double == double.rounded() && abs(double) < 9e15 ? "integer" : "number"
        case is Bool: return "boolean"
        case is String: return "string"
        case is [Any]: return "array"
        case is [String: Any]: return "object"
        default: return "unknown"
        }
    }

    private func validate(_ value: Any, against schema: Any, at path: String, problems: inout [String]) {
        guard var schema = schema as? [String: Any] else { return }
        if let reference = schema["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let resolved = schemas[name] else {
                problems.append("\(path): unknown schema \(reference)")
                return
            }
            schema = resolved as? [String: Any] ?? [:]
        }
        if let options = schema["anyOf"] as? [Any] ?? schema["oneOf"] as? [Any] {
            // An open enumeration: the server sends only the values the document knows.
            let any = options.filter { ($0 as? [String: Any])?.keys.sorted() == ["type"] }
            if options.count == 2, any.count == 1, (any[0] as? [String: Any])?["type"] as? String == "string",
                let known = options.first(where: { ($0 as? [String: Any])?["$ref"] != nil })
            {
                validate(value, against: known, at: path, problems: &problems)
                return
            }
            for option in options {
                var attempt: [String] = []
                validate(value, against: option, at: path, problems: &attempt)
                if attempt.isEmpty { return }
            }
            problems.append("\(path): matches none of the alternatives")
            return
        }
        let kind = Self.kind(of: value)
        let allowed: [String] =
            (schema["type"] as? String).map { [$0] } ?? (schema["type"] as? [String]) ?? []
        if !allowed.isEmpty, !allowed.contains(kind), !(kind == "integer" && allowed.contains("number")) {
            problems.append("\(path): \(kind), documented as \(allowed.joined(separator: " or "))")
            return
        }
        if let values = schema["enum"] as? [Any], let text = value as? String,
            !values.contains(where: { $0 as? String == text })
        {
            problems.append("\(path): \"\(text)\" is not one of the documented values")
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path).\(name): required, missing")
            }
            for (name, item) in object {
                if let property = properties[name] {
                    validate(item, against: property, at: "\(path).\(name)", problems: &problems)
                } else if let additional = schema["additionalProperties"], !(additional is Bool) {
                    validate(item, against: additional, at: "\(path).\(name)", problems: &problems)
                } else if schema["properties"] != nil, schema["additionalProperties"] as? Bool != true {
                    // Open to clients, closed to our server: a field it sends must be documented.
                    problems.append("\(path).\(name): not documented")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] {
            for (index, item) in array.enumerated() {
                validate(item, against: items, at: "\(path)[\(index)]", problems: &problems)
            }
        }
    }
}
