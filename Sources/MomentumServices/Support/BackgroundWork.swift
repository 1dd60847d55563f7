import Foundation
import Synchronization

/// Work a use case started in the background after answering its request (mails being
/// written, an amnesty's or a what-if's pages): `drain()` waits for what was started, so a
/// sender's pass or a test sees it done.
final class BackgroundWork: Sendable {
    private let tasks = Mutex<[UUID: Task<Void, Never>]>([:])

    /// Runs `work` in the background.
    func start(_ work: @escaping @Sendable () async -> Void) {
        let id = UUID()
        tasks.withLock { tasks in
            tasks[id] = Task { [weak self] in
                await work()
                self?.finish(id)
            }
        }
    }

    private func finish(_ id: UUID) {
        _ = tasks.withLock { $0.removeValue(forKey: id) }
    }

    /// Waits for the work started so far.
    func drain() async {
        let running = tasks.withLock { Array($0.values) }
        for task in running { await task.value }
    }
}
