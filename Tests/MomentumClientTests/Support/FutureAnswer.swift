import Foundation
import MomentumAPI

/// What a later server of `/v1` may add to an answer (docs/api-versioning.md), applied to a
/// recorded answer where openapi.json says it may: a field at every object level, another
/// value wherever an enumeration is, events of a type no one knows yet in a pull.
enum FutureAnswer: String, CaseIterable, Sendable, CustomStringConvertible {
    case asRecorded, unknownFields, unknownEnumValues, unknownEventTypes

    var description: String { rawValue }

    /// The value an added enumeration value has.
    static let unknownValue = "zz-future-value"

    /// The answer changed as a later server could send it.
    func apply(to answer: Any, operation: String, status: Int) -> Any {
        guard self != .asRecorded, let schema = Self.document.answerSchema(operation, status) else { return answer }
        let changed = Self.document.change(answer, schema, self)
        return self == .unknownEventTypes ? Self.addingUnknownEvents(to: changed) : changed
    }

    /// A pull page (`events`, `cursor`) with an event of an unknown type, with unknown
    /// fields, after its last: a newer device's event, passed on by the server.
    static func addingUnknownEvents(to answer: Any) -> Any {
        guard var page = answer as? [String: Any], var events = page["events"] as? [[String: Any]],
            var pulled = events.last, let event = pulled["event"] as? [String: Any],
            let cursor = page["cursor"] as? Int
        else { return answer }
        pulled["seq"] = cursor + 1
        pulled["event"] = [
            "id": "zz-future-event", "type": "zz.future", "at": event["at"] ?? "", "tz": event["tz"] ?? "UTC",
            "zzFutureField": ["nested": [1, "two"]],
        ]
        events.append(pulled)
        page["events"] = events
        page["cursor"] = cursor + 1
        return page
    }

    private static let document = Document()

    /// openapi.json's answer schemas, read once.
    private final class Document: @unchecked Sendable {  // immutable after init
        private let schemas: [String: Any]
        private let answers: [String: [String: Any]]

        init() {
            let document = (try? JSONSerialization.jsonObject(with: APIDocument.data)) as? [String: Any] ?? [:]
            schemas = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
            var answers: [String: [String: Any]] = [:]
            for (_, operations) in document["paths"] as? [String: [String: Any]] ?? [:] {
                for (_, operation) in operations {
                    guard let operation = operation as? [String: Any], let id = operation["operationId"] as? String
                    else { continue }
                    for (status, response) in operation["responses"] as? [String: Any] ?? [:] {
                        let content = (response as? [String: Any])?["content"] as? [String: Any]
                        let schema = (content?["application/json"] as? [String: Any])?["schema"]
                        if let schema { answers[id, default: [:]][status] = schema }
                    }
                }
            }
            self.answers = answers
        }

        func answerSchema(_ operation: String, _ status: Int) -> Any? { answers[operation]?[String(status)] }

        private func resolve(_ schema: Any) -> [String: Any] {
            var schema = schema as? [String: Any] ?? [:]
            while let reference = schema["$ref"] as? String {
                schema = schemas[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:]
            }
            return schema
        }

        /// Whether a value is of a schema's JSON type (any, when the schema names none).
        private func fits(_ value: Any, _ schema: [String: Any]) -> Bool {
            let types = (schema["type"] as? String).map { [$0] } ?? (schema["type"] as? [String]) ?? []
            guard !types.isEmpty else { return true }
            switch value {
            case is NSNull: return types.contains("null")
            case is String: return types.contains("string")
            case is [Any]: return types.contains("array")
            case is [String: Any]: return types.contains("object")
            default: return types.contains { ["number", "integer", "boolean"].contains($0) }
            }
        }

        func change(_ value: Any, _ schema: Any, _ kind: FutureAnswer) -> Any {
            let schema = resolve(schema)
            if let options = (schema["anyOf"] ?? schema["oneOf"]) as? [Any] {
                let resolved = options.map(resolve)
                // An open enumeration: its known values, or any string.
                if resolved.contains(where: { $0["enum"] != nil }),
                    resolved.contains(where: { $0.keys.sorted() == ["type"] && $0["type"] as? String == "string" })
                {
                    return kind == .unknownEnumValues && value is String ? FutureAnswer.unknownValue : value
                }
                guard let fitting = resolved.first(where: { fits(value, $0) }) else { return value }
                return change(value, fitting, kind)
            }
            if var object = value as? [String: Any] {
                let properties = schema["properties"] as? [String: Any] ?? [:]
                let map = schema["additionalProperties"].flatMap { $0 as? [String: Any] }
                for (key, item) in object {
                    if let property = properties[key] {
                        object[key] = change(item, property, kind)
                    } else if let map {
                        object[key] = change(item, map, kind)
                    }
                }
                // A map's keys are data, not fields: only an object with fields gets one.
                if kind == .unknownFields, !properties.isEmpty {
                    object["zzFutureField"] = ["zzNested": ["text", 2, true], "zzFlag": false]
                    object["zzFutureText"] = "a field of a later server"
                }
                return object
            }
            if let array = value as? [Any], let items = schema["items"] {
                return array.map { change($0, items, kind) }
            }
            return value
        }
    }
}
