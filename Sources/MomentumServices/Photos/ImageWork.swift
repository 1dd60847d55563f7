import Dispatch

/// The threads that decode photos and draw PNG share cards.
///
/// A queue of their own: bcrypt hashes passwords on a pool of its own, and image work
/// queued there made sign-ins wait behind share cards (7.4 s during four renders of a
/// large photo). At most `threads` pieces of work run at once; the rest wait their turn.
public final class ImageWork: Sendable {
    private let queue = DispatchQueue(label: "momentum.image-work", attributes: .concurrent)
    private let slots: WorkSlots
    /// How many pieces of work run at once.
    public let threads: Int

    /// A queue running at most `threads` pieces of work at once (at least one).
    public init(threads: Int) {
        self.threads = max(1, threads)
        slots = WorkSlots(count: self.threads)
    }

    /// Runs `body` on one of the queue's threads, once one of its places is free.
    ///
    /// - Throws: `CancellationError` when the caller is cancelled while it waits (or no
    ///   place came free within an hour), and what `body` throws.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        // The callers bound their own waits (the Rasterizer's slots); here work waits up to
        // an hour for a thread, and a cancelled caller stops waiting at once (a loop of
        // retries would spin on a cancelled task, whose every wait ends at once).
        guard await slots.acquire(waitingAtMost: .seconds(3_600)) else { throw CancellationError() }
        defer { slots.release() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
