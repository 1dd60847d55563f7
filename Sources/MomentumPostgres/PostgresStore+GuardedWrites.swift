import Foundation
import Logging
import MomentumCore
import MomentumStore
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization
import struct MomentumStore.AppendResult

extension PostgresStore {
    /// Writes guarded appends of different users in one statement (one at a time if that
    /// fails, so that each reports its own error); one result each, in order: whether its
    /// version check passed and it was written.
    public func writeTogether(_ writes: [GuardedWrite]) async -> [Result<Bool, StoreError>] {
        if writes.count > 1, let batch = GuardedWrite.batch(writes) {
            let logger = self.logger
            do {
                let named = namedStatements
                let written = try await self.connection { connection in
                    try await BoundBatch.run(batch, on: connection, named: named, logger: logger)
                }
                guardedCounts.withLock {
                    $0.statements += 1
                    $0.writes += writes.count
                }
                return writes.map { .success(written.contains($0.user)) }
            } catch {
                // A deadlock with another instance's batch, a lost connection: each write
                // goes again on its own, and reports its own error.
                guardedCounts.withLock { $0.failedBatches += 1 }
                logger.debug("a batch of guarded writes failed", metadata: ["error": "\(error)"])
            }
        }
        // Different users' writes: at once, each on a connection of its own.
        return await withTaskGroup(of: (Int, Result<Bool, StoreError>).self) { group in
            for (index, write) in writes.enumerated() {
                group.addTask {
                    do throws(StoreError) {
                        let written = try await self.writeGuardedAlone(write)
                        self.guardedCounts.withLock {
                            $0.statements += 1
                            $0.writes += 1
                        }
                        return (index, .success(written))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<Bool, StoreError>](repeating: .success(false), count: writes.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }
}
