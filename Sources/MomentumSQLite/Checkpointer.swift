import Foundation
import GRDB
import Synchronization

/// Copies the write-ahead log back into the database file on a connection of its own, so
/// that the single writer hardly ever does it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the
/// writer, and every append queued behind that commit waits for it (about a quarter of the
/// writer's commit time under load, and the slowest commits). Here the writer's automatic
/// checkpoints are off. The group committer tells the checkpointer of each commit, and
/// every ``commitsPerCheckpoint`` commits a passive checkpoint copies the log's new pages
/// on this connection while the writer goes on (a passive checkpoint never blocks the
/// writer or readers).
///
/// SQLite starts the log over from its beginning only when a write begins with every page
/// of the log copied, which a checkpoint running beside a busy writer never achieves. So
/// once the log holds ``restartFrames`` pages, the writer itself runs one passive
/// checkpoint after its next commit: it finds nearly everything copied already, copies the
/// rest, and its next transaction starts the log over.
final class Checkpointer: Sendable {
    /// How many commits pass between checkpoints on the checkpointer's connection.
    let commitsPerCheckpoint: Int
    /// How many pages the log may hold before the writer finishes a checkpoint itself.
    let restartFrames: Int
    private let connection: DatabaseQueue
    private let state = Mutex((commits: 0, running: false, writerTurn: false))
    /// Whether the connection is closed. Held while a checkpoint runs, so that closing
    /// waits for it and no checkpoint starts on a closed connection (SQLite would be
    /// handed no connection at all).
    private let closed = Mutex(false)

    init(path: String, commitsPerCheckpoint: Int = 8, restartFrames: Int = 1_000) throws {
        var configuration = Configuration()
        configuration.label = "momentum.checkpoint"
        configuration.busyMode = .timeout(10)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.commitsPerCheckpoint = max(1, commitsPerCheckpoint)
        self.restartFrames = max(1, restartFrames)
    }

    /// Counts a commit, and starts a checkpoint when it is time and none is running.
    func committed() {
        let start = state.withLock { state -> Bool in
            state.commits += 1
            guard state.commits >= commitsPerCheckpoint, !state.running else { return false }
            state.commits = 0
            state.running = true
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            let frames = closed.withLock { closed -> Int? in
                guard !closed else { return nil }
                // A failed checkpoint leaves the log as it was; the next one tries again.
                return try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive).walFrameCount }
            }
            state.withLock { state in
                state.running = false
                if let frames, frames >= restartFrames { state.writerTurn = true }
            }
        }
    }

    /// Whether the writer should finish a checkpoint now (the log has grown long); asking
    /// takes the turn.
    func takeWriterTurn() -> Bool {
        state.withLock { state in
            defer { state.writerTurn = false }
            return state.writerTurn
        }
    }

    /// Closes the connection, after any checkpoint that is running; none starts after.
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            try? connection.close()
        }
    }
}
