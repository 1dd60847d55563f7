import Dispatch
import Testing

@testable import MomentumServices

/// The image threads' queue and the slots it waits on, for a caller that goes away.
struct ImageWorkTests {
    /// A caller cancelled while every thread is busy stops waiting at once, with
    /// `CancellationError`, instead of waiting out its hour (or, as it did, retrying a wait
    /// that a cancelled task ends at once, for ever).
    @Test func aCancelledCallerStopsWaitingForAThread() async throws {
        let work = ImageWork(threads: 1)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let finish = DispatchSemaphore(value: 0)
        let busy = Task {
            try await work.run {
                start.yield()
                finish.wait()
                return 1
            }
        }
        var iterator = started.makeAsyncIterator()
        await iterator.next()  // The one thread is taken.
        let waiting = Task { try await work.run { 2 } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        finish.signal()
        #expect(try await busy.value == 1)
        // The slot the cancelled caller never took is free for the next one.
        #expect(try await work.run { 3 } == 3)
    }

    /// A slot a cancelled task asked for is never granted to it, whether it was cancelled
    /// before or while it waited.
    @Test func aCancelledTaskIsRefusedASlot() async {
        let slots = WorkSlots(count: 1)
        #expect(await slots.acquire(waitingAtMost: .seconds(1)))
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await slots.acquire(waitingAtMost: .seconds(3_600))
        }
        #expect(await early.value == false)
        slots.release()
        #expect(await slots.acquire(waitingAtMost: .seconds(1)), "the slot is free again")
        slots.release()
    }
}
