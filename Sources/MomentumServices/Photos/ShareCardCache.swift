import Crypto
import Synchronization

/// Rendered PNG share cards, keyed by a hash of their SVG and their size, within a budget
/// of bytes: the card used longest ago goes first.
///
/// The SVG holds everything the card shows, so two requests with the same SVG and size
/// get the same PNG, whoever asks.
public final class ShareCardCache: Sendable {
    /// A card's identity: the SHA-256 of its SVG, and its size.
    public struct Key: Hashable, Sendable {
        let digest: [UInt8]
        let width: Int
        let height: Int

        init(svg: String, width: Int, height: Int) {
            digest = Array(SHA256.hash(data: Array(svg.utf8)))
            self.width = width
            self.height = height
        }
    }

    private struct Entry {
        var png: [UInt8]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes of PNG kept (0 keeps none).
    public let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache of `capacity` bytes.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The bytes of PNG kept now.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// The card, if it is kept; marks it as just used.
    public func card(for key: Key) -> [UInt8]? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.png
        }
    }

    /// Keeps a card, dropping the least recently used ones beyond the budget. A card larger
    /// than the whole budget is not kept.
    public func keep(_ png: [UInt8], for key: Key) {
        guard png.count <= capacity else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(png: png, lastUse: state.clock), forKey: key) {
                state.bytes -= old.png.count
            }
            state.bytes += png.count
            while state.bytes > capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.png.count
            }
        }
    }
}
