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

/// The JSON spelling of scalars, as Foundation's encoder writes them.
enum JSONBytes {
    static func null(into out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    static func bool(_ value: Bool, into out: inout [UInt8]) {
        out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    static func integer(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            unsigned(value.magnitude, into: &out)
        } else {
            unsigned(UInt64(value), into: &out)
        }
    }

    static func unsigned(_ value: UInt64, into out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes, enough for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(32 - count)...])
        }
    }

    /// An instant as ``RFC3339/format(_:)`` writes it.
    static func instant(_ date: Date, into out: inout [UInt8]) {
        let total = date.timeIntervalSince1970
        guard total.isFinite, abs(total) < 2.5e11 else {
            string(RFC3339.format(date), into: &out)
            return
        }
        // The millisecond the instant lies in, truncated, as `format` writes it.
        let (s, millis) = RFC3339.parts(total)
        let dayNumber = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        let secondOfDay = s - dayNumber * 86_400
        let (year, month, day) = LocalDay.civil(fromDayNumber: dayNumber)
        guard (0...9999).contains(year) else {
            string(RFC3339.format(date), into: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        civil(year, month, day, into: &out)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, into: &out)
        if millis > 0 {
            out.append(UInt8(ascii: "."))
            digits(millis, 3, into: &out)
        }
        out.append(UInt8(ascii: "Z"))
        out.append(UInt8(ascii: "\""))
    }

    /// A local day as its `description` writes it.
    static func day(_ day: LocalDay, into out: inout [UInt8]) {
        let (year, month, dayOfMonth) = day.civil
        guard (0...9999).contains(year) else {
            string(day.description, into: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        civil(year, month, dayOfMonth, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    private static func civil(_ year: Int, _ month: Int, _ day: Int, into out: inout [UInt8]) {
        digits(year, 4, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(month, 2, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(day, 2, into: &out)
    }

    /// `value` (0 ≤ value < 10^width) in exactly `width` digits.
    private static func digits(_ value: Int, _ width: Int, into out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func double(_ value: Double, path: @autoclosure () -> JSONPath, into out: inout [UInt8]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path().codingPath,
                    debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        number(value.description, into: &out)
    }

    static func float(_ value: Float, path: @autoclosure () -> JSONPath, into out: inout [UInt8]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path().codingPath,
                    debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        number(value.description, into: &out)
    }

    private static func number(_ text: String, into out: inout [UInt8]) {
        var utf8 = Substring(text).utf8
        if utf8.count >= 2, utf8.last == UInt8(ascii: "0"),
            utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".")
        {
            utf8 = utf8.dropLast(2)
        }
        out.append(contentsOf: utf8)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                start = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                        hex[Int(byte & 0xF)],
                    ])
                }
            }
            if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
