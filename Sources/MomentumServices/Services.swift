import CoreMetrics
import Foundation
import Logging
import MomentumCore
import MomentumStore

/// Every use case, built once from one store and one configuration: the services layer's
/// composition root.
///
/// The HTTP layer (`MomentumServer`) makes one at start and hands each controller the use
/// cases it calls; nothing here knows HTTP. What only the HTTP layer can provide (bcrypt's
/// threads, the change streams of this instance, the senders to devices and webhooks,
/// address lookups) comes in through ``Edges``.
public final class Services: Sendable {
    /// What the services need from the layer that runs them.
    public struct Edges: Sendable {
        /// Hashes and checks passwords.
        public var passwords: any PasswordHashing
        /// A password hash of nothing in particular, checked when an email has no account
        /// so that signing in takes as long either way.
        public var decoyHash: String
        /// The change streams of this instance.
        public var localChanges: any LocalChangeDelivery
        /// How changes reach other instances; `nil` when this is the only one.
        public var relay: (any ChangeRelay)?
        /// This instance's id, so that it ignores its own relayed changes.
        public var instance: String
        /// The senders, by channel (Web Push, APNs, webhooks).
        public var transports: [NotificationChannel: any DeliveryTransport]
        /// Checks where webhooks may be posted.
        public var webhookAddresses: any WebhookAddressVetting
        /// Invitations, reactions and nudges per user per minute.
        public var socialLimit: any RequestLimit
        /// Invitation codes looked up per user per minute.
        public var codeLimit: any RequestLimit
        /// Whether other instances' changes are arriving; `nil` when this is the only one.
        public var relayListening: (@Sendable () -> Bool)?
        /// Where counters go (the server's Prometheus registry).
        public var metrics: any MetricsFactory
        /// Where the services log.
        public var logger: Logger
        /// Sends mail (the SMTP client); `nil`: the outbox is not sent from this instance.
        public var mailTransport: (any MailTransport)? = nil
        /// Password-reset and verification mails asked for per email, address or account per
        /// minute; `nil`: no limit.
        public var mailLimit: (any RequestLimit)? = nil
        /// Checks identity providers' ID tokens; `nil`: no sign-in with an identity provider.
        public var identityTokens: (any IdentityTokenVerifying)?
        /// Failed server keys per client address per minute; `nil`: no limit.
        public var serverKeyFailures: (any RequestLimit)? = nil

        /// Creates the edges.
        public init(
            passwords: any PasswordHashing, decoyHash: String, localChanges: any LocalChangeDelivery,
            relay: (any ChangeRelay)?, instance: String, transports: [NotificationChannel: any DeliveryTransport],
            webhookAddresses: any WebhookAddressVetting, socialLimit: any RequestLimit, codeLimit: any RequestLimit,
            relayListening: (@Sendable () -> Bool)?, metrics: any MetricsFactory, logger: Logger
        ) {
            self.passwords = passwords
            self.decoyHash = decoyHash
            self.localChanges = localChanges
            self.relay = relay
            self.instance = instance
            self.transports = transports
            self.webhookAddresses = webhookAddresses
            self.socialLimit = socialLimit
            self.codeLimit = codeLimit
            self.relayListening = relayListening
            self.metrics = metrics
            self.logger = logger
        }
    }

