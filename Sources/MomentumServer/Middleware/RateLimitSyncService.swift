import Foundation
import MomentumServices
import ServiceLifecycle

/// Flushes the shared rate limits' counts to the database every 100 ms, and deletes the
/// counters of past minutes once a minute.
struct RateLimitSyncService: Service {
    let server: ServerState

    func run() async throws {
        let server = self.server
        do {
            try await cancelWhenGracefulShutdown {
                var lastCleanup = ContinuousClock.now
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(100))
                    await flush()
                    if ContinuousClock.now - lastCleanup > .seconds(60) {
                        lastCleanup = ContinuousClock.now
                        let current = Int64(server.now().timeIntervalSince1970 / 60) * 60
                        _ = try? await server.store.deleteRateLimitCounts(before: current - 120)
                    }
                }
            }
        } catch is CancellationError where Task.isShuttingDownGracefully {
            // The loop ends with the graceful shutdown; that is no failure.
        }
        // The counts of the server's last requests, before the store's pool stops.
        await flush()
    }

    private func flush() async {
        for limiter in server.sharedLimiters {
            do {
                try await limiter.flush(to: server.store)
            } catch {
                server.logger.warning("could not share rate limit counts", metadata: ["error": .string("\(error)")])
            }
        }
    }
}
