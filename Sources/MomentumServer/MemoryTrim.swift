import Foundation
import MomentumServices
import MomentumStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the memory of evicted engines back to the system.
///
/// glibc's allocator keeps what a program frees in its arenas for reuse, and with several
/// threads allocating it keeps several arenas. A server whose engine cache keeps evicting
/// (more active users than it holds) frees engines on one thread and builds others on
/// another, so its resident memory grows well past what it holds: the scale benchmark saw
/// 413 MiB resident for a 256 MiB cache. `malloc_trim(0)` returns the free pages of every
/// arena. It is looked up at run time (`dlsym`): other C libraries have no such function,
/// and then nothing runs.
final class MemoryTrim: Sendable {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// The address of `malloc_trim`, or 0 (an integer, which is `Sendable`).
    private static let address: Int = {
        #if os(Linux)
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return 0 }
            return Int(bitPattern: symbol)
        #else
            return 0
        #endif
    }()

    /// Whether this C library can trim.
    static var available: Bool { address != 0 }

    /// The evictions counted at the last trim.
    private let trimmedAt = Mutex(0)

    /// Trims when the cache has evicted engines since the last trim.
    func afterEvictions(_ statistics: EngineCache.Statistics?) {
        guard let evictions = statistics?.usage.evictions else { return }
        let due = trimmedAt.withLock { last in
            defer { last = evictions }
            return evictions > last
        }
        guard due else { return }
        Self.trim()
    }

    /// Returns the free memory of every arena to the system.
    static func trim() {
        guard let symbol = UnsafeRawPointer(bitPattern: address) else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
