import Foundation
import HummingbirdBcrypt
import Logging
import MomentumCore
@_spi(Testing) import MomentumServices
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
    let hub: ChangeHub
    let relay: (any ChangeRelay)?
    /// Whether the relay is receiving other instances' changes right now.
    let relayListening = RelayListening()
    let logger: Logger
    /// This instance's id, so that it ignores its own notifications.
    let instance = Tokens.id("i_")
    /// The server's VAPID key pair (Web Push).
    let vapid: VAPIDKeys
    /// Every use case (`MomentumServices`), built once; controllers receive the ones they
    /// call.
    public let services: Services
    /// Device sessions verified in the last few seconds.
    var sessions: SessionCache { services.sessions }

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
        let mailLimiter: any RequestLimit
        let serverKeyFailures: any RequestLimit
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
            let mail = SharedRateLimiter(
                perMinute: configuration.mail.requestsPerMinute, prefix: "mail:", clock: configuration.clock)
            mailLimiter = mail
            let keyFailures = SharedRateLimiter(
                perMinute: configuration.serverKeyFailuresPerMinute, prefix: "server-key:", clock: configuration.clock)
            serverKeyFailures = keyFailures
            sharedLimiters = [users, addresses, social, codes, mail, keyFailures]
        } else {
            userLimiter = RateLimiter(perMinute: configuration.userRequestsPerMinute, now: configuration.rateLimitClock)
            addressLimiter = RateLimiter(
                perMinute: configuration.addressRequestsPerMinute, now: configuration.rateLimitClock)
            socialLimiter = RateLimiter(
                perMinute: configuration.socialActionsPerMinute, now: configuration.rateLimitClock)
            codeLimiter = RateLimiter(
                perMinute: configuration.invitationCodesPerMinute, now: configuration.rateLimitClock)
            mailLimiter = RateLimiter(
                perMinute: configuration.mail.requestsPerMinute, now: configuration.rateLimitClock)
            serverKeyFailures = RateLimiter(
                perMinute: configuration.serverKeyFailuresPerMinute, now: configuration.rateLimitClock)
            sharedLimiters = []
        }
        trustedProxies =
            (try? TrustedProxies(configuration.trustedProxies, header: configuration.forwardedHeader)) ?? .none
        passwords = PasswordHasher(threads: configuration.passwordThreads, queue: configuration.passwordQueue)
        hub = ChangeHub(maxStreamsPerUser: configuration.maxStreamsPerUser)
        vapid = VAPIDKeys(store: store, subject: configuration.vapidSubject)
        let webhookAddresses = WebhookAddresses(
            allowed: configuration.webhookAllowedNetworks, resolver: configuration.webhookResolver,
            timeout: configuration.webhookLookupTimeout)
        var transports: [NotificationChannel: any DeliveryTransport] = [:]
        if let client = try? DeliveryHTTP.client(extraRootsPEM: configuration.deliveryTrustRootsPEM) {
            transports[.webhook] = WebhookSender(
                extraRootsPEM: configuration.deliveryTrustRootsPEM, addresses: webhookAddresses)
            transports[.webPush] = WebPushSender(client: client, keys: vapid)
            if let apns = configuration.apns {
                transports[.apns] = APNsSender(client: client, configuration: apns, tokens: APNsTokens(apns))
            }
            if let fcm = configuration.fcm {
                transports[.fcm] = FCMSender(
                    client: client, configuration: fcm, tokens: FCMAccessTokens(fcm, client: client))
            }
        } else {
            logger.error("the delivery trust roots are not PEM certificates: nothing is sent to devices or webhooks")
        }
        let listening = relayListening
        var isListening: (@Sendable () -> Bool)? = nil
        if relay != nil { isListening = { listening.value } }
        var edges = Services.Edges(
            passwords: passwords, decoyHash: Bcrypt.hash(Tokens.id("decoy_"), cost: configuration.bcryptCost),
            localChanges: hub, relay: relay, instance: instance, transports: transports,
            webhookAddresses: webhookAddresses, socialLimit: socialLimiter, codeLimit: codeLimiter,
            relayListening: isListening, metrics: metrics.factory, logger: logger)
        if !configuration.identity.providers.isEmpty {
            edges.identityTokens = IDTokenVerifier.make(
                configuration: configuration, addresses: webhookAddresses, logger: logger)
        }
        edges.mailLimit = mailLimiter
        edges.serverKeyFailures = serverKeyFailures
        if let url = configuration.mail.smtpURL {
            do {
                var settings = configuration.mail
                settings.trustRootsPEM = settings.trustRootsPEM ?? configuration.deliveryTrustRootsPEM
                edges.mailTransport = try SMTPClient(settings: settings, url: url, clock: configuration.clock)
            } catch {
                logger.error("the SMTP settings are wrong: no mail is sent", metadata: ["error": "\(error)"])
            }
        }
        services = Services(store: store, configuration: configuration, edges: edges)
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
    /// held or dropped. The server does it every `ServerConfiguration.deliveryInterval`;
    /// a test with its own clock calls it.
    @discardableResult
    public func runDueDeliveries() async throws -> DeliveryPass {
        let report = try await services.deliveries.runDue()
        return DeliveryPass(
            sent: report.sent, retried: report.retried, failed: report.failed, deferred: report.deferred,
            dropped: report.dropped)
    }

    /// Runs the mail sender once, at the configured clock's instant: every mail due is
    /// sent, retried later or given up. The server does it every `MailSettings.interval`; a
    /// test with its own clock calls it.
    @discardableResult
    public func runDueMail() async throws -> MailSender.PassReport {
        try await services.mail.runDue()
    }

    /// Runs the notification scheduler once, at the configured clock's instant: every user
    /// whose wake has come. The server does this every
    /// `ServerConfiguration.notificationInterval`; a test with its own clock calls it.
    @discardableResult
    public func runDueNotifications() async throws -> NotificationPass {
        let report = try await services.notifications.runDue()
        return NotificationPass(users: report.users, sent: report.sent, dropped: report.dropped)
    }

    /// Tells the user's connected devices (on every instance) that something changed.
    ///
    /// The change leaves for the other instances with the relay's next notification; the
    /// request that made it does not wait for that (``flushRelay(timeout:)`` does, at shutdown).
    func publish(_ change: Change, to user: String) {
        services.changes.publish(change, to: user)
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
}

/// Whether the relay is receiving other instances' changes right now.
final class RelayListening: Sendable {
    private let listening = Atomic<Bool>(false)

    /// Whether it is.
    var value: Bool { listening.load(ordering: .relaxed) }

    /// Records whether it is.
    func set(_ value: Bool) { listening.store(value, ordering: .relaxed) }
}
