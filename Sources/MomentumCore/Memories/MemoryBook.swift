/// A user's memories: the scrapbook of seed 000's Memories view.
///
/// A value type: every change returns through `mutating` methods, and the book keeps its
/// memories in chronological order (by ``Memory/time``, then id), at most one per id. Adding
/// is idempotent, so recording the same unlock twice (a retried request, a replayed log)
/// keeps the first memory and its note and photo.
///
/// JSON: `{"memories": [ … ]}`, oldest first.
public struct MemoryBook: Hashable, Sendable, Codable {
    /// The memories, oldest first.
    public private(set) var memories: [Memory]

    /// Creates a book; later memories with an id already seen are ignored.
    ///
    /// - Parameter memories: The memories, in any order.
    public init(_ memories: [Memory] = []) {
        self.memories = []
        for memory in memories { add(memory) }
    }

    /// The number of memories.
    public var count: Int { memories.count }

    /// The memory with an id, if the book has it.
    ///
    /// - Parameter id: The memory's id.
    public subscript(id: String) -> Memory? {
        memories.first { $0.id == id }
    }

    /// Adds a memory unless the book already has one with its id.
    ///
    /// - Parameter memory: The memory to add.
    /// - Returns: Whether it was added (`false` when its id was already there; the book is
    ///   then unchanged).
    @discardableResult
    public mutating func add(_ memory: Memory) -> Bool {
        guard !memories.contains(where: { $0.id == memory.id }) else { return false }
        let index = memories.firstIndex { Self.isOrdered(memory, before: $0) } ?? memories.endIndex
        memories.insert(memory, at: index)
        return true
    }

    /// Creates and adds the memory of an unlock (see ``Memory/init(unlock:subject:offsetSeconds:translation:)``).
    ///
    /// - Parameters:
    ///   - unlock: The unlock to remember.
    ///   - subject: The subject it is about, for its name.
    ///   - offsetSeconds: The UTC offset of the user's time zone when it happened.
    ///   - translation: The language of the memory's caption.
    /// - Returns: The new memory, or `nil` when the unlock is tier 1 or already remembered.
    @discardableResult
    public mutating func record(
        _ unlock: Unlock, subject: Subject? = nil, offsetSeconds: Int, translation: Translation = .english
    ) -> Memory? {
        guard
            let memory = Memory(
                unlock: unlock, subject: subject, offsetSeconds: offsetSeconds, translation: translation),
            add(memory)
        else {
            return nil
        }
        return memory
    }

    /// Sets or clears a memory's note.
    ///
    /// - Parameters:
    ///   - note: The note; `nil` or only whitespace clears it.
    ///   - id: The memory's id.
    /// - Returns: Whether the book has a memory with that id.
    @discardableResult
    public mutating func setNote(_ note: String?, forMemory id: String) -> Bool {
        update(id) { $0.note = Memory.nonBlank(note) }
    }

    /// Clears a memory's note.
    ///
    /// - Parameter id: The memory's id.
    /// - Returns: Whether the book has a memory with that id.
    @discardableResult
    public mutating func clearNote(forMemory id: String) -> Bool {
        update(id) { $0.note = nil }
    }

    /// Attaches a photo to a memory, replacing any photo it had.
    ///
    /// - Parameters:
    ///   - photo: The photo, its paths already checked by ``MemoryPhoto``.
    ///   - id: The memory's id.
    /// - Returns: Whether the book has a memory with that id.
    @discardableResult
    public mutating func attachPhoto(_ photo: MemoryPhoto, toMemory id: String) -> Bool {
        update(id) { $0.photo = photo }
    }

    /// Removes a memory's photo.
    ///
    /// - Parameter id: The memory's id.
    /// - Returns: Whether the book has a memory with that id.
    @discardableResult
    public mutating func removePhoto(fromMemory id: String) -> Bool {
        update(id) { $0.photo = nil }
    }

    /// The memories, oldest first.
    public var chronological: [Memory] { memories }

    /// The memories newest first, as the scrapbook shows them.
    public var scrapbook: [Memory] { memories.reversed() }

    /// The categories the book has memories in, sorted.
    public var categories: [String] { Set(memories.map(\.category)).sorted() }

    /// The memories of a category, newest first.
    ///
    /// A category also matches its subcategories, written with an underscore: `potty`
    /// matches seed 000's `potty_outdoor`.
    ///
    /// - Parameter category: The category to show.
    /// - Returns: The matching memories, newest first.
    public func memories(inCategory category: String) -> [Memory] {
        scrapbook.filter { $0.category == category || $0.category.hasPrefix(category + "_") }
    }

    private mutating func update(_ id: String, _ change: (inout Memory) -> Void) -> Bool {
        guard let index = memories.firstIndex(where: { $0.id == id }) else { return false }
        change(&memories[index])
        return true
    }

    static func isOrdered(_ a: Memory, before b: Memory) -> Bool {
        a.time != b.time ? a.time < b.time : a.id < b.id
    }

    private enum CodingKeys: String, CodingKey {
        case memories
    }

    /// Decodes a book, putting its memories in order and ignoring repeated ids.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode([Memory].self, forKey: .memories))
    }
}
