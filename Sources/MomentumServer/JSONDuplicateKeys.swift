import Foundation
import MomentumServices

/// Finds a key written twice in one object of a JSON text.
///
/// Foundation's parsers keep one of the two values without a word, and a proxy or another
/// parser in front of the server may keep the other: the two would act on different data.
/// So a request body that names a field twice is refused (``JSONIO``).
///
/// The scan walks the bytes once. Keys are compared as the parser compares them: escapes
/// decoded (`"\u0061"` is `"a"`) and as Swift strings (canonically equivalent spellings of
/// one name are one key). Each open object keeps a set of its keys; the sets are reused
/// from one object to the next at the same depth, and keys of up to 15 UTF-8 bytes are
/// stored inline, so a body of many small objects (a push of events) allocates no more
/// than a set per depth.
enum JSONDuplicateKeys {
    /// The path of the first key that appears twice in one object of `data`
    /// (`events[2].habit`), or `nil` when there is none. Meant for JSON the parser has
    /// accepted; on malformed input it returns what it found before losing its way.
    static func first(in data: Data) -> String? {
        data.withUnsafeBytes { first(in: $0) }
    }

    /// The path of the first key that appears twice in one object of `bytes`, or `nil`.
    static func first(in bytes: UnsafeRawBufferPointer) -> String? {
        var scanner = Scanner(bytes: bytes)
        return scanner.run()
    }
}

/// One open object or array.
private struct Frame {
    var isObject: Bool
    /// The object's keys so far; kept (emptied) for the next object at this depth.
    var keys: Set<String> = []
    /// The object's current key, or the array's current index: where a child sits.
    var key = ""
    var index = 0
    /// Whether the object's next string is a key.
    var expectingKey = false
}

private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var frames: [Frame] = []
    var depth = 0
    /// Decoded bytes of a key with escapes, reused.
    var scratch: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func run() -> String? {
        var i = 0
        let count = bytes.count
        while i < count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                let start = i + 1
                var end = start
                var escaped = false
                while end < count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") {
                        escaped = true
                        end += 1
                    }
                    end += 1
                }
                guard end < count else { return nil }
                i = end + 1
                guard depth > 0, frames[depth - 1].isObject, frames[depth - 1].expectingKey else { continue }
                guard let key = key(start, end, escaped: escaped) else { return nil }
                frames[depth - 1].expectingKey = false
                if !frames[depth - 1].keys.insert(key).inserted { return path(to: key) }
                frames[depth - 1].key = key
                continue
            case UInt8(ascii: "{"): open(isObject: true)
            case UInt8(ascii: "["): open(isObject: false)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return nil }
                depth -= 1
            case UInt8(ascii: ","):
                guard depth > 0 else { return nil }
                if frames[depth - 1].isObject {
                    frames[depth - 1].expectingKey = true
                } else {
                    frames[depth - 1].index += 1
                }
            default: break
            }
            i += 1
        }
        return nil
    }

    private mutating func open(isObject: Bool) {
        if depth < frames.count {
            frames[depth].isObject = isObject
            frames[depth].keys.removeAll(keepingCapacity: true)
            frames[depth].index = 0
            frames[depth].expectingKey = isObject
        } else {
            frames.append(Frame(isObject: isObject, expectingKey: isObject))
        }
        depth += 1
    }

    /// The key between `start` and `end` (the bytes inside its quotes), escapes decoded;
    /// `nil` for an escape JSON does not have.
    private mutating func key(_ start: Int, _ end: Int, escaped: Bool) -> String? {
        guard escaped else {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        var i = start
        while i < end {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "\\") else {
                scratch.append(byte)
                i += 1
                continue
            }
            guard i + 1 < end else { return nil }
            switch bytes[i + 1] {
            case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex(i + 2, end) else { return nil }
                i += 6
                if (0xD800..<0xDC00).contains(scalar), i + 1 < end, bytes[i] == UInt8(ascii: "\\"),
                    bytes[i + 1] == UInt8(ascii: "u"), let low = hex(i + 2, end), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                // A lone surrogate is no character; it stands for U+FFFD, as when decoding.
                Unicode.UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { scratch.append($0) }
                continue
            default: return nil
            }
            i += 2
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// The four hexadecimal digits at `start`, or `nil`.
    private func hex(_ start: Int, _ end: Int) -> UInt32? {
        guard start + 4 <= end else { return nil }
        var value: UInt32 = 0
        for i in start..<start + 4 {
            let byte = bytes[i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `events[2].habit`: where the open objects and arrays lead, then `key`.
    private func path(to key: String) -> String {
        var text = ""
        for frame in frames.prefix(depth - 1) {
            if frame.isObject {
                text += text.isEmpty ? frame.key : ".\(frame.key)"
            } else {
                text += "[\(frame.index)]"
            }
        }
        return text.isEmpty ? key : "\(text).\(key)"
    }
}
