import Foundation
import MomentumAPI
import MomentumCore
import Observation

/// What a SwiftUI app shows of Momentum, kept current: today's habits, the wallet, the
/// next celebration to show, and how syncing goes.
///
/// Every property is observable (Observation: iOS 17, macOS 14, and Linux): a view that
/// reads ``habits`` is drawn again after a check-in or a sync changed them. The model
/// reads the dashboard again after each check-in and each sync, its own or
/// ``keepInSync(retry:)``'s.
///
/// ```swift
/// @State var momentum = MomentumModel(client: client)
///
/// List(momentum.habits, id: \.definition.id) { habit in
///     Button("\(habit.definition.name) 🔥 \(habit.current)") {
///         Task { try? await momentum.checkIn(habit.definition.id) }
///     }
/// }
/// .task { try? await momentum.keepInSync() }
/// ```
@MainActor @Observable
public final class MomentumModel {
    /// The client the model shows.
    @ObservationIgnored public let client: MomentumClient

    /// Today's dashboard, once read (`nil` before the first ``refresh()``, or while no
    /// account is signed in).
    public private(set) var today: TodayReport?
    /// Celebrations to show, oldest first: each achievement a check-in on this device
    /// unlocked, with its message. ``dismissCelebration()`` removes the first.
    public private(set) var celebrations: [Celebration] = []
    /// How syncing goes.
    public private(set) var syncStatus = SyncStatus()
    /// The last failure of a refresh or an action, for an alert; `nil` after a success.
    public private(set) var lastError: ClientError?

    /// Creates a model of `client`; call ``refresh()`` (or an action) to fill it.
    public init(client: MomentumClient) {
        self.client = client
    }

    /// Today's habits, in the user's order, with their streaks and today's status.
    public var habits: [HabitState] { today?.habits ?? [] }
    /// Diamonds and freezes (empty before the first refresh).
    public var wallet: Wallet { today?.wallet ?? Wallet() }
    /// The celebration to show now, if any.
    public var nextCelebration: Celebration? { celebrations.first }

    /// Reads the dashboard and the outbox again.
    public func refresh() async {
        do {
            let (today, pending) = try await client.dashboardAndPending()
            self.today = today
            syncStatus.pending = pending
            lastError = nil
        } catch {
            today = nil
            lastError = MomentumClient.unreachable(error)
        }
    }

    /// Checks a habit in on the device, then refreshes; the celebrations it unlocked join
    /// ``celebrations``. A running ``keepInSync(retry:)`` pushes it at once.
    ///
    /// - Parameters:
    ///   - habit: The habit's id.
    ///   - value: How much was done (1 for a yes/no habit).
    ///   - note: A note kept with the check-in.
    /// - Returns: What the check-in did.
    /// - Throws: ``ClientError/refused(_:_:field:)`` (`unknown_habit`, …); nothing is recorded.
    @discardableResult
    public func checkIn(_ habit: String, value: Double = 1, note: String? = nil) async throws -> RecordedEvent {
        try await record(.completion(habit: habit, day: nil, value: value, note: note))
    }

    /// Records any event on the device (``MomentumClient/record(_:at:id:)``), then refreshes.
    ///
    /// - Parameter payload: What happened.
    /// - Returns: What the event did.
    /// - Throws: ``ClientError/refused(_:_:field:)``; nothing is recorded.
    @discardableResult
    public func record(_ payload: Event.Payload) async throws -> RecordedEvent {
        let recorded: RecordedEvent
        do {
            recorded = try await client.record(payload)
        } catch {
            lastError = MomentumClient.unreachable(error)
            throw error
        }
        celebrations += recorded.unlocks.map { Celebration(unlock: $0, message: recorded.messages[$0.id]) }
        await refresh()
        return recorded
    }

    /// Removes the celebration shown (the first of ``celebrations``).
    public func dismissCelebration() {
        if !celebrations.isEmpty { celebrations.removeFirst() }
    }

    /// Syncs now, showing ``SyncStatus/Phase/syncing`` meanwhile, then refreshes.
    ///
    /// A failure is not thrown: it shows as ``SyncStatus/Phase/offline(_:)`` (the outbox
    /// keeps its events).
    public func sync() async {
        willSync()
        do {
            didSync(try await client.sync())
        } catch {
            didFail(MomentumClient.unreachable(error))
        }
        await refresh()
    }

    /// Keeps the device in sync (``MomentumClient/keepInSync(retry:onSync:)``) until the
    /// task is cancelled, showing each sync in ``syncStatus`` and refreshing after it.
    ///
    /// - Parameter retry: How long to wait after failures.
    /// - Throws: ``ClientError/signedOut``, ``ClientError/notSignedIn``; returns when cancelled.
    public func keepInSync(retry: RetryPolicy = .standard) async throws {
        let observer = SyncObserver(
            willSync: { @MainActor [weak self] in self?.willSync() },
            didSync: { @MainActor [weak self] report in
                self?.didSync(report)
                await self?.refresh()
            },
            didFail: { @MainActor [weak self] error in
                self?.didFail(error)
                await self?.refresh()
            })
        try await client.keepInSync(retry: retry, observer: observer)
    }

    private func willSync() {
        syncStatus.phase = .syncing
    }

    private func didSync(_ report: SyncReport) {
        syncStatus.phase = .idle
        syncStatus.lastSyncedAt = client.clock()
    }

    private func didFail(_ error: ClientError) {
        syncStatus.phase = .offline(error)
    }
}

/// An achievement to celebrate, with the words to celebrate it with.
public struct Celebration: Hashable, Sendable, Identifiable {
    /// What was unlocked (its tier says how big a celebration).
    public var unlock: Unlock
    /// The message in the profile's language, when the catalog has one.
    public var message: Message?
    /// The unlock's id.
    public var id: String { unlock.id }
}

/// How a device's syncing goes, for a status line.
public struct SyncStatus: Hashable, Sendable {
    /// What the sync is doing.
    public enum Phase: Hashable, Sendable {
        /// Not syncing (never yet, or the last sync went through).
        case idle
        /// A sync is under way.
        case syncing
        /// The last sync failed (offline, busy, signed out): what was recorded waits.
        case offline(ClientError)
    }

    /// What the sync is doing.
    public var phase: Phase = .idle
    /// When a sync last went through.
    public var lastSyncedAt: Date?
    /// Events recorded on the device that the server does not have yet.
    public var pending: Int = 0

    /// A status: idle, never synced, nothing pending.
    public init() {}
}

extension MomentumClient {
    /// Today's dashboard and the outbox's size, read together.
    func dashboardAndPending() throws -> (TodayReport, Int) {
        (try today(), try database.outboxCount())
    }
}
