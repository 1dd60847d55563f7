import Foundation
import MomentumAPI
import OpenAPIRuntime

extension MomentumClient {
    /// Keeps the device in sync until the task is cancelled: listens to the server's
    /// change stream and syncs when it opens and whenever the user's data changes on any
    /// device, and pushes the outbox again (backing off) while events wait in it.
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
    ///   ``ClientError/notSignedIn``; returns when cancelled.
    public func keepInSync(
        retry: RetryPolicy = .standard, onSync: @escaping @Sendable (SyncReport) async -> Void = { _ in }
    ) async throws {
        guard try database.account() != nil else { throw ClientError.notSignedIn }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.listen(retry: retry, onSync: onSync) }
            group.addTask { try await self.drainOutbox(retry: retry, onSync: onSync) }
            defer { group.cancelAll() }
            // The first to end (signed out, or cancelled) ends both.
            try await group.next()
        }
    }

    /// Opens the change stream again and again, syncing on each `ready` and `change`.
    private func listen(retry: RetryPolicy, onSync: @escaping @Sendable (SyncReport) async -> Void) async throws {
        var failures = 0
        while !Task.isCancelled {
            do {
                switch try await api.streamChanges() {
                case .ok(let ok):
                    for try await message in try ok.body.textEventStream.asDecodedServerSentEvents() {
                        failures = 0
                        guard message.event == "ready" || message.event == "change" else { continue }
                        try await syncReporting(onSync)
                    }
                case .unauthorized: throw ClientError.signedOut
                case .tooManyRequests, .undocumented: break
                }
            } catch let error as ClientError where error == .signedOut || error == .notSignedIn {
                throw error
            } catch {
                // Any other failure (the network, the server) is waited out below.
            }
            failures += 1
            try? await Task.sleep(for: retry.delay(after: failures))
        }
    }

    /// While the outbox holds events, syncs with growing waits until it is empty.
    private func drainOutbox(retry: RetryPolicy, onSync: @escaping @Sendable (SyncReport) async -> Void) async throws {
        var failures = 0
        while !Task.isCancelled {
            if try database.outbox(limit: 1).isEmpty {
                failures = 0
                try? await Task.sleep(for: retry.initial)
                continue
            }
            failures += 1
            try? await Task.sleep(for: retry.delay(after: failures))
            guard !Task.isCancelled else { return }
            do {
                try await syncReporting(onSync)
            } catch let error as ClientError where error == .signedOut || error == .notSignedIn {
                throw error
            } catch {
                continue
            }
        }
    }

    private func syncReporting(_ onSync: @Sendable (SyncReport) async -> Void) async throws {
        do {
            let report = try await sync()
            if report.changed { await onSync(report) }
        } catch let error as ClientError where error == .signedOut || error == .notSignedIn {
            throw error
        } catch {
            // Offline or busy: the outbox keeps its events and the next change or retry syncs.
        }
    }
}
