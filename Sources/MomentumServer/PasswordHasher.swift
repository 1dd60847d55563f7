import Foundation
import HummingbirdBcrypt
import MomentumServices
import NIOPosix
import Synchronization

/// Runs bcrypt on a thread pool of its own, with a bounded queue.
///
/// bcrypt is slow on purpose (about 0.3 s of a core at cost 12), so a burst of sign-ins
/// can hold every core. Here at most `threads` hashes run at once and `queue` more wait;
/// one more is refused at once with 503 and `Retry-After`, since a fast refusal beats a
/// slow success. The pool is shared with nothing else (the share-card rasterizer and file
/// I/O have their own), so neither can starve the other.
final class PasswordHasher: PasswordHashing {
    private let pool: NIOThreadPool
    private let capacity: Int
    private let admitted = Atomic<Int>(0)

    /// Creates the pool and starts its threads.
    init(threads: Int, queue: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        capacity = max(1, threads) + max(0, queue)
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Hashes a password.
    func hash(_ password: String, cost: UInt8) async throws -> String {
        try await run { Bcrypt.hash(password, cost: cost) }
    }

    /// Checks a password against its hash.
    func verify(_ password: String, hash: String) async throws -> Bool {
        try await run { Bcrypt.verify(password, hash: hash) }
    }

    /// How many checks are running or waiting now.
    var load: Int { admitted.load(ordering: .relaxed) }

    private func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        guard admitted.wrappingAdd(1, ordering: .acquiring).newValue <= capacity else {
            admitted.wrappingSubtract(1, ordering: .releasing)
            throw ServiceError(
                .unavailable(retryAfterSeconds: 1), "server_busy",
                "the server is busy checking passwords; try again in 1 s")
        }
        defer { admitted.wrappingSubtract(1, ordering: .releasing) }
        return try await pool.runIfActive(work)
    }

    /// Hashes one password on NIO's shared pool, for tools that hash once (the demo
    /// account), not for requests.
    static func hashOnce(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }
}
