import NIOPosix

/// The threads that decode photos and draw PNG share cards.
///
/// A pool of their own: bcrypt hashes passwords on `NIOThreadPool.singleton`, and image
/// work queued there made sign-ins wait behind share cards (7.4 s during four renders of a
/// large photo). The pool stops when the server's state is released.
final class ImageWork: Sendable {
    private let pool: NIOThreadPool
    /// How many threads the pool has.
    let threads: Int

    /// Starts a pool of `threads` threads (at least one).
    init(threads: Int) {
        self.threads = max(1, threads)
        pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `body` on one of the pool's threads.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
