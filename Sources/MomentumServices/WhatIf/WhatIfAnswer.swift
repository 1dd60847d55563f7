import Foundation
import MomentumAPI
import MomentumStore

/// A what-if's options as the API takes them: `POST /v1/admin/packs/{name}/versions/{version}/what-if`.
public typealias WhatIfStartRequest = Components.Schemas.WhatIfStartRequest

extension WhatIfSample {
    /// The sample a request names.
    public init(_ wire: Components.Schemas.WhatIfSample) {
        self.init(count: wire.count, seed: wire.seed, users: wire.users)
    }
}

/// A what-if run as the API answers it: its progress and its report so far.
public struct WhatIfRunAnswer: Encodable, Sendable {
    /// The run's id.
    public var id: String
    /// The pack's name.
    public var pack: String
    /// The candidate version.
    public var version: String
    /// `running`, `done`, `cancelled` or `failed`.
    public var status: String
    /// Users replayed so far.
    public var done: Int
    /// Users to replay.
    public var total: Int
    /// The sample (empty for all users).
    public var sample: WhatIfSample
    /// The operator who started it.
    public var startedBy: String
    /// When it started.
    public var startedAt: Date
    /// When it stopped, if it did.
    public var finishedAt: Date?
    /// The report so far.
    public var report: WhatIfReport

    /// The answer for a run.
    public init(_ progress: WhatIfProgress) {
        id = progress.run.id
        pack = progress.run.pack
        version = progress.run.version
        status = progress.run.status.rawValue
        done = progress.run.done
        total = progress.run.total
        sample = progress.sample
        startedBy = progress.run.startedBy
        startedAt = progress.run.startedAt
        finishedAt = progress.run.finishedAt
        report = progress.report
    }
}
