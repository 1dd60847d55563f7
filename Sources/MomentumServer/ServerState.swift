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
    let metrics: ServerMetrics
    let userLimiter: any RequestLimit
    let addressLimiter: any RequestLimit
    /// The address and user limits when they are counted in the database (several
    /// instances), for the service that flushes them.
    let sharedLimiters: [SharedRateLimiter]
    /// Invitations, reactions and nudges (``ServerConfiguration/socialActionsPerMinute``).
    let socialLimiter: any RequestLimit
    /// Invitation codes looked up (``ServerConfiguration/invitationCodesPerMinute``).
    let codeLimiter: any RequestLimit
    let trustedProxies: TrustedProxies
    /// bcrypt's own pool, with a bounded queue.
    let passwords: PasswordHasher
    let signInThrottle: SignInThrottle
    let inFlight = Mutex(Set<String>())
    let hub: ChangeHub
    let relay: (any ChangeRelay)?
    /// Device sessions verified in the last few seconds.
    let sessions: SessionCache
    /// Whether the relay is receiving other instances' changes right now.
    let relayListening = RelayListening()
    let detector = SuspicionDetector()
    /// Refuses events dated before their account or beyond the pack's offline window.
    let arrivals = ArrivalGate()
    let logger: Logger
    /// This instance's id, so that it ignores its own notifications.
    let instance = Tokens.id("i_")
    /// A bcrypt hash of nothing in particular, checked when an email has no account so
    /// that signing in takes as long either way.
    let decoyHash: String
    /// Draws PNG share cards on threads of its own (not bcrypt's), bounded in time and
    /// number, with a cache; its threads also decode uploaded photos.
    let rasterizer: Rasterizer
    /// Checks uploaded photos by decoding them and makes their copies for share cards.
    let photoDecoder: PhotoDecoder
    /// What a user sees (today, habits, analytics, wallet, …), for routes and pages alike.
    let dashboard: Dashboard
    /// Tells a user's devices, here and on other instances, that something changed.
    let changes: ChangePublisher
    /// Stores what devices send, for pushes and the convenience routes alike.
    let ingest: EventIngest
    /// The user's own milestones: listed with where each stands, and deleted.
    let milestones: CustomMilestones
    /// The notification scheduler's runs, milestones at once, and the in-app inbox.
    let notifications: Notifications
    /// Sends inbox notifications to devices and webhooks.
    let deliveries: Deliveries
    /// Devices' push registrations and the webhooks.
    let pushTargets: PushTargets
    /// The server's VAPID key pair (Web Push).
    let vapid: VAPIDKeys
    /// Accounts, device sessions and profiles, for routes and pages alike.
    let accounts: Accounts
    /// Imports from other habit apps, and the CSV export.
    let habitImports: HabitImports
    /// Memories, their notes, photos and share cards, for routes and pages alike.
    let memories: Memories
    /// Subjects' photos (the puppy on its profile).
    let subjectPhotos: SubjectPhotos
    /// The celebrations waiting for a user.
    let celebrations: Celebrations
    /// Readiness, metrics and review flags, for the operator.
    let operations: Operations
    /// Friends, invitations, posts, reactions and nudges.
    let social: Social
    /// Subjects' families: members, roles, and what caregivers log.
    let families: Families

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
        metrics = ServerMetrics(postgres: store.statistics.guardedWrites != nil)
        sessions = SessionCache(ttl: configuration.sessionCacheSeconds)
        if relay != nil {
            // Several instances: the limits hold across all of them.
            let users = SharedRateLimiter(
                perMinute: configuration.userRequestsPerMinute, prefix: "user:", clock: configuration.clock)
            let addresses = SharedRateLimiter(
                perMinute: configuration.addressRequestsPerMinute, prefix: "address:", clock: configuration.clock)
            let social = SharedRateLimiter(
                perMinute: configuration.socialActionsPerMinute, prefix: "social:", clock: configuration.clock)
            let codes = SharedRateLimiter(
                perMinute: configuration.invitationCodesPerMinute, prefix: "codes:", clock: configuration.clock)
            userLimiter = users
            addressLimiter = addresses
            socialLimiter = social
            codeLimiter = codes
            sharedLimiters = [users, addresses, social, codes]
        } else {
            userLimiter = RateLimiter(perMinute: configuration.userRequestsPerMinute, now: configuration.rateLimitClock)
            addressLimiter = RateLimiter(
                perMinute: configuration.addressRequestsPerMinute, now: configuration.rateLimitClock)
            socialLimiter = RateLimiter(
                perMinute: configuration.socialActionsPerMinute, now: configuration.rateLimitClock)
            codeLimiter = RateLimiter(
                perMinute: configuration.invitationCodesPerMinute, now: configuration.rateLimitClock)
            sharedLimiters = []
        }
        trustedProxies =
            (try? TrustedProxies(configuration.trustedProxies, header: configuration.forwardedHeader)) ?? .none
        passwords = PasswordHasher(threads: configuration.passwordThreads, queue: configuration.passwordQueue)
        signInThrottle = SignInThrottle(maxBackoffSeconds: configuration.signInMaxBackoffSeconds)
        hub = ChangeHub(maxStreamsPerUser: configuration.maxStreamsPerUser)
        decoyHash = Bcrypt.hash(Tokens.id("decoy_"), cost: configuration.bcryptCost)
        rasterizer = Rasterizer(configuration: configuration, factory: metrics.factory)
        photoDecoder = PhotoDecoder(configuration: configuration)
        dashboard = Dashboard(store: store, configuration: configuration, factory: metrics.factory)
        changes = ChangePublisher(hub: hub, relay: relay, instance: instance, logger: logger)
        notifications = Notifications(
            store: store, now: configuration.clock, changes: changes, metrics: metrics.notifications, logger: logger,
            lease: configuration.notificationLease, batch: max(1, configuration.notificationBatch))
        vapid = VAPIDKeys(store: store, subject: configuration.vapidSubject)
        let webhookAddresses = WebhookAddresses(
            allowed: configuration.webhookAllowedNetworks, resolver: configuration.webhookResolver,
            timeout: configuration.webhookLookupTimeout)
        pushTargets = PushTargets(
            store: store, now: configuration.clock, vapid: vapid, pushHosts: configuration.pushHosts,
            apns: configuration.apns != nil, webhookAddresses: webhookAddresses)
        var transports: [NotificationChannel: any DeliveryTransport] = [:]
        if let client = try? DeliveryHTTP.client(extraRootsPEM: configuration.deliveryTrustRootsPEM) {
            transports[.webhook] = WebhookSender(
                extraRootsPEM: configuration.deliveryTrustRootsPEM, addresses: webhookAddresses)
            transports[.webPush] = WebPushSender(client: client, keys: vapid)
            if let apns = configuration.apns {
                transports[.apns] = APNsSender(client: client, configuration: apns, tokens: APNsTokens(apns))
            }
        } else {
            logger.error("the delivery trust roots are not PEM certificates: nothing is sent to devices or webhooks")
        }
        deliveries = Deliveries(
            store: store, now: configuration.clock, metrics: metrics.notifications, logger: logger,
            settings: Deliveries.Settings(
                lease: configuration.deliveryLease, batch: max(1, configuration.deliveryBatch),
                attempts: max(1, configuration.deliveryAttempts), retryBase: max(0, configuration.deliveryRetrySeconds),
                webhookFailureLimit: max(1, configuration.webhookFailureLimit)),
            transports: transports)
        ingest = EventIngest(
            store: store, maxEventsPerRequest: configuration.maxEventsPerRequest, now: configuration.clock,
            arrivals: arrivals, detector: detector, metrics: metrics, logger: logger, changes: changes,
            notifications: notifications)
        habitImports = HabitImports(
            store: store, ingest: ingest, now: configuration.clock,
            maxEventsPerRequest: configuration.maxEventsPerRequest)
        milestones = CustomMilestones(store: store, ingest: ingest, now: configuration.clock)
        accounts = Accounts(
            store: store, configuration: configuration, passwords: passwords, throttle: signInThrottle,
            devices: SignInDevices(store: store),
            decoyHash: decoyHash, sessions: sessions, changes: changes, notifications: notifications)
        let uploads = PhotoUploads(
            store: store, now: configuration.clock, rasterizer: rasterizer, photoDecoder: photoDecoder)
        memories = Memories(
            store: store, now: configuration.clock, rasterizer: rasterizer, photoDecoder: photoDecoder,
            uploads: uploads, changes: changes)
        subjectPhotos = SubjectPhotos(store: store, uploads: uploads, ingest: ingest, now: configuration.clock)
        celebrations = Celebrations(store: store, now: configuration.clock, changes: changes)
        social = Social(
            store: store, changes: changes, notifications: notifications, actions: socialLimiter, codes: codeLimiter,
            now: configuration.clock)
        families = Families(store: store, social: social, ingest: ingest, changes: changes, now: configuration.clock)
        operations = Operations(
            store: store, metrics: metrics, hub: hub, relayListening: relay == nil ? nil : relayListening)
    }

    /// The current instant.
    func now() -> Date { configuration.clock() }

    /// What one pass of the notification scheduler did.
    public struct NotificationPass: Equatable, Sendable {
        /// Users whose notifications were looked at.
        public var users: Int
        /// Notifications stored in inboxes.
        public var sent: Int
        /// Notifications found after they stopped making sense.
        public var dropped: Int
    }

    /// What one pass of the sender did.
    public struct DeliveryPass: Equatable, Sendable {
        /// Deliveries a device's service or a webhook accepted.
        public var sent: Int
        /// Failed attempts that will be tried again.
        public var retried: Int
        /// Deliveries given up after failures.
        public var failed: Int
        /// Deliveries held by quiet hours.
        public var deferred: Int
        /// Deliveries not sent: preferences, the daily cap, a device gone, an expiry.
        public var dropped: Int
    }

    /// Runs the sender once, at the configured clock's instant: every delivery due is sent,
    /// held or dropped. The server does it every ``ServerConfiguration/deliveryInterval``;
    /// a test with its own clock calls it.
    @discardableResult
    public func runDueDeliveries() async throws -> DeliveryPass {
        let report = try await deliveries.runDue()
        return DeliveryPass(
            sent: report.sent, retried: report.retried, failed: report.failed, deferred: report.deferred,
            dropped: report.dropped)
    }

    /// Runs the notification scheduler once, at the configured clock's instant: every user
    /// whose wake has come. The server does this every
    /// ``ServerConfiguration/notificationInterval``; a test with its own clock calls it.
    @discardableResult
    public func runDueNotifications() async throws -> NotificationPass {
        let report = try await notifications.runDue()
        return NotificationPass(users: report.users, sent: report.sent, dropped: report.dropped)
    }

    /// Tells the user's connected devices (on every instance) that something changed.
    ///
    /// The change leaves for the other instances with the relay's next notification; the
    /// request that made it does not wait for that (``flushRelay(timeout:)`` does, at shutdown).
    func publish(_ change: Change, to user: String) {
        changes.publish(change, to: user)
    }

    /// Returns once every change published so far has left for the other instances, or
    /// after `timeout` (a database that stopped answering must not hold a shutdown for
    /// ever; the changes not sent are logged as lost to the other instances, whose
    /// clients catch up on their next pull).
    ///
    /// - Returns: Whether everything left in time.
    @discardableResult
    public func flushRelay(timeout: Duration = .seconds(5)) async -> Bool {
        guard let relay else { return true }
        let (signals, signal) = AsyncStream.makeStream(of: Bool.self)
        let flusher = Task {
            await relay.flush()
            signal.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            signal.yield(false)
        }
        var iterator = signals.makeAsyncIterator()
        let flushed = await iterator.next() ?? false
        timer.cancel()
        if !flushed {
            flusher.cancel()
            logger.warning("changes not relayed to the other instances before shutdown: the database did not answer")
        }
        return flushed
    }

    /// Acts on what another instance relayed: delivers a change, forgets a revoked session.
    func receive(_ message: RelayMessage) {
        guard message.instance != instance else { return }
        switch message.revoked {
        case "*": sessions.forget(user: message.user)
        case let tokenHash?: sessions.forget(tokenHash: tokenHash)
        case nil: break
        }
        if let change = message.change { hub.deliver(change, to: message.user) }
    }

    /// Whether cached sessions may be trusted: always on a single instance; with other
    /// instances only while the relay is receiving their revocations.
    var sessionCacheTrusted: Bool { relay == nil || relayListening.value }
}

/// Whether the relay is receiving other instances' changes right now.
final class RelayListening: Sendable {
    private let listening = Atomic<Bool>(false)

    /// Whether it is.
    var value: Bool { listening.load(ordering: .relaxed) }

    /// Records whether it is.
    func set(_ value: Bool) { listening.store(value, ordering: .relaxed) }
}
