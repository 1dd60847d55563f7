import ArgumentParser
import Foundation
import Logging
import MomentumCore
import MomentumPostgres
import MomentumServer
import MomentumStore

/// `momentum serve`: the HTTP API (and web app) on SQLite or PostgreSQL.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Momentum server.",
        discussion: """
            Every option can also be set with an environment variable: MOMENTUM_HOST, MOMENTUM_PORT, \
            MOMENTUM_DATABASE, MOMENTUM_PACK, MOMENTUM_DEMO=1, MOMENTUM_CORS_ORIGINS (comma-separated), \
            MOMENTUM_ADMIN_TOKEN, MOMENTUM_LOG_LEVEL, MOMENTUM_BCRYPT_COST, MOMENTUM_SECURE_COOKIES=1, \
            MOMENTUM_USER_REQUESTS_PER_MINUTE, MOMENTUM_ADDRESS_REQUESTS_PER_MINUTE, MOMENTUM_TRUSTED_PROXIES, MOMENTUM_FORWARDED_HEADER \
            (comma-separated), MOMENTUM_SIGN_IN_FREE_FAILURES_PER_ACCOUNT, \
            MOMENTUM_SIGN_IN_FREE_FAILURES_ACROSS_ADDRESSES, MOMENTUM_SIGN_IN_FREE_FAILURES_PER_ADDRESS, MOMENTUM_SIGN_IN_MAX_BACKOFF, MOMENTUM_PASSWORD_THREADS, \
            MOMENTUM_PASSWORD_QUEUE, MOMENTUM_PASSWORD_CHECKS_PER_ADDRESS, MOMENTUM_IDLE_TIMEOUT, MOMENTUM_MAX_STREAMS_PER_USER, \
            MOMENTUM_MAX_PHOTO_SIDE, MOMENTUM_MAX_PHOTO_MEGAPIXELS, MOMENTUM_RASTERIZER_TIMEOUT, \
            MOMENTUM_RASTERIZER_CONCURRENCY, MOMENTUM_SHARE_CARD_CACHE_MEGABYTES, MOMENTUM_NOTIFICATION_INTERVAL, \
            MOMENTUM_DELIVERY_INTERVAL, MOMENTUM_WEBHOOK_FAILURE_LIMIT, MOMENTUM_WEBHOOK_ALLOWED_NETWORKS, MOMENTUM_PUSH_HOSTS, MOMENTUM_VAPID_SUBJECT, \
            MOMENTUM_APNS_KEY_FILE, MOMENTUM_APNS_KEY_ID, MOMENTUM_APNS_TEAM_ID, MOMENTUM_APNS_TOPIC, MOMENTUM_APNS_URL, \
            MOMENTUM_APNS_SANDBOX_URL, MOMENTUM_DELIVERY_CA_FILE. \
            A request forwarded with X-Forwarded-Proto: https always gets a Secure cookie. \
            Flags win over the environment.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "The port to listen on (default 8080).") var port: Int?
    @Option(help: "The rule pack for new accounts: habits, ollie, savings or growth (default habits).")
    var pack: String?
    @Flag(help: "Create the demo account (\(DemoAccount.email) / \(DemoAccount.password)).") var demo = false
    @Option(help: "Origins allowed to call the API from browsers, comma-separated; * for any.")
    var corsOrigins: String?
    @Option(help: "The bearer token of the admin endpoints (off when unset).") var adminToken: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).") var logLevel: String?
    @Option(help: "bcrypt's cost for new passwords, 4 to 16 (default 12).") var bcryptCost: Int?
    @Flag(
        help: "Mark the web app's session cookie Secure (HTTPS only), as behind a TLS-terminating proxy.")
    var secureCookies = false
    @Option(help: "Requests a signed-in user may make per minute, across all instances; 0 for no limit (default 1200).")
    var userRequestsPerMinute: Int?
    @Option(
        help: "Requests one client address may make per minute, across all instances; 0 for no limit (default 2400).")
    var addressRequestsPerMinute: Int?
    @Option(
        help:
            "Invitations made, reactions and nudges a user may make per minute, each counted apart; 0 for no limit (default 30)."
    )
    var socialActionsPerMinute: Int?
    @Option(
        help: "Invitation codes a user may look up or answer per minute; 0 for no limit (default 10).")
    var invitationCodesPerMinute: Int?
    @Option(
        help:
            "Reverse proxies whose Forwarded / X-Forwarded-For headers name the client: addresses or CIDR ranges, comma-separated (default none)."
    )
    var trustedProxies: String?
    @Option(
        help: "The header trusted proxies name the client in: x-forwarded-for or forwarded (default x-forwarded-for).")
    var forwardedHeader: String?
    @Option(
        help:
            "Failed sign-ins per email from one address or signed-in device before its attempts wait 1 s, 2 s, 4 s, … (default 5)."
    )
    var signInFreeFailuresPerAccount: Int?
    @Option(
        help: """
            Failed sign-ins per email from all the addresses that never signed in to it, once from three \
            addresses or more, before attempts from such addresses wait (default 20).
            """)
    var signInFreeFailuresAcrossAddresses: Int?
    @Option(help: "Failed sign-ins per client address before each attempt waits (default 20).")
    var signInFreeFailuresPerAddress: Int?
    @Option(help: "The longest wait after failed sign-ins, in seconds (default 300).") var signInMaxBackoff: Int?
    @Option(help: "Threads that run bcrypt (default 2).") var passwordThreads: Int?
    @Option(help: "Password checks that may wait for a bcrypt thread before more get 503 (default 4).")
    var passwordQueue: Int?
    @Option(help: "Password checks one client address may have running at once; more get 429 (default 2).")
    var passwordChecksPerAddress: Int?
    @Option(
        help: "Seconds before an idle connection, or one slow to send its header, is closed; 0 for never (default 60).")
    var idleTimeout: Int?
    @Option(help: "Event streams one user may hold open on an instance; 0 for no limit (default 8).")
    var maxStreamsPerUser: Int?
    @Option(
        help:
            "Megabytes of users' engines kept in memory, least recently used first out; 0 for no bound (default 1024)."
    )
    var engineCacheMb: Int?
    @Option(help: "The most pixels on either side of an uploaded photo (default 8000).") var maxPhotoSide: Int?
    @Option(help: "The most pixels of an uploaded photo in all, in megapixels (default 40).")
    var maxPhotoMegapixels: Int?
    @Option(help: "Seconds a PNG share card may take to draw before it is a 503 (default 10).")
    var rasterizerTimeout: Int?
    @Option(help: "PNG share cards drawn at once; more wait, then get a 503 (default 2).")
    var rasterizerConcurrency: Int?
    @Option(help: "Megabytes of drawn share cards kept in memory (default 32).") var shareCardCacheMegabytes: Int?
    @Option(help: "Seconds between the notification scheduler's passes (default 15; 0: this instance runs none).")
    var notificationInterval: Int?
    @Option(help: "Seconds between the passes that send notifications to devices and webhooks (default 5; 0: none).")
    var deliveryInterval: Int?
    @Option(help: "Failures in a row that disable a webhook until it is enabled again (default 20).")
    var webhookFailureLimit: Int?
    @Option(
        help: """
            Addresses or CIDR ranges webhooks may reach although loopback, private or link-local, \
            comma-separated, such as 127.0.0.1,10.0.0.0/8 for a receiver beside the server (default none).
            """)
    var webhookAllowedNetworks: String?
    @Option(
        help: """
            Hosts whose Web Push endpoints browsers may register, comma-separated; *.example.com covers \
            subdomains (default: the push services of Chrome, Firefox, Safari and Edge).
            """)
    var pushHosts: String?
    @Option(help: "Who runs this server, for push services: mailto:you@example.com or an https: URL.")
    var vapidSubject: String?
    @Option(help: "The APNs signing key (.p8) file; with --apns-key-id, --apns-team-id and --apns-topic.")
    var apnsKeyFile: String?
    @Option(help: "The APNs key's id.") var apnsKeyId: String?
    @Option(help: "The Apple developer team id.") var apnsTeamId: String?
    @Option(help: "The iOS app's bundle id (apns-topic).") var apnsTopic: String?
    @Option(help: "Where production device tokens go (default https://api.push.apple.com).") var apnsUrl: String?
    @Option(help: "Where development builds' tokens go (default https://api.sandbox.push.apple.com).")
    var apnsSandboxUrl: String?
    @Option(help: "A PEM file of certificates to trust beside the system's, for webhooks and push services.")
    var deliveryCaFile: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServerConfiguration()
        configuration.host = host ?? environment["MOMENTUM_HOST"] ?? configuration.host
        if let value = port ?? environment["MOMENTUM_PORT"].flatMap(Int.init) {
            guard (0...65_535).contains(value) else { throw ValidationError("--port must be 0 to 65535") }
            configuration.port = value
        }
        configuration.pack = pack ?? environment["MOMENTUM_PACK"] ?? configuration.pack
        guard RulePack.named(configuration.pack) != nil else {
            throw ValidationError(
                "unknown pack '\(configuration.pack)'; bundled: \(RulePack.bundledOrder.joined(separator: ", ")), or several joined by '+'"
            )
        }
        configuration.pack = Profile.canonicalPack(configuration.pack)
        configuration.demo = demo || ["1", "true", "yes"].contains(environment["MOMENTUM_DEMO"]?.lowercased() ?? "")
        configuration.corsOrigins = (corsOrigins ?? environment["MOMENTUM_CORS_ORIGINS"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        configuration.adminToken = adminToken ?? environment["MOMENTUM_ADMIN_TOKEN"]
        configuration.secureCookies =
            secureCookies || ["1", "true", "yes"].contains(environment["MOMENTUM_SECURE_COOKIES"]?.lowercased() ?? "")
        if let text = logLevel ?? environment["MOMENTUM_LOG_LEVEL"] {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
            }
            configuration.logLevel = level
        }
        if let cost = bcryptCost ?? environment["MOMENTUM_BCRYPT_COST"].flatMap(Int.init) {
            guard (4...16).contains(cost) else { throw ValidationError("--bcrypt-cost must be 4 to 16") }
            configuration.bcryptCost = UInt8(cost)
        }

        try applyLimits(to: &configuration, environment: environment)

        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in MomentumLogHandler(label: label, level: level) }
        let logger = Logger(label: "momentum")
        let opened: any MomentumStore
        do {
            // Migrated by the application, once its service group runs the store's pool.
            opened = try await store.open(
                engineCacheCapacity: configuration.engineCacheCapacity,
                engineCacheBytes: configuration.engineCacheMegabytes * 1_048_576, lifecycle: .service, migrate: false)
        } catch {
            throw fail(error)
        }
        let state = ServerState(store: opened, configuration: configuration, relay: opened.makeRelay(), logger: logger)
        let demo = configuration.demo
        let location = store.location
        let url = "http://\(configuration.host):\(configuration.port)/"
        let app = buildApplication(state) {
            if demo {
                try await DemoAccount.install(in: opened, now: Date())
                logger.notice(
                    "demo account ready",
                    metadata: ["email": .string(DemoAccount.email), "password": .string(DemoAccount.password)])
            }
            logger.notice(
                "Momentum is listening",
                metadata: [
                    "url": .string(url),
                    "database": .string(location.hasPrefix("postgres") ? "postgresql" : location),
                ])
        }
        do {
            try await app.runService()
        } catch {
            await opened.close()
            throw fail(error)
        }
        await opened.close()
    }

    /// Reads the limits from the flags, else the environment, checking each.
    private func applyLimits(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        func number(_ flag: Int?, _ variable: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            try Self.number(flag, variable, name, range, environment: environment)
        }
        let most = 100_000_000
        if let value = try number(
            userRequestsPerMinute, "MOMENTUM_USER_REQUESTS_PER_MINUTE", "user-requests-per-minute", 0...most)
        {
            configuration.userRequestsPerMinute = value
        }
        if let value = try number(
            addressRequestsPerMinute, "MOMENTUM_ADDRESS_REQUESTS_PER_MINUTE", "address-requests-per-minute", 0...most)
        {
            configuration.addressRequestsPerMinute = value
        }
        if let value = try number(
            socialActionsPerMinute, "MOMENTUM_SOCIAL_ACTIONS_PER_MINUTE", "social-actions-per-minute", 0...most)
        {
            configuration.socialActionsPerMinute = value
        }
        if let value = try number(
            invitationCodesPerMinute, "MOMENTUM_INVITATION_CODES_PER_MINUTE", "invitation-codes-per-minute", 0...most)
        {
            configuration.invitationCodesPerMinute = value
        }
        if let text = forwardedHeader ?? environment["MOMENTUM_FORWARDED_HEADER"] {
            guard let header = ServerConfiguration.ForwardedHeader(rawValue: text.lowercased()) else {
                throw ValidationError("--forwarded-header: '\(text)' is not x-forwarded-for or forwarded")
            }
            configuration.forwardedHeader = header
        }
        if let text = trustedProxies ?? environment["MOMENTUM_TRUSTED_PROXIES"] {
            configuration.trustedProxies = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        if let value = try number(
            signInFreeFailuresPerAccount, "MOMENTUM_SIGN_IN_FREE_FAILURES_PER_ACCOUNT",
            "sign-in-free-failures-per-account", 1...1_000)
        {
            configuration.signInFreeFailuresPerAccount = value
        }
        if let value = try number(
            signInFreeFailuresAcrossAddresses, "MOMENTUM_SIGN_IN_FREE_FAILURES_ACROSS_ADDRESSES",
            "sign-in-free-failures-across-addresses", 1...100_000)
        {
            configuration.signInFreeFailuresAcrossAddresses = value
        }
        if let value = try number(
            signInFreeFailuresPerAddress, "MOMENTUM_SIGN_IN_FREE_FAILURES_PER_ADDRESS",
            "sign-in-free-failures-per-address", 1...100_000)
        {
            configuration.signInFreeFailuresPerAddress = value
        }
        if let value = try number(signInMaxBackoff, "MOMENTUM_SIGN_IN_MAX_BACKOFF", "sign-in-max-backoff", 1...86_400) {
            configuration.signInMaxBackoffSeconds = value
        }
        if let value = try number(passwordThreads, "MOMENTUM_PASSWORD_THREADS", "password-threads", 1...64) {
            configuration.passwordThreads = value
        }
        if let value = try number(passwordQueue, "MOMENTUM_PASSWORD_QUEUE", "password-queue", 0...10_000) {
            configuration.passwordQueue = value
        }
        if let value = try number(
            passwordChecksPerAddress, "MOMENTUM_PASSWORD_CHECKS_PER_ADDRESS", "password-checks-per-address", 1...10_000)
        {
            configuration.passwordChecksPerAddress = value
        }
        if let value = try number(idleTimeout, "MOMENTUM_IDLE_TIMEOUT", "idle-timeout", 0...86_400) {
            configuration.idleTimeoutSeconds = value
        }
        if let value = try number(
            maxStreamsPerUser, "MOMENTUM_MAX_STREAMS_PER_USER", "max-streams-per-user", 0...10_000)
        {
            configuration.maxStreamsPerUser = value
        }
        if let value = try number(engineCacheMb, "MOMENTUM_ENGINE_CACHE_MB", "engine-cache-mb", 0...1_048_576) {
            configuration.engineCacheMegabytes = value
        }
        if let value = try number(maxPhotoSide, "MOMENTUM_MAX_PHOTO_SIDE", "max-photo-side", 64...30_000) {
            configuration.maxPhotoSide = value
        }
        if let value = try number(
            maxPhotoMegapixels, "MOMENTUM_MAX_PHOTO_MEGAPIXELS", "max-photo-megapixels", 1...400)
        {
            configuration.maxPhotoPixels = value * 1_000_000
        }
        if let value = try number(rasterizerTimeout, "MOMENTUM_RASTERIZER_TIMEOUT", "rasterizer-timeout", 1...600) {
            configuration.rasterizerTimeout = .seconds(value)
        }
        if let value = try number(
            rasterizerConcurrency, "MOMENTUM_RASTERIZER_CONCURRENCY", "rasterizer-concurrency", 1...64)
        {
            configuration.rasterizerConcurrency = value
        }
        if let value = try number(
            shareCardCacheMegabytes, "MOMENTUM_SHARE_CARD_CACHE_MEGABYTES", "share-card-cache-megabytes", 0...4_096)
        {
            configuration.shareCardCacheBytes = value << 20
        }
        if let value = try number(
            notificationInterval, "MOMENTUM_NOTIFICATION_INTERVAL", "notification-interval", 0...86_400)
        {
            configuration.notificationInterval = .seconds(value)
        }
        try applyDelivery(to: &configuration, environment: environment)
        do {
            try configuration.check()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// A whole number from a flag, else the environment, checked against its range.
    private static func number(
        _ flag: Int?, _ variable: String, _ name: String, _ range: ClosedRange<Int>, environment: [String: String]
    ) throws -> Int? {
        guard let value = flag ?? environment[variable].flatMap({ Int($0) }) else {
            if let text = environment[variable], !text.isEmpty {
                throw ValidationError("\(variable) must be a whole number, not '\(text)'")
            }
            return nil
        }
        guard range.contains(value) else {
            throw ValidationError("--\(name) must be \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Reads where notifications go beyond the inbox: webhooks, Web Push, APNs.
    private func applyDelivery(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        func number(_ flag: Int?, _ variable: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            try Self.number(flag, variable, name, range, environment: environment)
        }
        if let value = try number(deliveryInterval, "MOMENTUM_DELIVERY_INTERVAL", "delivery-interval", 0...86_400) {
            configuration.deliveryInterval = .seconds(value)
        }
        if let value = try number(
            webhookFailureLimit, "MOMENTUM_WEBHOOK_FAILURE_LIMIT", "webhook-failure-limit", 1...10_000)
        {
            configuration.webhookFailureLimit = value
        }
        if let text = webhookAllowedNetworks ?? environment["MOMENTUM_WEBHOOK_ALLOWED_NETWORKS"] {
            configuration.webhookAllowedNetworks = text.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
        if let text = pushHosts ?? environment["MOMENTUM_PUSH_HOSTS"] {
            configuration.pushHosts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        configuration.vapidSubject = vapidSubject ?? environment["MOMENTUM_VAPID_SUBJECT"] ?? configuration.vapidSubject
        func file(_ path: String, _ flag: String) throws -> String {
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw ValidationError("--\(flag): cannot read '\(path)': \(error.localizedDescription)")
            }
        }
        if let path = deliveryCaFile ?? environment["MOMENTUM_DELIVERY_CA_FILE"] {
            configuration.deliveryTrustRootsPEM = try file(path, "delivery-ca-file")
        }
        let keyFile = apnsKeyFile ?? environment["MOMENTUM_APNS_KEY_FILE"]
        let keyID = apnsKeyId ?? environment["MOMENTUM_APNS_KEY_ID"]
        let teamID = apnsTeamId ?? environment["MOMENTUM_APNS_TEAM_ID"]
        let topic = apnsTopic ?? environment["MOMENTUM_APNS_TOPIC"]
        let named = [keyFile, keyID, teamID, topic].compactMap { $0 }
        guard !named.isEmpty else { return }
        guard let keyFile, let keyID, let teamID, let topic else {
            throw ValidationError("APNs needs all of --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic")
        }
        var apns = APNsConfiguration(
            keyPEM: try file(keyFile, "apns-key-file"), keyID: keyID, teamID: teamID, topic: topic)
        if let url = apnsUrl ?? environment["MOMENTUM_APNS_URL"] { apns.productionURL = url }
        if let url = apnsSandboxUrl ?? environment["MOMENTUM_APNS_SANDBOX_URL"] { apns.sandboxURL = url }
        configuration.apns = apns
    }
}
