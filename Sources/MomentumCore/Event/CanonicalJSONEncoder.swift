import Foundation

/// Writes Momentum's canonical JSON — keys sorted by their UTF-8 bytes, RFC 3339 instants,
/// slashes unescaped, whole doubles without `.0` — byte for byte as
/// ``MomentumJSON/encoder(pretty:)`` does, several times faster.
///
/// Foundation's encoder builds a tree of dictionaries and casts every value to find dates
/// and URLs; this one writes each value's bytes as it is encoded and puts an object's
/// entries in key order once the object is complete. The tests compare the two, byte for
/// byte, on generated logs, states and summaries, the bundled catalogs and packs, and edge
/// cases. Known differences, none of which Momentum's types do: a nested container asked
/// for twice for one key keeps only the second, and `Int128` values are not supported.
enum CanonicalJSONEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let stream = JSONStream()
        do {
            try stream.write(value, depth: 0)
            if !stream.broken, !stream.out.isEmpty,
                stream.out != [UInt8(ascii: "{"), UInt8(ascii: "}")] || hasContainer(value)
            {
                return stream.out
            }
        } catch {
            // A value the stream cannot follow is encoded again as a tree; so is one that
            // failed after the stream gave up (the tree reports the error's full path).
            guard error is JSONStream.NeedsTree || stream.broken else { throw error }
        }
        return try tree(value)
    }

    /// Whether a value that wrote `{}` did so by opening a container (else it encoded nothing).
    private static func hasContainer<T: Encodable>(_ value: T) -> Bool {
        let probe = JSONNode(pool: JSONNodePool())
        try? value.encode(to: JSONNodeEncoder(node: probe, path: JSONPath(parent: nil, key: nil)))
        return probe.kind != .empty
    }

    /// Encodes through a tree of nodes, which follows any use of the `Encoder` protocol.
    static func tree<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = JSONNode(pool: JSONNodePool())
        try root.store(value, parent: JSONPath(parent: nil, key: nil), key: nil)
        var out: [UInt8] = []
        out.reserveCapacity(root.bytes.count + 16)
        guard root.kind != .empty else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        root.write(into: &out)
        return out
    }
}

/// Where a value sits, kept as a linked list so that nesting costs no array copies; turned
/// into a coding path only when an error needs one.
final class JSONPath {
    let parent: JSONPath?
    let key: (any CodingKey)?

    init(parent: JSONPath?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    func appending(_ key: any CodingKey) -> JSONPath { JSONPath(parent: self, key: key) }

    func appending(_ key: (any CodingKey)?) -> JSONPath {
        guard let key else { return self }
        return JSONPath(parent: self, key: key)
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: JSONPath? = self
        while let current = node {
            if let key = current.key { keys.append(key) }
            node = current.parent
        }
        return keys.reversed()
    }
}

struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// One JSON value under construction: a scalar's bytes, or a container's entries.
final class JSONNode {
    enum Kind { case empty, scalar, object, array }

    /// A container entry: bytes already written into ``bytes``, or a nested container
    /// handed out by `nestedContainer` and filled later.
    enum Slot {
        case bytes(Range<Int>)
        case node(JSONNode)
    }

    var kind = Kind.empty
    /// A scalar's JSON, or the bytes of a container's finished entries.
    var bytes: [UInt8] = []
    var keys: [String] = []
    var slots: [Slot] = []
    /// Spare nodes of this encoding, reused for nested values.
    let pool: JSONNodePool

    init(pool: JSONNodePool) {
        self.pool = pool
    }

    /// Empties the node for reuse, keeping its storage.
    func reset() {
        kind = .empty
        bytes.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
    }

    // MARK: Storing values

    func setScalar(_ write: (inout [UInt8]) -> Void) {
        precondition(kind == .empty, "a single value container may hold one value only")
        kind = .scalar
        write(&bytes)
    }

    /// Appends an entry written by `write` (for objects, `key` names it).
    @inline(__always)
    func addEntry(key: String?, _ write: (inout [UInt8]) throws -> Void) rethrows {
        let start = bytes.count
        try write(&bytes)
        if let key { keys.append(key) }
        slots.append(.bytes(start..<bytes.count))
    }

    func addNode(key: String?) -> JSONNode {
        let node = JSONNode(pool: pool)
        if let key { keys.append(key) }
        slots.append(.node(node))
        return node
    }