    /// What a user sees (today, habits, analytics, wallet, …), for routes and pages alike.
    public let dashboard: Dashboard
    /// Tells a user's devices, here and on other instances, that something changed.
    public let changes: ChangePublisher
    /// Stores what devices send, for pushes and the convenience routes alike.
    public let ingest: EventIngest
    /// The user's own milestones: listed with where each stands, and deleted.
    public let milestones: CustomMilestones
    /// The notification scheduler's runs, milestones at once, and the in-app inbox.
    public let notifications: Notifications
    /// Sends inbox notifications to devices and webhooks.
    public let deliveries: Deliveries
    /// The events app backends receive at their webhooks (`unlock.created`, `streak.lost`, …).
    public let webhookEvents: WebhookEvents
    /// Password resets and email verification, by mail.
    public let recovery: AccountRecovery
    /// Sends the mail outbox through the SMTP server.
    public let mail: MailSender
    /// Devices' push registrations and the webhooks.
    public let pushTargets: PushTargets
    /// Accounts, device sessions and profiles.
    public let accounts: Accounts
    /// Imports from other habit apps, and the CSV export.
    public let habitImports: HabitImports
    /// Memories, their notes, photos and share cards.
    public let memories: Memories
    /// Subjects' photos (the puppy on its profile).
    public let subjectPhotos: SubjectPhotos
    /// The celebrations waiting for a user.
    public let celebrations: Celebrations
    /// Readiness and review flags, for the operator.
    public let operations: Operations
    /// Friends, invitations, posts, reactions and nudges.
    public let social: Social
    /// Subjects' families: members, roles, and what caregivers log.
    public let families: Families
    /// Device sessions verified in the last few seconds (the HTTP layer's authentication
    /// reads it; signing out forgets).
    public let sessions: SessionCache
    /// Who a device token signs in (the API's bearer tokens, the web app's cookie).
    public let sessionAuthentication: SessionAuthentication
    /// The answers kept by `Idempotency-Key`.
    public let idempotency: Idempotency
    /// Stream tickets: the change stream opened by a browser that cannot send a token.
    public let streamAdmission: StreamAdmission
    /// Draws PNG share cards on threads of its own, bounded in time and number, with a
    /// cache; its threads also decode uploaded photos.
    public let rasterizer: Rasterizer
    /// Checks uploaded photos by decoding them and makes their copies for share cards.
    public let photoDecoder: PhotoDecoder
    /// Slows down guessing at passwords, per account and per address.
    public let signInThrottle: SignInThrottle
    /// Sign-ins with identity providers' ID tokens, and the identities linked to accounts.
    public let identitySignIns: IdentitySignIns
    /// Server keys: created, listed and revoked by the operator, shown by apps' backends.
    public let serverKeys: ServerKeyAuthority
    /// An app's users by the app's own ids, for its backend.
    public let backendUsers: BackendUsers
    /// The operators of the admin API and the console: sign-ins, roles and the audit log.
    public let operators: Operators
    /// One user looked up by an operator, and everything the console shows of them.
    public let userLookup: UserLookup
    /// Diamonds and freezes an operator gives a user.
    public let grants: Grants
    /// The review flags as an operator reviews them: the queue, the evidence, confirming.
    public let flagReviews: FlagReviews
    /// What-if replays of a candidate pack version over users' logs.
    public let whatIf: WhatIfReplays
    /// Rule packs as configuration: uploads, versions and activation.
    public let packs: Packs
    /// The webhooks' health, their last deliveries, and one sent again (the console).
    public let webhookConsole: WebhookConsole
    /// What the notifications did over the last hours, on every instance (the console).
    public let notificationSummaries: NotificationSummaries
    /// Incident amnesties: outage windows whose days are covered in every user's log.
    public let amnesties: Amnesties

