import Foundation

struct JSONStreamEncoder: Encoder {
    let stream: JSONStream
    /// The depth of the frame this value's container occupies.
    let depth: Int

    var codingPath: [any CodingKey] { stream.codingPath(depth: depth) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if stream.frames.count == depth {
            stream.open(object: true)
        } else if stream.frames.count != depth + 1 || !stream.frames[depth].isObject {
            stream.broken = true
        }
        return KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(stream: stream, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if stream.frames.count == depth {
            stream.open(object: false)
        } else if stream.frames.count != depth + 1 || stream.frames[depth].isObject {
            stream.broken = true
        }
        return JSONStreamUnkeyedContainer(stream: stream, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamSingleContainer(stream: stream, depth: depth)
    }
}

struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: JSONStream
    let depth: Int

    var codingPath: [any CodingKey] { stream.codingPath(depth: depth) }

    @inline(__always)
    private func entry(_ key: Key, _ write: (inout [UInt8]) throws -> Void) throws {
        try stream.beginEntry(key: key.stringValue, depth: depth)
        try write(&stream.out)
    }

    mutating func encodeNil(forKey key: Key) throws { try entry(key) { JSONBytes.null(into: &$0) } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try entry(key) { JSONBytes.bool(value, into: &$0) } }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try entry(key) { JSONBytes.string(value, into: &$0) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        let stream = stream, depth = depth
        try entry(key) {
            try JSONBytes.double(value, path: JSONPath(keys: stream.codingPath(depth: depth) + [key]), into: &$0)
        }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        let stream = stream, depth = depth
        try entry(key) {
            try JSONBytes.float(value, path: JSONPath(keys: stream.codingPath(depth: depth) + [key]), into: &$0)
        }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try unsigned(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try stream.beginEntry(key: key.stringValue, depth: depth)
        stream.setKey(key, depth: depth + 1)
        try stream.write(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        stream.broken = true
        return JSONNodeEncoder(node: JSONNode(pool: JSONNodePool()), path: JSONPath(parent: nil, key: nil)).container(
            keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        stream.broken = true
        return JSONNodeEncoder(node: JSONNode(pool: JSONNodePool()), path: JSONPath(parent: nil, key: nil))
            .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        stream.broken = true
        return JSONNodeEncoder(node: JSONNode(pool: JSONNodePool()), path: JSONPath(parent: nil, key: nil))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }

    private func integer(_ value: Int64, _ key: Key) throws { try entry(key) { JSONBytes.integer(value, into: &$0) } }
    private func unsigned(_ value: UInt64, _ key: Key) throws {
        try entry(key) { JSONBytes.unsigned(value, into: &$0) }
    }
}

struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let stream: JSONStream
    let depth: Int

    var codingPath: [any CodingKey] { stream.codingPath(depth: depth) }
    var count: Int { stream.frames.count > depth ? stream.frames[depth].count : 0 }

    @inline(__always)
    private func element(_ write: (inout [UInt8]) throws -> Void) throws {
        try stream.beginEntry(key: nil, depth: depth)
        try write(&stream.out)
    }

    mutating func encodeNil() throws { try element { JSONBytes.null(into: &$0) } }
    mutating func encode(_ value: Bool) throws { try element { JSONBytes.bool(value, into: &$0) } }
    mutating func encode(_ value: String) throws { try element { JSONBytes.string(value, into: &$0) } }
    mutating func encode(_ value: Double) throws {
        let path = JSONIndexPath(stream: stream, depth: depth, index: count)
        try element { try JSONBytes.double(value, path: path.path, into: &$0) }
    }
    mutating func encode(_ value: Float) throws {
        let path = JSONIndexPath(stream: stream, depth: depth, index: count)
        try element { try JSONBytes.float(value, path: path.path, into: &$0) }
    }
    mutating func encode(_ value: Int) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try integer(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { try unsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try stream.beginEntry(key: nil, depth: depth)
        stream.setKey(JSONIndexKey(index: index), depth: depth + 1)
        try stream.write(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        stream.broken = true
        return JSONNodeEncoder(node: JSONNode(pool: JSONNodePool()), path: JSONPath(parent: nil, key: nil)).container(
            keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        stream.broken = true
        return JSONNodeEncoder(node: JSONNode(pool: JSONNodePool()), path: JSONPath(parent: nil, key: nil))
            .unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        stream.broken = true
        return JSONNodeEncoder(node: JSONNode(pool: JSONNodePool()), path: JSONPath(parent: nil, key: nil))
    }

    private func integer(_ value: Int64) throws { try element { JSONBytes.integer(value, into: &$0) } }
    private func unsigned(_ value: UInt64) throws { try element { JSONBytes.unsigned(value, into: &$0) } }
}

/// The path of an array element, built only if an error needs it.
struct JSONIndexPath {
    let stream: JSONStream
    let depth: Int
    let index: Int

    var path: JSONPath { JSONPath(keys: stream.codingPath(depth: depth) + [JSONIndexKey(index: index)]) }
}

struct JSONStreamSingleContainer: SingleValueEncodingContainer {
    let stream: JSONStream
    let depth: Int

    var codingPath: [any CodingKey] { stream.codingPath(depth: depth) }

    @inline(__always)
    private func scalar(_ write: (inout [UInt8]) throws -> Void) throws {
        guard stream.frames.count == depth else { throw stream.giveUp() }
        try write(&stream.out)
    }

    mutating func encodeNil() throws { try scalar { JSONBytes.null(into: &$0) } }
    mutating func encode(_ value: Bool) throws { try scalar { JSONBytes.bool(value, into: &$0) } }
    mutating func encode(_ value: String) throws { try scalar { JSONBytes.string(value, into: &$0) } }
    mutating func encode(_ value: Double) throws {
        let stream = stream, depth = depth
        try scalar { try JSONBytes.double(value, path: JSONPath(keys: stream.codingPath(depth: depth)), into: &$0) }
    }
    mutating func encode(_ value: Float) throws {
        let stream = stream, depth = depth
        try scalar { try JSONBytes.float(value, path: JSONPath(keys: stream.codingPath(depth: depth)), into: &$0) }
    }
    mutating func encode(_ value: Int) throws { try scalar { JSONBytes.integer(Int64(value), into: &$0) } }
    mutating func encode(_ value: Int8) throws { try scalar { JSONBytes.integer(Int64(value), into: &$0) } }
    mutating func encode(_ value: Int16) throws { try scalar { JSONBytes.integer(Int64(value), into: &$0) } }
    mutating func encode(_ value: Int32) throws { try scalar { JSONBytes.integer(Int64(value), into: &$0) } }
    mutating func encode(_ value: Int64) throws { try scalar { JSONBytes.integer(value, into: &$0) } }
    mutating func encode(_ value: UInt) throws { try scalar { JSONBytes.unsigned(UInt64(value), into: &$0) } }
    mutating func encode(_ value: UInt8) throws { try scalar { JSONBytes.unsigned(UInt64(value), into: &$0) } }
    mutating func encode(_ value: UInt16) throws { try scalar { JSONBytes.unsigned(UInt64(value), into: &$0) } }
    mutating func encode(_ value: UInt32) throws { try scalar { JSONBytes.unsigned(UInt64(value), into: &$0) } }
    mutating func encode(_ value: UInt64) throws { try scalar { JSONBytes.unsigned(value, into: &$0) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard stream.frames.count == depth else { throw stream.giveUp() }
        try stream.write(value, depth: depth)
    }
}
