import Foundation
import MomentumAPI
import OpenAPIRuntime

extension MomentumClient {
    /// Keeps the device in sync until the task is cancelled: listens to the server's
    /// change stream and syncs when it opens and whenever the user's data changes on any
    /// device, and pushes each event recorded on the device at once (recording wakes it:
    /// nothing polls), then again with jittered, doubling waits while it cannot.
    ///
    /// A stream that breaks (the server restarted, the network went away) is opened again
    /// after a wait; each new stream starts with a sync, so no change is missed while it
    /// was closed.
    ///
    /// - Parameters:
    ///   - retry: How long to wait after failures.
    ///   - onSync: Called after each sync that changed something on the device (refresh
    ///     the screen there).
    /// - Throws: ``ClientError/signedOut`` when the server ended the device's session,
    ///   ``ClientError/notSignedIn``, ``ClientError/unreadableAnswer`` when the server
    ///   answers what this SDK cannot read (retrying would get the same answer forever);
    ///   returns when cancelled.
    public func keepInSync(
        retry: RetryPolicy = .standard, onSync: @escaping @Sendable (SyncReport) async -> Void = { _ in }
    ) async throws {
        try await keepInSync(
            retry: retry, observer: SyncObserver(didSync: { report in if report.changed { await onSync(report) } }))
    }

    /// ``keepInSync(retry:onSync:)`` telling `observer` of every sync, failed ones too
    /// (``MomentumModel`` shows them).
    func keepInSync(retry: RetryPolicy, observer: SyncObserver) async throws {
        guard try database.account() != nil else { throw ClientError.notSignedIn }
        // Subscribed before either task starts, so that no event recorded from now on is missed.
        let (subscription, recorded) = outboxSignal.subscribe()
        defer { outboxSignal.unsubscribe(subscription) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.listen(retry: retry, observer: observer) }
            group.addTask { try await self.drainOutbox(woken: recorded, retry: retry, observer: observer) }
            defer { group.cancelAll() }
            // The first to end (signed out, or cancelled) ends both.
            try await group.next()
        }
    }

    /// Opens the change stream again and again, syncing on each `ready` and `change`.
    private func listen(retry: RetryPolicy, observer: SyncObserver) async throws {
        var failures = 0
        while !Task.isCancelled {
            do {
                switch try await api.streamChanges() {
                case .ok(let ok):
                    for try await message in try ok.body.textEventStream.asDecodedServerSentEvents() {
                        failures = 0
                        guard message.event == "ready" || message.event == "change" else { continue }
                        try await syncReporting(observer)
                    }
                case .unauthorized: throw ClientError.signedOut
                case .tooManyRequests, .undocumented: break
                }
            } catch let error as ClientError
                where error == .signedOut || error == .notSignedIn || error == .unreadableAnswer
            {
                throw error
            } catch {
                // Any other failure (the network, the server) is waited out below.
            }
            failures += 1
            try? await Task.sleep(for: retry.jitteredDelay(after: failures))
        }
    }

    /// Syncs whenever the outbox holds events: at once when one is recorded, then after
    /// jittered, doubling waits while the server cannot take them.
    private func drainOutbox(
        woken recorded: AsyncStream<Void>, retry: RetryPolicy, observer: SyncObserver
    ) async throws {
        var wakeUps = recorded.makeAsyncIterator()
        var failures = 0
        while !Task.isCancelled {
            if try database.outbox(limit: 1).isEmpty {
                failures = 0
                // Ends (nil) when the task is cancelled.
                guard await wakeUps.next() != nil else { return }
                continue
            }
            if failures > 0 {
                try? await Task.sleep(for: retry.jitteredDelay(after: failures))
                guard !Task.isCancelled else { return }
            }
            failures = try await syncReporting(observer) ? 0 : failures + 1
        }
    }

    /// Syncs, and tells `observer` how it went.
    ///
    /// - Returns: Whether the sync went through.
    @discardableResult
    private func syncReporting(_ observer: SyncObserver) async throws -> Bool {
        await observer.willSync()
        do {
            await observer.didSync(try await sync())
            return true
        } catch let error as ClientError
            where error == .signedOut || error == .notSignedIn || error == .unreadableAnswer
        {
            // Retrying cannot help any of these: the app is told (keepInSync ends with it).
            await observer.didFail(error)
            throw error
        } catch {
            // Offline or busy: the outbox keeps its events and the next change or retry syncs.
            await observer.didFail(Self.unreachable(error))
            return false
        }
    }
}

/// Who hears of the syncs ``MomentumClient/keepInSync(retry:onSync:)`` makes.
struct SyncObserver: Sendable {
    var willSync: @Sendable () async -> Void = {}
    var didSync: @Sendable (SyncReport) async -> Void
    var didFail: @Sendable (ClientError) async -> Void = { _ in }
}
