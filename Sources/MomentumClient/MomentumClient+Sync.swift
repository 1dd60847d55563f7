import Foundation
import MomentumAPI
import MomentumCore
import OpenAPIRuntime

extension MomentumClient {
    /// Events sent in one push.
    static let pushBatch = 200
    /// Events asked for in one pull.
    static let pullPage = 500

    /// Pushes the outbox, then pulls what the server has that the device has not, and
    /// reads the profile again.
    ///
    /// Each pushed event leaves the outbox once the server answers for it: stored
    /// (`applied`, or `duplicate` when an earlier answer was lost) or refused (kept in
    /// ``refusedEvents()`` with the reason). An event whose answer never came stays and is
    /// sent again next time; the server stores an id once, so nothing is applied twice.
    /// Calls made while a sync runs wait for it, then sync again.
    ///
    /// - Returns: What the sync did.
    /// - Throws: ``ClientError/offline`` or ``ClientError/busy`` (nothing is lost: the
    ///   outbox waits), ``ClientError/unreadableAnswer`` (the server answered what this SDK
    ///   cannot read; the outbox waits too, but retrying will not help),
    ///   ``ClientError/signedOut``, ``ClientError/notSignedIn``.
    @discardableResult
    public func sync() async throws -> SyncReport {
        while let current = running { _ = await current.result }
        let task = Task { try await self.performSync() }
        running = task
        defer { running = nil }
        return try await task.value
    }

    private func performSync() async throws -> SyncReport {
        guard try database.account() != nil else { throw ClientError.notSignedIn }
        var report = SyncReport()
        try await push(into: &report)
        let versions = try await pull(into: &report)
        try await refreshProfile()
        try await keepServerRules(versions)
        report.cursor = try cursor()
        if report.changed { engine = nil }
        return report
    }

    private func push(into report: inout SyncReport) async throws {
        // Batches go oldest first until the outbox is empty or the server cannot take more.
        while true {
            let waiting = try database.outbox(limit: Self.pushBatch)
            guard !waiting.isEmpty else { return }
            // An event this client cannot read back is refused here, not sent.
            var batch: [PendingEvent] = []
            var events: [Event] = []
            var unreadable: [RefusedEvent] = []
            for pending in waiting {
                if let event = Self.decodeEvent(pending.body) {
                    batch.append(pending)
                    events.append(event)
                } else {
                    unreadable.append(
                        RefusedEvent(
                            id: pending.id, status: "invalid", code: "unreadable_event",
                            message: "the device could not read this event back", field: nil, refusedAt: clock()))
                }
            }
            try database.refuse(unreadable)
            report.refused += unreadable
            guard !batch.isEmpty else { continue }
            let output: Operations.PushEvents.Output
            do {
                output = try await api.pushEvents(body: .json(.init(events: events)))
            } catch {
                let failure = Self.unreachable(error)
                try database.noteFailure(batch.map(\.id), error: failure.message)
                throw failure
            }
            switch output {
            case .ok(let ok):
                let answer = try ok.body.json
                var stored: [String] = []
                var refused: [RefusedEvent] = []
                var unknown: [String] = []
                for result in answer.results {
                    switch result.status.value {
                    case .known(.applied):
                        stored.append(result.id)
                        report.pushed += 1
                    case .known(.duplicate):
                        stored.append(result.id)
                        report.duplicates += 1
                    case .known(.rejected), .known(.invalid):
                        refused.append(
                            RefusedEvent(
                                id: result.id, status: result.status.value.rawValue,
                                code: result.error?.code ?? "refused", message: result.error?.message ?? "refused",
                                field: result.error?.field, refusedAt: clock()))
                    case .unknown(let status):
                        // A newer server's outcome this SDK cannot judge: the event stays in the
                        // outbox (sent again, it is a duplicate once the server has it).
                        unknown.append(result.id)
                        try database.noteFailure(
                            [result.id], error: "the server answered \"\(status)\", which this SDK does not know")
                    }
                }
                try database.acknowledge(stored)
                try database.refuse(refused)
                report.refused += refused
                if stored.isEmpty, refused.isEmpty, unknown.isEmpty {
                    throw ClientError.server("the server answered a push without a result for any event")
                }
            case .unauthorized: throw ClientError.signedOut
            case .tooManyRequests(let answer):
                let failure = Self.busy(answer)
                try database.noteFailure(batch.map(\.id), error: failure.message)
                throw failure
            case .badRequest(let answer), .forbidden(let answer), .conflict(let answer), .contentTooLarge(let answer),
                .unsupportedMediaType(let answer), .unprocessableContent(let answer):
                // The whole batch was refused before any event was looked at: the events the
                // answer names are refused; with none named, every event of the batch is.
                let refusal = Self.refusal(answer)
                let named = Self.namedIndices(answer, count: batch.count)
                let refused = (named.isEmpty ? Array(batch.indices) : named).map { index in
                    RefusedEvent(
                        id: batch[index].id, status: "invalid", code: refusal.code, message: refusal.message,
                        field: refusal.field, refusedAt: clock())
                }
                try database.refuse(refused)
                report.refused += refused
            case .undocumented(let status, _):
                let failure =
                    status >= 500
                    ? ClientError.busy("the server answered \(status)", retryAfter: nil)
                    : ClientError.server("a push answered \(status)")
                try database.noteFailure(batch.map(\.id), error: failure.message)
                throw failure
            }
        }
    }

    /// Pulls every page after the cursor.
    ///
    /// - Returns: The versions of the server's rules, as the last page gave them.
    private func pull(into report: inout SyncReport) async throws -> Components.Schemas.RuleVersions? {
        var cursor = try cursor()
        while true {
            let after = cursor
            let page = try await perform("a pull", rules: [.unauthorizedEndsSession, .serverErrorsAreBusy]) {
                try await api.pullEvents(query: .init(after: Int(clamping: after), limit: Self.pullPage))
            } success: {
                try $0.ok.body.json
            }
            var logged: [LoggedEvent] = []
            for pulled in page.events {
                logged.append(
                    LoggedEvent(
                        seq: Int64(pulled.seq), id: pulled.event.id, body: try Self.encode(pulled.event),
                        receivedAt: pulled.receivedAt))
            }
            try database.storePulled(logged, devices: page.events.map(\.device), cursor: Int64(page.cursor))
            report.pulled += logged.count
            guard page.more, Int64(page.cursor) > cursor else { return page.versions }
            cursor = Int64(page.cursor)
        }
    }

    private func refreshProfile() async throws {
        let profile = try await perform("the profile", rules: .unauthorizedEndsSession) {
            try await api.getProfile()
        } success: {
            try $0.ok.body.json
        }
        let json = try Self.encode(profile)
        if json != (try database.account()?.profileJSON) {
            try database.saveProfile(json)
            engine = nil
        }
    }

    /// The batch positions an error's details name (`events[3].value`).
    static func namedIndices(_ answer: Components.Responses.APIError, count: Int) -> [Int] {
        guard case .json(let body) = answer.body else { return [] }
        var indices: [Int] = []
        for detail in body.error.details {
            guard detail.field.hasPrefix("events["), let close = detail.field.firstIndex(of: "]") else { continue }
            let digits = detail.field[detail.field.index(detail.field.startIndex, offsetBy: 7)..<close]
            if let index = Int(digits), (0..<count).contains(index), !indices.contains(index) { indices.append(index) }
        }
        return indices
    }
}
