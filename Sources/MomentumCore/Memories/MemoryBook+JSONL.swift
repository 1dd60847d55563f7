import Foundation

extension MemoryBook {
    /// The book as seed 000's memory log: one ``Memory/jsonLine`` per memory, oldest first,
    /// each ending in a newline.
    ///
    /// Reading the result with ``init(jsonl:)`` and writing it again gives the same bytes.
    ///
    /// - Returns: UTF-8 text; empty for an empty book.
    public func exportJSONL() -> Data {
        Data(memories.map { $0.jsonLine + "\n" }.joined().utf8)
    }

    /// Reads a memory log into a new book.
    ///
    /// - Parameter jsonl: The log, as ``importJSONL(_:)`` reads it.
    /// - Throws: ``EventLogError`` naming every bad line; see ``importJSONL(_:)``.
    public init(jsonl: Data) throws(EventLogError) {
        self.init()
        try importJSONL(jsonl)
    }

    /// Adds the memories of a log, all or nothing.
    ///
    /// Each non-blank line not starting with `#` is read by ``Memory/init(jsonLine:)``. If any
    /// line is bad, nothing is added and the error lists every problem of every bad line,
    /// each with its 1-based ``MomentumError/line`` and its ``MomentumError/field``. A line
    /// repeating an earlier line's id is skipped when it is the same memory and an error
    /// (field `id`) when it differs. Memories whose id the book already has are kept as the
    /// book has them, as ``add(_:)`` does.
    ///
    /// - Parameter jsonl: The log's bytes, UTF-8.
    /// - Returns: The memories added, oldest first.
    /// - Throws: ``EventLogError`` with one ``MomentumError`` per problem.
    @discardableResult
    public mutating func importJSONL(_ jsonl: Data) throws(EventLogError) -> [Memory] {
        var read: [String: (line: Int, memory: Memory)] = [:]
        var order: [Memory] = []
        var errors: [MomentumError] = []
        var lineNumber = 0
        for rawLine in jsonl.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let bytes = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            guard let first = bytes.first(where: { $0 != 32 && $0 != 9 }), first != UInt8(ascii: "#") else { continue }
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                errors.append(MomentumError(.malformedEvent, "not UTF-8 text", line: lineNumber))
                continue
            }
            do throws(EventLogError) {
                let memory = try Memory(jsonLine: text)
                if let earlier = read[memory.id] {
                    if earlier.memory != memory {
                        errors.append(
                            MomentumError(
                                .invalidEvent, "repeats the id of line \(earlier.line) with different content",
                                line: lineNumber, field: "id"))
                    }
                    continue
                }
                read[memory.id] = (lineNumber, memory)
                order.append(memory)
            } catch {
                errors += error.errors.map { $0.at(line: lineNumber) }
            }
        }
        guard errors.isEmpty else { throw EventLogError(errors: errors) }
        return order.filter { add($0) }.sorted(by: Self.isOrdered)
    }
}
