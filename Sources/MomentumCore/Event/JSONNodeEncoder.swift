import Foundation

/// The `Encoder` a value encodes itself to.
struct JSONNodeEncoder: Encoder {
    let node: JSONNode
    let path: JSONPath

    var codingPath: [any CodingKey] { path.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind == .empty { node.kind = .object }
        precondition(node.kind == .object, "a value asked for a keyed container after encoding something else")
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(node: node, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind == .empty { node.kind = .array }
        precondition(node.kind == .array, "a value asked for an unkeyed container after encoding something else")
        return JSONUnkeyedContainer(node: node, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleContainer(node: node, path: path)
    }
}

struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let path: JSONPath

    var codingPath: [any CodingKey] { path.codingPath }

    mutating func encodeNil(forKey key: Key) throws {
        node.addEntry(key: key.stringValue) { JSONBytes.null(into: &$0) }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        node.addEntry(key: key.stringValue) { JSONBytes.bool(value, into: &$0) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        node.addEntry(key: key.stringValue) { JSONBytes.string(value, into: &$0) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try node.addEntry(key: key.stringValue) { try JSONBytes.double(value, path: path.appending(key), into: &$0) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try node.addEntry(key: key.stringValue) { try JSONBytes.float(value, path: path.appending(key), into: &$0) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { unsigned(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.add(value, name: key.stringValue, parent: path, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.addNode(key: key.stringValue)
        child.kind = .object
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(node: child, path: path.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.addNode(key: key.stringValue)
        child.kind = .array
        return JSONUnkeyedContainer(node: child, path: path.appending(key))
    }

    mutating func superEncoder() -> any Encoder {
        JSONNodeEncoder(node: node.addNode(key: "super"), path: path.appending(JSONSuperKey()))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONNodeEncoder(node: node.addNode(key: key.stringValue), path: path.appending(key))
    }

    private func integer(_ value: Int64, _ key: Key) {
        node.addEntry(key: key.stringValue) { JSONBytes.integer(value, into: &$0) }
    }

    private func unsigned(_ value: UInt64, _ key: Key) {
        node.addEntry(key: key.stringValue) { JSONBytes.unsigned(value, into: &$0) }
    }
}

struct JSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let path: JSONPath

    var codingPath: [any CodingKey] { path.codingPath }
    var count: Int { node.slots.count }

    private var nextPath: JSONPath { path.appending(JSONIndexKey(index: count)) }

    mutating func encodeNil() throws { node.addEntry(key: nil) { JSONBytes.null(into: &$0) } }
    mutating func encode(_ value: Bool) throws { node.addEntry(key: nil) { JSONBytes.bool(value, into: &$0) } }
    mutating func encode(_ value: String) throws { node.addEntry(key: nil) { JSONBytes.string(value, into: &$0) } }
    mutating func encode(_ value: Double) throws {
        let path = path, index = count
        try node.addEntry(key: nil) {
            try JSONBytes.double(value, path: path.appending(JSONIndexKey(index: index)), into: &$0)
        }
    }
    mutating func encode(_ value: Float) throws {
        let path = path, index = count
        try node.addEntry(key: nil) {
            try JSONBytes.float(value, path: path.appending(JSONIndexKey(index: index)), into: &$0)
        }
    }
    mutating func encode(_ value: Int) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int8) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int16) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int32) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int64) throws { integer(value) }
    mutating func encode(_ value: UInt) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { unsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.add(value, name: nil, parent: path, key: JSONIndexKey(index: count))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = node.addNode(key: nil)
        child.kind = .object
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(node: child, path: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = node.addNode(key: nil)
        child.kind = .array
        return JSONUnkeyedContainer(node: child, path: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return JSONNodeEncoder(node: node.addNode(key: nil), path: path)
    }

    private func integer(_ value: Int64) { node.addEntry(key: nil) { JSONBytes.integer(value, into: &$0) } }
    private func unsigned(_ value: UInt64) { node.addEntry(key: nil) { JSONBytes.unsigned(value, into: &$0) } }
}

struct JSONSingleContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let path: JSONPath

    var codingPath: [any CodingKey] { path.codingPath }

    mutating func encodeNil() throws { node.setScalar { JSONBytes.null(into: &$0) } }
    mutating func encode(_ value: Bool) throws { node.setScalar { JSONBytes.bool(value, into: &$0) } }
    mutating func encode(_ value: String) throws { node.setScalar { JSONBytes.string(value, into: &$0) } }
    mutating func encode(_ value: Double) throws {
        var bytes: [UInt8] = []
        try JSONBytes.double(value, path: path, into: &bytes)
        node.setScalar { $0.append(contentsOf: bytes) }
    }
    mutating func encode(_ value: Float) throws {
        var bytes: [UInt8] = []
        try JSONBytes.float(value, path: path, into: &bytes)
        node.setScalar { $0.append(contentsOf: bytes) }
    }
    mutating func encode(_ value: Int) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int8) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int16) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int32) throws { integer(Int64(value)) }
    mutating func encode(_ value: Int64) throws { integer(value) }
    mutating func encode(_ value: UInt) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { unsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        precondition(node.kind == .empty, "a single value container may hold one value only")
        try node.store(value, parent: path, key: nil)
        // Foundation writes a wrapped value that encoded nothing as an empty object.
        if node.kind == .empty { node.kind = .object }
    }

    private func integer(_ value: Int64) { node.setScalar { JSONBytes.integer(value, into: &$0) } }
    private func unsigned(_ value: UInt64) { node.setScalar { JSONBytes.unsigned(value, into: &$0) } }
}
