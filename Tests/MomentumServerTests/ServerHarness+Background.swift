@testable import MomentumServer

extension ServerHarness {
    /// Every instance's background work finished, as its periodic services would finish it:
    /// a job runs on the instance that took the request, and packs reach the others at
    /// their next refresh (`packsRefreshSeconds`).
    func settle() async throws {
        for instance in [state] + others {
            try await instance.services.packs.refresh()
            await instance.services.whatIf.drain()
            await instance.services.amnesties.drain()
        }
    }
}