    /// Builds every use case.
    ///
    /// - Parameters:
    ///   - store: A migrated store; each use case keeps only the areas it uses.
    ///   - configuration: The settings.
    ///   - edges: What the services need from the layer that runs them.
    public init(store: any MomentumStore, configuration: ServerConfiguration, edges: Edges) {
        let logger = edges.logger
        let now = configuration.clock
        sessions = SessionCache(ttl: configuration.sessionCacheSeconds)
        sessionAuthentication = SessionAuthentication(
            store: store, sessions: sessions, lifetime: configuration.sessionLifetime, now: now,
            relayListening: edges.relayListening)
        idempotency = Idempotency(store: store, now: now)
        streamAdmission = StreamAdmission(
            store: store, lifetime: configuration.streamTicketLifetime, sessionLifetime: configuration.sessionLifetime,
            now: now)
        signInThrottle = SignInThrottle(maxBackoffSeconds: configuration.signInMaxBackoffSeconds)
        rasterizer = Rasterizer(configuration: configuration, factory: edges.metrics)
        photoDecoder = PhotoDecoder(configuration: configuration)
        dashboard = Dashboard(store: store, configuration: configuration, factory: edges.metrics)
        changes = ChangePublisher(hub: edges.localChanges, relay: edges.relay, instance: edges.instance, logger: logger)
        let notificationMetrics = NotificationMetrics(factory: edges.metrics, now: now)
        webhookEvents = WebhookEvents(store: store, now: now, logger: logger)
        notifications = Notifications(
            store: store, now: now, changes: changes, metrics: notificationMetrics, logger: logger,
            lease: configuration.notificationLease, batch: max(1, configuration.notificationBatch),
            webhookEvents: webhookEvents)
        pushTargets = PushTargets(
            store: store, now: now, pushHosts: configuration.pushHosts, apns: configuration.apns != nil,
            fcm: configuration.fcm != nil,
            webhookAddresses: edges.webhookAddresses, webhookEvents: webhookEvents)
        deliveries = Deliveries(
            store: store, now: now, metrics: notificationMetrics, logger: logger,
            settings: Deliveries.Settings(
                lease: configuration.deliveryLease, batch: max(1, configuration.deliveryBatch),
                attempts: max(1, configuration.deliveryAttempts), retryBase: max(0, configuration.deliveryRetrySeconds),
                webhookFailureLimit: max(1, configuration.webhookFailureLimit)),
            transports: edges.transports)
        ingest = EventIngest(
            store: store, maxEventsPerRequest: configuration.maxEventsPerRequest, now: now, arrivals: ArrivalGate(),
            detector: SuspicionDetector(), metrics: IngestMetrics(factory: edges.metrics), logger: logger,
            changes: changes, notifications: notifications, rules: dashboard.rules, webhookEvents: webhookEvents)
        habitImports = HabitImports(
            store: store, ingest: ingest, now: now, maxEventsPerRequest: configuration.maxEventsPerRequest)
        milestones = CustomMilestones(store: store, ingest: ingest, now: now)
        let mailWork = BackgroundWork()
        recovery = AccountRecovery(
            store: store, configuration: configuration, passwords: edges.passwords, sessions: sessions,
            changes: changes, limit: edges.mailLimit, work: mailWork, logger: logger)
        mail = MailSender(
            store: store, transport: edges.mailTransport, settings: configuration.mail, now: now, logger: logger,
            work: mailWork, factory: edges.metrics)
        accounts = Accounts(
            store: store, configuration: configuration, passwords: edges.passwords, throttle: signInThrottle,
            devices: SignInDevices(store: store), decoyHash: edges.decoyHash, sessions: sessions, changes: changes,
            notifications: notifications, welcome: configuration.mail.smtpURL == nil ? nil : recovery.welcome)
        identitySignIns = IdentitySignIns(
            store: store, accounts: accounts, verifier: edges.identityTokens,
            providers: configuration.identity.providers)
        let uploads = PhotoUploads(store: store, now: now, rasterizer: rasterizer, photoDecoder: photoDecoder)
        memories = Memories(
            store: store, now: now, rasterizer: rasterizer, photoDecoder: photoDecoder, uploads: uploads,
            changes: changes)
        subjectPhotos = SubjectPhotos(store: store, uploads: uploads, ingest: ingest, now: now)
        celebrations = Celebrations(store: store, now: now, changes: changes)
        social = Social(
            store: store, changes: changes, notifications: notifications, actions: edges.socialLimit,
            codes: edges.codeLimit, now: now)
        families = Families(store: store, social: social, ingest: ingest, changes: changes, now: now)
        operations = Operations(store: store, relayListening: edges.relayListening)
        serverKeys = ServerKeyAuthority(
            store: store, now: now, failures: edges.serverKeyFailures ?? NoRequestLimit(), cache: sessions,
            relayListening: edges.relayListening, changes: changes)
        backendUsers = BackendUsers(
            store: store, ingest: ingest, dashboard: dashboard, accounts: accounts, changes: changes,
            configuration: configuration, cache: sessions, relayListening: edges.relayListening)
        operators = Operators(
            store: store, passwords: edges.passwords, throttle: signInThrottle, decoyHash: edges.decoyHash,
            configuration: configuration, logger: logger)
        userLookup = UserLookup(store: store, now: now)
        grants = Grants(store: store, ingest: ingest, now: now)
        flagReviews = FlagReviews(store: store, now: now)
        whatIf = WhatIfReplays(
            store: store, packs: LibraryPackSource(store: store), now: now, logger: logger, ingest: ingest)
        packs = Packs(
            store: store, now: now, maximumBytes: configuration.packs.maxBytes, keeper: whatIf, logger: logger)
        webhookConsole = WebhookConsole(store: store, now: now)
        notificationSummaries = NotificationSummaries(store: store, now: now)
        amnesties = Amnesties(store: store, ingest: ingest, now: now, logger: logger)
    }
}
