import Foundation

/// One what-if replay of a candidate pack version over users' logs, as stored: who started
/// it, how far it got, and its report.
///
/// The store keeps the sample and the report as JSON it does not read; the services give
/// them their meaning.
public struct WhatIfRun: Hashable, Sendable {
    /// Where a run stands.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// Replaying; ``WhatIfRun/done`` of ``WhatIfRun/total`` users so far.
        case running
        /// Finished; the report is complete.
        case done
        /// Stopped by an operator; the report covers the users done.
        case cancelled
        /// Stopped by an error; the report covers the users done.
        case failed
    }

    /// The run's id.
    public var id: String
    /// The pack name the candidate is a version of.
    public var pack: String
    /// The candidate version.
    public var version: String
    /// Which users it replays, as JSON.
    public var sample: String
    /// Where it stands.
    public var status: Status
    /// Users replayed so far.
    public var done: Int
    /// Users to replay.
    public var total: Int
    /// The report so far, as JSON (`nil` before the first page).
    public var report: String?
    /// The last user replayed (users are replayed in id order), `nil` before the first.
    public var cursor: String?
    /// Until when the instance running it holds it; another instance resumes it after that.
    public var leaseUntil: Date?
    /// The operator who started it.
    public var startedBy: String
    /// When it started.
    public var startedAt: Date
    /// When it stopped (done, cancelled or failed).
    public var finishedAt: Date?

    /// Creates a run.
    public init(
        id: String, pack: String, version: String, sample: String, status: Status = .running, done: Int = 0,
        total: Int = 0, report: String? = nil, cursor: String? = nil, leaseUntil: Date? = nil, startedBy: String,
        startedAt: Date, finishedAt: Date? = nil
    ) {
        self.id = id
        self.pack = pack
        self.version = version
        self.sample = sample
        self.status = status
        self.done = done
        self.total = total
        self.report = report
        self.cursor = cursor
        self.leaseUntil = leaseUntil
        self.startedBy = startedBy
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }
}

/// A user and the pack their profile names (`habits+ollie`), as a what-if run pages over
/// them.
public struct PackUser: Hashable, Sendable {
    /// The user's id.
    public var user: String
    /// The pack their profile names.
    public var pack: String

    /// Creates a pair.
    public init(user: String, pack: String) {
        self.user = user
        self.pack = pack
    }
}
