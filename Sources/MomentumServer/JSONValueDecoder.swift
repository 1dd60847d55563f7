import Foundation
import MomentumCore

/// Decodes a `Decodable` value straight from a ``JSONValue`` tree, with the same results and
/// the same errors as writing the tree out and reading it back with
/// `MomentumJSON.decoder()` (a `JSONDecoder`), without the round trip through bytes. Two
/// errors differ, for the better: a number that is not an integer where one is wanted
/// (`"days": 1.5`) is a type mismatch of that field, where `JSONDecoder` called the whole
/// body unreadable; and a value outside an enumeration names the values it takes
/// (`"loud" is not one of full, subtle, minimal, off`), not the Swift type.
///
/// Every request body is decoded this way, once, into its typed request
/// (``JSONIO/decodeBody(_:from:userInfo:emptyIsObject:)``): unlike `JSONDecoder`, the
/// decoding sees which fields it asked for, so a field the type does not know is refused
/// by name (``decodeKnownFields(_:from:userInfo:)``) rather than dropped without a word.
struct JSONValueDecoder {
    /// Decodes `type` from `value`.
    ///
    /// - Throws: `DecodingError`, as `JSONDecoder` would for the same JSON.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws -> T {
        try ValueDecoder(value: value, codingPath: [], fields: nil, userInfo: userInfo).decodeValue(type)
    }

    /// Decodes `type` from `value`, refusing a field of an object that `type` does not know:
    /// one that decoding never asked for (a misspelt `timezone` would otherwise change
    /// nothing, silently). An object whose decoding lists its keys itself (a dictionary, an
    /// event) checks its own.
    ///
    /// - Throws: `DecodingError`; for an unknown field, `dataCorrupted` at its path, naming
    ///   the fields that are known there.
    static func decodeKnownFields<T: Decodable>(
        _ type: T.Type, from value: JSONValue, userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws -> T {
        let fields = FieldLog()
        let decoded = try ValueDecoder(value: value, codingPath: [], fields: fields, userInfo: userInfo)
            .decodeValue(type)
        if let (path, key, known) = fields.firstUnknown() {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path + [PathKey(stringValue: key)],
                    debugDescription: known.isEmpty
                        ? "is not a field here" : "is not a field here (\(known.joined(separator: ", ")))"))
        }
        return decoded
    }
}

/// Which keys of each object a decoding asked for.
private final class FieldLog {
    /// One object of the JSON, shared by every container opened on it (a type's decoder
    /// and the payload decoder it hands the same decoder to), so that a key asked for is
    /// recorded without looking the object up again.
    final class Object {
        let path: [any CodingKey]
        let keys: [String]
        var asked: Set<String> = []
        /// Whether the decoding read the object's keys itself (and so checks them).
        var listed = false

        init(path: [any CodingKey], keys: [String]) {
            self.path = path
            self.keys = keys
        }
    }
    var objects: [String: Object] = [:]
    var order: [String] = []

    /// The record of the object at `path`, made when it is first opened.
    func opened(_ path: [any CodingKey], keys: [String]) -> Object {
        let name = JSONIO.path(path)
        if let object = objects[name] { return object }
        let object = Object(path: path, keys: keys)
        objects[name] = object
        order.append(name)
        return object
    }

    /// The first key, in the order the objects were opened, that no decoding asked for.
    func firstUnknown() -> (path: [any CodingKey], key: String, known: [String])? {
        for name in order {
            guard let object = objects[name], !object.listed,
                object.keys.contains(where: { !object.asked.contains($0) })
            else { continue }
            // Only an object with an unknown key pays for sorting its keys.
            if let key = object.keys.sorted().first(where: { !object.asked.contains($0) }) {
                return (object.path, key, object.asked.sorted())
            }
        }
        return nil
    }
}

