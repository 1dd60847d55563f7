import Foundation
import HummingbirdBcrypt
import Logging
import MomentumCore
import MomentumStore
import Synchronization

/// What every route shares: the store, the configuration, limits, metrics and the
/// realtime hub.
public final class ServerState: Sendable {
    /// The storage backend.
    public let store: any MomentumStore
    /// The configuration the server started with.
    public let configuration: ServerConfiguration
    let metrics = ServerMetrics()
    let userLimiter: RateLimiter
    let addressLimiter: RateLimiter
    let inFlight = Mutex(Set<String>())
    let hub = ChangeHub()
    let relay: (any ChangeRelay)?
    /// Device sessions verified in the last few seconds.
    let sessions: SessionCache
    /// Whether the relay is receiving other instances' changes right now.
    let relayListening = Atomic<Bool>(false)
    let detector = SuspicionDetector()
    let logger: Logger
    /// This instance's id, so that it ignores its own notifications.
    let instance = Tokens.id("i_")
    /// A bcrypt hash of nothing in particular, checked when an email has no account so
    /// that signing in takes as long either way.
    let decoyHash: String

    /// Creates the shared state.
    ///
    /// - Parameters:
    ///   - store: A migrated store.
    ///   - configuration: The server's settings.
    ///   - relay: How changes reach other server instances (PostgreSQL LISTEN/NOTIFY);
    ///     `nil` when this is the only instance.
    ///   - logger: Where the server logs.
    public init(
        store: any MomentumStore, configuration: ServerConfiguration, relay: (any ChangeRelay)? = nil,
        logger: Logger = Logger(label: "momentum")
    ) {
        self.store = store
        self.configuration = configuration
        self.relay = relay
        self.logger = logger
        sessions = SessionCache(ttl: configuration.sessionCacheSeconds)
        userLimiter = RateLimiter(perMinute: configuration.userRequestsPerMinute)
        addressLimiter = RateLimiter(perMinute: configuration.addressRequestsPerMinute)
        decoyHash = Bcrypt.hash(Tokens.id("decoy_"), cost: configuration.bcryptCost)
    }

    /// The current instant.
    func now() -> Date { configuration.clock() }

    /// Tells the user's connected devices (on every instance) that something changed.
    func publish(_ change: Change, to user: String) async {
        hub.deliver(change, to: user)
        guard let relay else { return }
        do {
            try await relay.publish(RelayMessage(instance: instance, user: user, change: change))
        } catch {
            logger.warning("could not relay a change", metadata: ["error": .string("\(error)")])
        }
    }

    /// Delivers a change another instance relayed.
    func receive(_ message: RelayMessage) {
        guard message.instance != instance else { return }
        hub.deliver(message.change, to: message.user)
    }
}
