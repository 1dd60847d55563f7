import Foundation

/// The fast path of ``CanonicalJSONEncoder``: every value writes straight into one buffer.
///
/// An object's entries are written in the order they are encoded; when the object closes,
/// they are put in key order in place (most objects need a single comparison per key to
/// know they need nothing). A value whose `encode(to:)` does what a stream cannot follow —
/// asking for a nested container and filling it later, a super encoder — makes the stream
/// give up, and the value is encoded again with the tree of ``JSONNode``s.
final class JSONStream {
    struct Frame {
        var isObject: Bool
        /// Where the first entry starts (just after the bracket).
        var start: Int
        /// The first of this object's entries in ``entryKeys`` and ``entryStarts``.
        var entryBase: Int
        var count = 0
        var sorted = true
    }

    /// Thrown (and caught by the encoder) when the stream cannot follow a value.
    struct NeedsTree: Error {}

    private struct Storage {
        var out: [UInt8] = []
        var frames: [Frame] = []
        var entryKeys: [String] = []
        var entryStarts: [Int] = []
        var pathKeys: [any CodingKey] = []
    }

    // The buffers live behind a pointer: a class's stored properties pay a dynamic
    // exclusivity check on every mutation, which cost a third of the encoding time.
    private let storage: UnsafeMutablePointer<Storage>

    /// The JSON written so far.
    var out: [UInt8] {
        _read { yield storage.pointee.out }
        _modify { yield &storage.pointee.out }
    }
    /// The open containers, outermost first.
    var frames: [Frame] {
        _read { yield storage.pointee.frames }
        _modify { yield &storage.pointee.frames }
    }
    /// The keys of the open objects' entries.
    var entryKeys: [String] {
        _read { yield storage.pointee.entryKeys }
        _modify { yield &storage.pointee.entryKeys }
    }
    /// Where each of those entries starts in ``out``.
    var entryStarts: [Int] {
        _read { yield storage.pointee.entryStarts }
        _modify { yield &storage.pointee.entryStarts }
    }
    /// The coding path of the value being written: the key at each depth.
    var pathKeys: [any CodingKey] {
        _read { yield storage.pointee.pathKeys }
        _modify { yield &storage.pointee.pathKeys }
    }
    /// Set when a value used the encoder in a way the stream cannot follow.
    var broken = false

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage())
        storage.pointee.out.reserveCapacity(1024)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    func codingPath(depth: Int) -> [any CodingKey] { Array(pathKeys.prefix(depth)) }

    /// Gives up on the stream (even if a value swallows the error, the encoder starts
    /// again with the tree).
    func giveUp() -> NeedsTree {
        broken = true
        return NeedsTree()
    }

    func setKey(_ key: any CodingKey, depth: Int) {
        if pathKeys.count >= depth {
            pathKeys.removeSubrange((depth - 1)...)
        }
        pathKeys.append(key)
    }

    /// Writes `value`, whose container frames will sit at `depth`.
    func write<T: Encodable>(_ value: T, depth: Int) throws {
        if try JSONNode.writeSpecial(value, path: JSONPath(keys: codingPath(depth: depth)), into: &out) {
            return
        }
        // The documents every check-in writes (the habit's state, the completion event) are
        // written by their types themselves (`DirectJSON`). Comparing the type is a pointer
        // comparison, where a cast to a protocol would cost every other value a conformance
        // lookup.
        if T.self == HabitState.self {
            guard unsafeBitCast(value, to: HabitState.self).writeJSON(into: &out) else { throw giveUp() }
            return
        }
        if T.self == Event.self, let written = unsafeBitCast(value, to: Event.self).writeCompletionJSON(into: &out) {
            guard written else { throw giveUp() }
            return
        }
        let mark = out.count
        try value.encode(to: JSONStreamEncoder(stream: self, depth: depth))
        if broken { throw giveUp() }
        if frames.count == depth + 1 {
            close()
        } else if frames.count != depth {
            throw giveUp()
        } else if out.count == mark {
            // Foundation writes a value that encoded nothing as an empty object.
            out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        }
    }

    func open(object: Bool) {
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append(Frame(isObject: object, start: out.count, entryBase: entryKeys.count))
    }

    /// Starts the next entry of the open object or array at `depth`.
    @inline(__always)
    func beginEntry(key: String?, depth: Int) throws {
        guard frames.count == depth + 1 else { throw giveUp() }
        let index = frames.count - 1
        if frames[index].count > 0 { out.append(UInt8(ascii: ",")) }
        frames[index].count += 1
        guard let key else { return }
        if frames[index].count > 1, let previous = entryKeys.last,
            !previous.utf8.lexicographicallyPrecedes(key.utf8)
        {
            frames[index].sorted = false
        }
        entryKeys.append(key)
        entryStarts.append(out.count)
        JSONBytes.string(key, into: &out)
        out.append(UInt8(ascii: ":"))
    }

    /// Closes the innermost container, putting an object's entries in key order.
    func close() {
        let frame = frames.removeLast()
        guard frame.isObject else {
            out.append(UInt8(ascii: "]"))
            return
        }
        if !frame.sorted {
            let keys = entryKeys[frame.entryBase...]
            let starts = entryStarts[frame.entryBase...]
            // Entry i runs from its start to the comma before the next one (or the end).
            var ends = Array(starts.dropFirst().map { $0 - 1 })
            ends.append(out.count)
            let base = frame.entryBase
            var order = Array(0..<keys.count)
            order.sort { a, b in
                let left = entryKeys[base + a].utf8
                let right = entryKeys[base + b].utf8
                if left.elementsEqual(right) { return a < b }
                return left.lexicographicallyPrecedes(right)
            }
            // A key encoded twice keeps its last value, as in a dictionary.
            var unique: [Int] = []
            unique.reserveCapacity(order.count)
            for (position, offset) in order.enumerated()
            where position + 1 == order.count || entryKeys[base + order[position + 1]] != entryKeys[base + offset] {
                unique.append(offset)
            }
            order = unique
            let region = Array(out[frame.start...])
            out.removeSubrange(frame.start...)
            for (position, offset) in order.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                out.append(
                    contentsOf: region[(starts[base + offset] - frame.start)..<(ends[offset] - frame.start)])
            }
        }
        entryKeys.removeSubrange(frame.entryBase...)
        entryStarts.removeSubrange(frame.entryBase...)
        out.append(UInt8(ascii: "}"))
    }
}

extension JSONPath {
    convenience init(keys: [any CodingKey]) {
        var path: JSONPath? = nil
        for key in keys.dropLast() { path = JSONPath(parent: path, key: key) }
        self.init(parent: path, key: keys.last)
    }
}
