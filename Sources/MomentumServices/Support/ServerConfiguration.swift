import Foundation
import Logging
import MomentumAPI
import MomentumCore

/// Everything `momentum serve` can be told: where to listen, which database, limits and
/// safety settings. Each setting has a flag and an environment variable (see docs/configuration.md).
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The port to listen on (0 picks a free one).
    public var port: Int = 8080
    /// The rule pack new accounts start with (`habits`, `ollie`, `savings`, `growth`).
    public var pack: String = "habits"
    /// Origins whose pages may call the whole API from a browser (with a bearer token);
    /// `*` allows any. With ``corsStreamOrigins`` empty too, CORS is off.
    public var corsOrigins: [String] = []
    /// Origins whose pages may open the change stream with a stream ticket
    /// (`GET /v1/stream?ticket=`) and reach nothing else; `*` allows any.
    public var corsStreamOrigins: [String] = []
    /// Allowed origins (by ``corsOrigins`` or ``corsStreamOrigins``) that may also send
    /// credentials (cookies): each is echoed with `Access-Control-Allow-Credentials: true`.
    /// Exact origins only: `*` is refused at start.
    public var corsCredentialOrigins: [String] = []
    /// Headers of answers that allowed pages may read, besides `X-Request-ID`,
    /// `Idempotent-Replayed`, `Retry-After` and `Momentum-Device-Key`.
    public var corsExposedHeaders: [String] = []
    /// How long a stream ticket (`POST /v1/stream-tickets`) opens the stream.
    public var streamTicketLifetime: Duration = .seconds(60)
    /// Requests a signed-in user may make per minute (0: no limit).
    public var userRequestsPerMinute: Int = 1_200
    /// Invitations made, reactions and nudges per user and minute, each counted apart
    /// (0: no limit).
    public var socialActionsPerMinute: Int = 30
    /// Invitation codes one user may look up or answer per minute, so that codes cannot be
    /// guessed (0: no limit).
    public var invitationCodesPerMinute: Int = 10
    /// Requests one client address may make per minute (0: no limit).
    public var addressRequestsPerMinute: Int = 2_400
    /// Reverse proxies (addresses or CIDR ranges) whose `Forwarded` / `X-Forwarded-For`
    /// headers name the client; from any other peer those headers are ignored.
    public var trustedProxies: [String] = []
    /// The one header a trusted proxy names the client in: `X-Forwarded-For` (what nginx's
    /// `$proxy_add_x_forwarded_for` and most load balancers append to) or RFC 7239's
    /// `Forwarded`. The other is ignored, since a proxy passes through whatever a client put
    /// in the header it does not set itself.
    public var forwardedHeader: ForwardedHeader = .xForwardedFor

    /// Which header names the client behind a trusted proxy.
    public enum ForwardedHeader: String, Sendable, CaseIterable {
        /// `X-Forwarded-For: client, proxy1, …`.
        case xForwardedFor = "x-forwarded-for"
        /// `Forwarded: for=client, for=proxy1` (RFC 7239).
        case forwarded
    }
    /// Failed sign-ins an email may have from one client (an address, or a device that
    /// signed in before) before that client's further attempts for it wait (1 s, 2 s, 4 s, …).
    public var signInFreeFailuresPerAccount: Int = 5
    /// Failed sign-ins an email may have from all the clients that never signed in to it
    /// together, once they came from three addresses or more, before attempts from such
    /// clients wait: guesses spread over many addresses. One address alone never makes
    /// another wait; clients that signed in to the account before are not held by it.
    public var signInFreeFailuresAcrossAddresses: Int = 20
    /// Failed sign-ins a client address may have before each further attempt waits.
    public var signInFreeFailuresPerAddress: Int = 20
    /// The longest wait after failed sign-ins, in seconds.
    public var signInMaxBackoffSeconds: Int = 300
    /// Threads that run bcrypt (sign-in, sign-up), apart from every other pool.
    public var passwordThreads: Int = 2
    /// Password checks that may wait for a bcrypt thread; one more is refused at once (`.unavailable`).
    public var passwordQueue: Int = 4
    /// Password checks (sign-ins and sign-ups) one client address may have running at
    /// once; more are refused at once with `.tooMany` (a load test from one machine raises it).
    public var passwordChecksPerAddress: Int = 2
    /// Seconds a connection may stay idle, or take to send a request's header, before it is
    /// closed (0: never).
    public var idleTimeoutSeconds: Int = 60
    /// How long the server waits at start for its database to answer (and be migrated)
    /// before it gives up with an error, rather than waiting silently on a wrong URL.
    public var databaseStartTimeout: Duration = .seconds(30)
    /// Event streams (`/v1/stream`) one user may hold open at once (0: no limit).
    public var maxStreamsPerUser: Int = 8
    /// The largest JSON request body, in bytes.
    public var maxBodyBytes: Int = 1 << 20
    /// The largest photo upload, in bytes.
    public var maxPhotoBytes: Int = 8 << 20
    /// The largest account archive an operator may import (`POST /v1/admin/archives`).
    public var maxArchiveBytes: Int = 512 << 20
    /// The most events one request may carry.
    public var maxEventsPerRequest: Int = 1_000
    /// bcrypt's cost factor for new passwords (each step doubles the work).
    public var bcryptCost: UInt8 = 12
    /// The bearer token of the admin endpoints; `nil` turns them off.
    public var adminToken: String?
    /// How long a device token stays valid without use.
    public var sessionLifetime: Duration = .seconds(90 * 86_400)
    /// How many users' engines to keep in memory.
    public var engineCacheCapacity: Int = 20_000
    /// How many megabytes of users' engines to keep in memory, by their estimate
    /// (`MomentumUser.estimatedBytes`); 0 for no bound but ``engineCacheCapacity``. The least
    /// recently used go first.
    public var engineCacheMegabytes: Int = 1_024
    /// How long a verified device session is trusted without reading it again, in seconds
    /// (0: every request reads it). A session ended through any instance stops working on
    /// every instance at once (other instances hear of it through the relay, and do not use
    /// the cache while the relay is not receiving); one deleted in the database behind the
    /// servers' backs keeps working for at most this long.
    public var sessionCacheSeconds: TimeInterval = 60
    /// Whether the web app's session cookie is always marked `Secure` (sent over HTTPS
    /// only). Set it when a TLS-terminating proxy serves Momentum over HTTPS; a request
    /// that arrives with `X-Forwarded-Proto: https` gets a `Secure` cookie either way.
    public var secureCookies: Bool = false
    /// Whether to create the demo account at start-up.
    public var demo: Bool = false
    /// Where the rasterizer for PNG share cards is (`rsvg-convert` from librsvg).
    public var rasterizer: String = "rsvg-convert"
    /// How long one PNG share card may take to draw; the rasterizer is killed past it.
    public var rasterizerTimeout: Duration = .seconds(10)
    /// How many PNG share cards may be drawn at once (each on a thread of its own, apart
    /// from bcrypt's).
    public var rasterizerConcurrency: Int = 2
    /// How long a PNG share card waits for a free place before it is answered `.unavailable` with
    /// `Retry-After`.
    public var rasterizerQueueWait: Duration = .seconds(2)
    /// The bytes of drawn PNG share cards kept in memory (0: none).
    public var shareCardCacheBytes: Int = 32 << 20
    /// How many reads of more than 25,000 habit-days (analytics of long histories,
    /// calendars of years) may be computed at once: one fewer than the cores (at least
    /// one), so that accounts with long histories leave a core to everyone else's reads.
    public var largeReadConcurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// How long such a read waits for a place before it is answered `.tooMany` `read_busy` with
    /// `Retry-After`.
    public var largeReadQueueWait: Duration = .seconds(5)
    /// The bytes of computed analytics (and their JSON) kept in memory, each for its
    /// user's projection version and day (0: none kept).
    public var analyticsCacheBytes: Int = 32 << 20
    /// The most pixels a photo may have on either side (checked by decoding it).
    public var maxPhotoSide: Int = 8_000
    /// The most pixels a photo may have in all (40 megapixels).
    public var maxPhotoPixels: Int = 40_000_000
    /// The longest side of the copy of each photo that share cards show.
    public var shareCopySide: Int = 1_080
    /// The log level.
    public var logLevel: Logger.Level = .info
    /// How often the server gives the memory of evicted engines back to the system
    /// (glibc's `malloc_trim`, on Linux), when the engine cache evicted any since the last
    /// time; zero turns it off. Without it, what a churning cache frees stays resident in
    /// the allocator's arenas (BENCHMARKS.md §13).
    public var memoryTrimInterval: Duration = .seconds(5)
    /// How often the notification scheduler looks for users whose notifications are due;
    /// zero turns it off (another instance, or a test, runs it).
    public var notificationInterval: Duration = .seconds(15)
    /// How many users one scheduler pass claims at a time.
    public var notificationBatch: Int = 200
    /// How long a claimed notification run may take before another instance may take it.
    public var notificationLease: TimeInterval = 120
    /// How often the sender looks for notifications due on devices and webhooks; zero
    /// turns it off (another instance, or a test, sends).
    public var deliveryInterval: Duration = .seconds(5)
    /// How many deliveries one claim of the sender takes.
    public var deliveryBatch: Int = 500
    /// How long a claimed delivery may take before another instance may take it.
    public var deliveryLease: TimeInterval = 60
    /// Attempts before a failed delivery is given up.
    public var deliveryAttempts: Int = 8
    /// The wait after a delivery's first failure, in seconds; it doubles after each, up to
    /// an hour.
    public var deliveryRetrySeconds: TimeInterval = 30
    /// Failures in a row that disable a webhook until the admin enables it again.
    public var webhookFailureLimit: Int = 20
    /// Addresses and CIDR ranges webhooks may be posted to although they are loopback,
    /// private, link-local or otherwise of the server's own networks (a receiver on the
    /// same host or network, for a self-hosted server): `127.0.0.1`, `10.0.0.0/8`, `::1`.
    /// Empty: webhooks go to public addresses only.
    public var webhookAllowedNetworks: [String] = []
    /// How webhook hosts are resolved; `nil`: the system's resolver. Tests give names
    /// addresses of their choosing.
    @_spi(Testing) public var webhookResolver: (@Sendable (String) async throws -> [String])?
    /// The longest a webhook's check waits for its host's lookup (the post is retried later,
    /// a webhook being made is refused, `webhook_dns_timeout`).
    @_spi(Testing) public var webhookLookupTimeout: Duration = .seconds(5)
    /// The identity providers whose ID tokens sign users in, and the bounds of their key
    /// sets' fetches (which reach private addresses only through ``webhookAllowedNetworks``
    /// and trust ``deliveryTrustRootsPEM`` too).
    public var identity = IdentityProviderSettings()
    /// The hosts whose Web Push endpoints browsers may register (`*.` covers subdomains):
    /// the push services of Chrome, Firefox, Safari and Edge. The server posts to these
    /// addresses, so no other is accepted.
    public var pushHosts: [String] = [
        "fcm.googleapis.com", "*.push.services.mozilla.com", "*.push.apple.com", "*.notify.windows.com",
    ]
    /// Who runs this server, for push services (RFC 8292 `sub`): `mailto:` or an `https:`
    /// URL.
    public var vapidSubject: String = "mailto:admin@momentum.invalid"
    /// Apple's push notification service; `nil`: no APNs (device tokens are refused).
    public var apns: APNsConfiguration?
    /// Firebase Cloud Messaging, for Android apps; `nil`: no FCM (registration tokens are
    /// refused).
    public var fcm: FCMConfiguration?
    /// Certificates (PEM) the senders trust beside the system's: a private CA in front of
    /// webhooks or push services.
    public var deliveryTrustRootsPEM: String?
    /// Where people reach this server's web app (`https://momentum.example.com`): the links
    /// in mails point there. `nil`: `http://<host>:<port>`, right only for a local server.
    public var publicURL: String?
    /// How mail is sent (password resets, email verification); no SMTP server by default.
    public var mail = MailSettings()
    /// Failed server keys (`Authorization: Bearer msk_…`) a client address may show per
    /// minute before its calls with any key are refused (429) for a while; 0: no limit.
    public var serverKeyFailuresPerMinute: Int = 10
    /// The operator's console: on or off, the hosts it answers on, the origins of its forms.
    public var console = ConsoleSettings()
    /// Packs as configuration: the largest upload and how often instances reload them.
    public var packs = PackSettings()
    /// Tracing, the log lines' form, and the admin listener of the probes and metrics.
    public var observability = ObservabilitySettings()
    /// The clock; tests replace it.
    public var clock: @Sendable () -> Date = { Date() }
    /// Seconds on a clock that only moves forward, for the token buckets of a single
    /// instance's rate limits (several instances count wall-clock minutes, by ``clock``);
    /// tests replace it.
    public var rateLimitClock: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    /// Seconds on a clock that only moves forward, for the sign-in throttle's waits; tests
    /// replace it to move past a wait without sleeping.
    @_spi(Testing) public var signInClock: @Sendable () -> Double = {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
    /// Names the JSON answers give to some fields in place of the contract's (which are
    /// MomentumCore's): for the tests that show the API's names and the store's are
    /// independent. A real rename of an answer's field is a change of `openapi.json`.
    @_spi(Testing) public var answerRenames: JSONKeyRenames = .none
    /// The OpenAPI document whose `deprecated` operations get `Deprecation` and `Sunset`
    /// headers (docs/api-versioning.md): this build's `openapi.json`. Tests give one that
    /// deprecates an operation, as a later release would.
    @_spi(Testing) public var apiDocument: Data = APIDocument.data
    /// The versions of the rules the answers announce for an account's packs (`RuleVersions`):
    /// this build's. Tests announce newer ones, to show what a device whose rules are older
    /// than the server's does.
    @_spi(Testing) public var ruleVersions: @Sendable ([String]) -> RuleVersions = { RuleVersions(packs: $0) }

    /// The standard configuration.
    public init() {}
}