/// A key of an object or an index of an array, in a coding path.
private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    /// Records the keys asked for, when unknown fields are refused.
    let fields: FieldLog?
    /// What the decoding was given to work with (an ``EventRequest``'s route).
    let userInfo: [CodingUserInfoKey: Any]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self, codingPath)
        }
        let record = fields?.opened(codingPath, keys: Array(object.keys))
        return KeyedDecodingContainer(
            KeyedContainer<Key>(
                object: object, codingPath: codingPath, fields: fields, record: record, userInfo: userInfo))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch([Any].self, codingPath) }
        return UnkeyedContainer(array: array, codingPath: codingPath, fields: fields, userInfo: userInfo)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes a value of any type at this decoder's place.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self {
            let text = try decode(String.self)
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "'\(text)' is not an RFC 3339 timestamp"))
            }
            // The cast cannot fail: T is Date.
            return date as! T  // swiftlint:disable:this force_cast
        }
        do {
            return try T(from: self)
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.count == codingPath.count && Self.choices(of: type) != nil
        {
            // A value outside an enumeration: name the values it takes, not the Swift type.
            let choices = Self.choices(of: type) ?? []
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "\(value.text) is not one of \(choices.joined(separator: ", "))"))
        }
    }

    /// The raw values of an enumeration that lists its cases, or `nil` for other types.
    static func choices(of type: Any.Type) -> [String]? {
        guard let enumeration = type as? any CaseIterable.Type else { return nil }
        let choices = rawValues(enumeration)
        return choices.isEmpty ? nil : choices
    }

    private static func rawValues<C: CaseIterable>(_ type: C.Type) -> [String] {
        C.allCases.compactMap { ($0 as? any RawRepresentable).map { "\($0.rawValue)" } }
    }

    func mismatch(_ expected: Any.Type, _ path: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return .valueNotFound(
                expected,
                .init(
                    codingPath: path,
                    debugDescription: "Cannot get value of type \(expected) -- found null value instead"))
        }
        return .typeMismatch(
            expected,
            .init(
                codingPath: path,
                debugDescription: "Expected to decode \(expected) but found \(value.kindName) instead."))
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let number) = value else { throw mismatch(type, codingPath) }
        guard number.rounded() == number, let exact = I(exactly: number) else {
            // JSONDecoder reports this as unreadable JSON, which it is not: the field is
            // named instead ("must be an integer").
            throw DecodingError.typeMismatch(
                type,
                .init(
                    codingPath: codingPath,
                    debugDescription: "\(JSONValue.number(number).text) is not an integer that fits in \(type)"))
        }
        return exact
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type, codingPath) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, codingPath) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(type, codingPath) }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard case .number(let number) = value else { throw mismatch(type, codingPath) }
        return Float(number)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [any CodingKey]
    let fields: FieldLog?
    /// This object's record in `fields`, where the keys asked for go.
    let record: FieldLog.Object?
    let userInfo: [CodingUserInfoKey: Any]

    var allKeys: [Key] {
        record?.listed = true
        return object.keys.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        record?.asked.insert(key.stringValue)
        return object[key.stringValue] != nil
    }

    private func decoder(for key: Key) throws -> ValueDecoder {
        record?.asked.insert(key.stringValue)
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key], fields: fields, userInfo: userInfo)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(
            value: object["super"] ?? .null, codingPath: codingPath + [PathKey(stringValue: "super")], fields: fields,
            userInfo: userInfo)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        record?.asked.insert(key.stringValue)
        return ValueDecoder(
            value: object[key.stringValue] ?? .null, codingPath: codingPath + [key], fields: fields, userInfo: userInfo)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let codingPath: [any CodingKey]
    let fields: FieldLog?
    let userInfo: [CodingUserInfoKey: Any]
    var currentIndex = 0

    init(array: [JSONValue], codingPath: [any CodingKey], fields: FieldLog?, userInfo: [CodingUserInfoKey: Any]) {
        self.array = array
        self.codingPath = codingPath
        self.fields = fields
        self.userInfo = userInfo
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        let path = codingPath + [PathKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: array[currentIndex], codingPath: path, fields: fields, userInfo: userInfo)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self,
                .init(
                    codingPath: codingPath + [PathKey(intValue: currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        if array[currentIndex] == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

extension JSONValue {
    /// What kind of JSON value this is, as `JSONDecoder`'s errors name it.
    fileprivate var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "dictionary"
        }
    }

    /// The value as Momentum's encoder writes it.
    fileprivate var text: String {
        (try? MomentumJSON.encodeBytes(self)).map { String(decoding: $0, as: UTF8.self) } ?? "\(self)"
    }
}
