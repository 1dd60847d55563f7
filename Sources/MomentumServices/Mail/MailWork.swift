import Foundation
import Synchronization

/// The mails being written in the background, after their request was answered: the
/// sender waits for them before a pass, so that a mail asked for is in the outbox when the
/// next pass looks.
final class MailWork: Sendable {
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
