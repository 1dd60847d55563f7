import Foundation
import MomentumAPI
import MomentumServices

/// What the contract (`MomentumAPI`'s `openapi.json`) says about the request bodies of its
/// operations, read once from the document.
///
/// Requests are decoded with `JSONDecoder` into their typed requests, which refuse the
/// fields they do not know. When a body is refused, `JSONDecoder`'s error does not always
/// say enough: a fraction where an integer goes makes it call the whole body unreadable,
/// a value outside an enumeration names a Swift type, and a generated type's refusal of an
/// unknown field does not list the fields it takes. The contract knows each of these, so
/// ``JSONIO`` asks it, on the error path only.
final class RequestContract: Sendable {
    /// The contract of the document this server serves.
    static let shared = RequestContract(document: APIDocument.data)

    private struct Operation: Sendable {
        var method: String
        /// Path segments; `{name}` matches any one segment.
        var pattern: [Substring]
        var body: RequestShape
    }

    private let operations: [Operation]

    /// Reads the request bodies of `document`'s operations (an OpenAPI 3.1 document as
    /// JSON); a document it cannot read gives a contract that knows no operation.
    init(document: Data) {
        let root = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any] ?? [:]
        let schemas = ((root["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
        var builder = RequestShape.Builder(schemas: schemas)
        var operations: [Operation] = []
        for (path, methods) in (root["paths"] as? [String: Any]) ?? [:] {
            for (method, operation) in (methods as? [String: Any]) ?? [:] {
                guard let body = (operation as? [String: Any])?["requestBody"] as? [String: Any],
                    let json = (body["content"] as? [String: Any])?["application/json"] as? [String: Any],
                    let schema = json["schema"]
                else { continue }
                operations.append(
                    Operation(
                        method: method.uppercased(), pattern: path.split(separator: "/"),
                        body: builder.shape(schema, depth: 0)))
            }
        }
        // Literal segments win over templates: fewer templates first.
        self.operations = operations.sorted {
            $0.pattern.count(where: { $0.hasPrefix("{") }) < $1.pattern.count(where: { $0.hasPrefix("{") })
        }
    }

    /// The shape of the body of the operation at `method` and `path` (`POST`,
    /// `/v1/habits/walk/check-ins`), or `nil` when the contract has no such operation.
    func body(method: String, path: String) -> RequestShape? {
        let segments = path.split(separator: "?", maxSplits: 1).first?.split(separator: "/") ?? []
        return operations.first { operation in
            operation.method == method && operation.pattern.count == segments.count
                && zip(operation.pattern, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }?.body
    }
}

/// What the contract says about one value of a request body: the fields of an object, the
/// items of an array, the values of an enumeration, whether a number must be an integer.
final class RequestShape: Sendable {
    /// An object's documented fields.
    let fields: [String: RequestShape]
    /// The shape of a map's values (`additionalProperties` with a schema).
    let values: RequestShape?
    /// The shape of an array's items.
    let items: RequestShape?
    /// The values an enumeration takes, in the document's order.
    let choices: [String]
    /// Whether a number here must be an integer.
    let integer: Bool

    init(
        fields: [String: RequestShape] = [:], values: RequestShape? = nil, items: RequestShape? = nil,
        choices: [String] = [], integer: Bool = false
    ) {
        self.fields = fields
        self.values = values
        self.items = items
        self.choices = choices
        self.integer = integer
    }

    /// A value the contract says nothing about.
    static let any = RequestShape()

    /// The shape of the value a field or an item holds.
    func child(_ key: any CodingKey) -> RequestShape {
        if key.intValue != nil { return items ?? .any }
        return fields[key.stringValue] ?? values ?? .any
    }

    /// The shape at `path` from here.
    func at(_ path: [any CodingKey]) -> RequestShape {
        path.reduce(self) { $0.child($1) }
    }

    /// The first number in `value` (a `JSONSerialization` tree) where the contract wants
    /// an integer and `JSONDecoder` would not take one: a fraction, or a number beyond
    /// 64 bits. Its path, as ``JSONIO/path(_:)`` writes it.
    func firstNonInteger(in value: Any, at path: String = "") -> String? {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let shape = fields[key] ?? values ?? .any
                let child = path.isEmpty ? key : "\(path).\(key)"
                if let found = shape.firstNonInteger(in: object[key] as Any, at: child) { return found }
            }
        case let array as [Any]:
            for (index, item) in array.enumerated() {
                if let found = (items ?? .any).firstNonInteger(in: item, at: "\(path)[\(index)]") { return found }
            }
        case let number as NSNumber where integer && !(value is Bool):
            if Int64(exactly: number.doubleValue) == nil || !Self.isWhole(number) {
                return path.isEmpty ? "body" : path
            }
        default: break
        }
        return nil
    }

    private static func isWhole(_ number: NSNumber) -> Bool {
        // An integer literal too long for 64 bits is read as a double that may happen to be
        // whole: its text says whether it still fits.
        let text = number.stringValue
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return Int64(text) != nil }
        let double = number.doubleValue
        return double.isFinite && double.rounded() == double && abs(double) < 9.2e18
    }

    /// Builds shapes from schemas, following `$ref`s (to a bounded depth, so a schema that
    /// refers to itself ends).
    struct Builder {
        let schemas: [String: Any]

        mutating func shape(_ schema: Any, depth: Int) -> RequestShape {
            guard depth < 12, var schema = schema as? [String: Any] else { return .any }
            if let reference = schema["$ref"] as? String {
                schema = schemas[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:]
            }
            let alternatives = (schema["oneOf"] ?? schema["anyOf"] ?? schema["allOf"]) as? [Any] ?? []
            if !alternatives.isEmpty {
                return merged(alternatives.map { shape($0, depth: depth + 1) })
            }
            var fields: [String: RequestShape] = [:]
            for (name, property) in (schema["properties"] as? [String: Any]) ?? [:] {
                fields[name] = shape(property, depth: depth + 1)
            }
            let types = (schema["type"] as? String).map { [$0] } ?? (schema["type"] as? [String]) ?? []
            let additional = schema["additionalProperties"]
            return RequestShape(
                fields: fields,
                values: additional is [String: Any] ? shape(additional as Any, depth: depth + 1) : nil,
                items: schema["items"].map { shape($0, depth: depth + 1) },
                choices: (schema["enum"] as? [Any] ?? []).compactMap { $0 as? String },
                integer: types.contains("integer") && !types.contains("number"))
        }

        private func merged(_ shapes: [RequestShape]) -> RequestShape {
            RequestShape(
                fields: shapes.reduce(into: [:]) { fields, shape in fields.merge(shape.fields) { first, _ in first } },
                values: shapes.lazy.compactMap(\.values).first,
                items: shapes.lazy.compactMap(\.items).first,
                choices: shapes.flatMap(\.choices),
                integer: shapes.allSatisfy(\.integer))
        }
    }
}