    /// Encodes `value`, found at `key` under `parent`, as this node's whole content.
    func store<T: Encodable>(_ value: T, parent: JSONPath, key: (any CodingKey)?) throws {
        if try JSONNode.writeSpecial(value, path: parent.appending(key), into: &bytes) {
            kind = .scalar
            return
        }
        try value.encode(to: JSONNodeEncoder(node: self, path: parent.appending(key)))
    }

    /// Appends `value` as an entry of this container (`name` names it in an object).
    func add<T: Encodable>(_ value: T, name: String?, parent: JSONPath, key: any CodingKey) throws {
        let start = bytes.count
        if try !JSONNode.writeSpecial(value, path: parent.appending(key), into: &bytes) {
            let child = pool.take()
            defer { pool.give(child) }
            try value.encode(to: JSONNodeEncoder(node: child, path: parent.appending(key)))
            child.write(into: &bytes)
        }
        if let name { keys.append(name) }
        slots.append(.bytes(start..<bytes.count))
    }

    /// Writes the values Foundation's encoder treats specially (and the common scalars,
    /// without going through their `encode(to:)`); returns false for anything else. The
    /// path is built only for an error.
    @inline(__always)
    static func writeSpecial<T: Encodable>(
        _ value: T, path: @autoclosure () -> JSONPath, into out: inout [UInt8]
    ) throws -> Bool {
        if T.self == String.self {
            JSONBytes.string(unsafeBitCast(value, to: String.self), into: &out)
        } else if T.self == Int.self {
            JSONBytes.integer(Int64(unsafeBitCast(value, to: Int.self)), into: &out)
        } else if T.self == Double.self {
            try JSONBytes.double(unsafeBitCast(value, to: Double.self), path: path(), into: &out)
        } else if T.self == Bool.self {
            JSONBytes.bool(unsafeBitCast(value, to: Bool.self), into: &out)
        } else if T.self == Date.self {
            JSONBytes.instant(unsafeBitCast(value, to: Date.self), into: &out)
        } else if T.self == LocalDay.self {
            JSONBytes.day(unsafeBitCast(value, to: LocalDay.self), into: &out)
        } else if T.self == Data.self, let data = value as? Data {
            JSONBytes.string(data.base64EncodedString(), into: &out)
        } else if T.self == URL.self, let url = value as? URL {
            JSONBytes.string(url.absoluteString, into: &out)
        } else if T.self == Decimal.self, let decimal = value as? Decimal {
            out.append(contentsOf: decimal.description.utf8)
        } else {
            return false
        }
        return true
    }

    // MARK: Writing

    /// Writes the finished value.
    func write(into out: inout [UInt8]) {
        switch kind {
        case .empty:
            // Foundation writes a value that encoded nothing as an empty object.
            out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .scalar:
            out.append(contentsOf: bytes)
        case .array:
            out.append(UInt8(ascii: "["))
            for index in slots.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeSlot(index, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object:
            out.append(UInt8(ascii: "{"))
            var order = pool.order
            pool.order = []
            defer {
                order.removeAll(keepingCapacity: true)
                pool.order = order
            }
            order.append(contentsOf: keys.indices)
            order.sort { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
            var duplicates = false
            for position in order.indices.dropFirst() where keys[order[position - 1]] == keys[order[position]] {
                duplicates = true
            }
            if duplicates {
                // A key encoded twice keeps its last value, as in a dictionary.
                var last: [String: Int] = [:]
                for index in keys.indices { last[keys[index]] = index }
                order = last.values.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
            }
            for (position, index) in order.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                JSONBytes.string(keys[index], into: &out)
                out.append(UInt8(ascii: ":"))
                writeSlot(index, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private func writeSlot(_ index: Int, into out: inout [UInt8]) {
        switch slots[index] {
        case .bytes(let range): out.append(contentsOf: bytes[range])
        case .node(let node): node.write(into: &out)
        }
    }
}

/// The spare nodes of one encoding: a nested value borrows one and gives it back once
/// written, so that an encoding allocates a handful of buffers instead of several per value.
final class JSONNodePool {
    private var spare: [JSONNode] = []
    /// Scratch space for sorting an object's keys.
    var order: [Int] = []

    func take() -> JSONNode {
        spare.popLast() ?? JSONNode(pool: self)
    }

    func give(_ node: JSONNode) {
        node.reset()
        spare.append(node)
    }
}
