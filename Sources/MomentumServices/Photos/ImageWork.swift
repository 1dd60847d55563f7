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
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        // The callers bound their own waits (Rasterizer); here work waits as long as it takes.
        while await !slots.acquire(waitingAtMost: .seconds(60)) {}
        defer { slots.release() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
