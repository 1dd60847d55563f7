import Foundation
import Logging
import MomentumCore
import MomentumServer
import MomentumServices
import MomentumStore

/// What `momentum serve` is told, before the files it names are read: the server's
/// configuration, the database, and the APNs settings that make one `APNsConfiguration`.
struct ServeSettings: Sendable {
    var server = ServerConfiguration()
    var database = "momentum.sqlite"
    var databaseTopology = DatabaseTopologySettings()
    var config: String?
    var logLevel = "info"
    var forwardedHeader = ServerConfiguration.ForwardedHeader.xForwardedFor.rawValue
    var deliveryCaFile: String?
    var apnsKeyFile: String?
    var apnsKeyId: String?
    var apnsTeamId: String?
    var apnsTopic: String?
    var apnsUrl = APNsConfiguration(keyPEM: "", keyID: "", teamID: "", topic: "").productionURL
    var apnsSandboxUrl = APNsConfiguration(keyPEM: "", keyID: "", teamID: "", topic: "").sandboxURL
    var fcmServiceAccountFile: String?
    var fcmUrl = FCMConfiguration(projectID: "", clientEmail: "", privateKeyPEM: "", privateKeyID: "").url

    /// Every setting of `momentum serve`, in the order `--help` and docs/configuration.md list
    /// them. Each is defined here once; its flag, environment variable and file key derive
    /// from its key.
    static let table: [Setting] =
        listening + limits + delivery + androidPush + webOrigins + identityProviderSettings + mail + serverKeys
        + console + packs + databaseTopologySettings + observability

    /// Where the server listens, its database, accounts and logging.
    private static let listening: [Setting] = [
        Setting(
            key: "config", kind: .text,
            help:
                "A JSON file of settings, keyed by the file keys of this table (flags and the environment win over it).",
            inFile: false, read: { $0.config.map(Setting.Value.text) },
            write: { settings, value in if case .text(let path) = value { settings.config = path } }),
        .text(
            "database", \.database,
            help:
                "A SQLite file, or a postgres://user@host:port/database URL (also read by migrate, export and import)."),
        .text("host", \.server.host, help: "The address to listen on."),
        .integer("port", 0...65_535, \.server.port, help: "The port to listen on (0 picks a free one)."),
        .text(
            "pack", \.server.pack,
            help: "The rule pack for new accounts: habits, ollie, savings or growth, or several joined by '+'.",
            check: { pack in
                RulePack.named(pack) == nil
                    ? "unknown pack '\(pack)'; bundled: \(RulePack.bundledOrder.joined(separator: ", ")), or several joined by '+'"
                    : nil
            }),
        .toggle(
            "demo", \.server.demo, help: "Create the demo account (\(DemoAccount.email) / \(DemoAccount.password))."),
        .list(
            "corsOrigins", \.server.corsOrigins,
            help: "Origins whose pages may call the whole API from browsers (with a bearer token); * for any."),
        .optionalText(
            "adminToken", \.server.adminToken, help: "The bearer token of the admin endpoints (off when unset).",
            secret: true),
        Setting(
            key: "logLevel", kind: .choice(Logger.Level.allCases.map(\.rawValue)), help: "How much the server logs.",
            read: { .text($0.logLevel) },
            write: { settings, value in if case .text(let level) = value { settings.logLevel = level } }),
        .integer(
            "bcryptCost", 4...16, help: "bcrypt's cost for new passwords (each step doubles the work).",
            get: { Int($0.server.bcryptCost) }, set: { $0.server.bcryptCost = UInt8(clamping: $1) }),
        .toggle(
            "secureCookies", \.server.secureCookies,
            help:
                "Mark the web app's session cookie Secure (HTTPS only), as behind a TLS-terminating proxy; a request forwarded with X-Forwarded-Proto: https always gets one."
        ),
    ]

    /// Rate limits, sign-in throttling, and the bounds of memory and work.
    private static let limits: [Setting] = [
        .integer(
            "userRequestsPerMinute", 0...100_000_000, \.server.userRequestsPerMinute,
            help: "Requests a signed-in user may make per minute, across all instances; 0 for no limit."),
        .integer(
            "addressRequestsPerMinute", 0...100_000_000, \.server.addressRequestsPerMinute,
            help: "Requests one client address may make per minute, across all instances; 0 for no limit."),
        .integer(
            "socialActionsPerMinute", 0...100_000_000, \.server.socialActionsPerMinute,
            help:
                "Invitations made, reactions and nudges a user may make per minute, each counted apart; 0 for no limit."
        ),
        .integer(
            "invitationCodesPerMinute", 0...100_000_000, \.server.invitationCodesPerMinute,
            help: "Invitation codes a user may look up or answer per minute; 0 for no limit."),
        .list(
            "trustedProxies", \.server.trustedProxies,
            help: "Reverse proxies whose Forwarded / X-Forwarded-For headers name the client: addresses or CIDR ranges."
        ),
        Setting(
            key: "forwardedHeader", kind: .choice(ServerConfiguration.ForwardedHeader.allCases.map(\.rawValue)),
            help: "The header trusted proxies name the client in.", read: { .text($0.forwardedHeader) },
            write: { settings, value in if case .text(let header) = value { settings.forwardedHeader = header } }),
        .integer(
            "signInFreeFailuresPerAccount", 1...1_000, \.server.signInFreeFailuresPerAccount,
            help:
                "Failed sign-ins per email from one address or signed-in device before its attempts wait 1 s, 2 s, 4 s, …"
        ),
        .integer(
            "signInFreeFailuresAcrossAddresses", 1...100_000, \.server.signInFreeFailuresAcrossAddresses,
            help:
                "Failed sign-ins per email from all the addresses that never signed in to it, once from three addresses or more, before attempts from such addresses wait."
        ),
        .integer(
            "signInFreeFailuresPerAddress", 1...100_000, \.server.signInFreeFailuresPerAddress,
            help: "Failed sign-ins per client address before each attempt waits."),
        .integer(
            "signInMaxBackoff", 1...86_400, \.server.signInMaxBackoffSeconds,
            help: "The longest wait after failed sign-ins, in seconds."),
        .integer("passwordThreads", 1...64, \.server.passwordThreads, help: "Threads that run bcrypt."),
        .integer(
            "passwordQueue", 0...10_000, \.server.passwordQueue,
            help: "Password checks that may wait for a bcrypt thread before more get 503."),
        .integer(
            "passwordChecksPerAddress", 1...10_000, \.server.passwordChecksPerAddress,
            help: "Password checks one client address may have running at once; more get 429."),
        .integer(
            "idleTimeout", 0...86_400, \.server.idleTimeoutSeconds,
            help: "Seconds before an idle connection, or one slow to send its header, is closed; 0 for never."),
        .integer(
            "maxStreamsPerUser", 0...10_000, \.server.maxStreamsPerUser,
            help: "Event streams one user may hold open on an instance; 0 for no limit."),
        .integer(
            "engineCacheMb", 0...1_048_576, \.server.engineCacheMegabytes,
            help: "Megabytes of users' engines kept in memory, least recently used first out; 0 for no bound."),
        .integer(
            "maxPhotoSide", 64...30_000, \.server.maxPhotoSide,
            help: "The most pixels on either side of an uploaded photo."),
        .integer(
            "maxPhotoMegapixels", 1...400, help: "The most pixels of an uploaded photo in all, in megapixels.",
            get: { $0.server.maxPhotoPixels / 1_000_000 }, set: { $0.server.maxPhotoPixels = $1 * 1_000_000 }),
        .seconds(
            "rasterizerTimeout", 1...600, \.server.rasterizerTimeout,
            help: "Seconds a PNG share card may take to draw before it is a 503."),
        .integer(
            "rasterizerConcurrency", 1...64, \.server.rasterizerConcurrency,
            help: "PNG share cards drawn at once; more wait, then get a 503."),
        .integer(
            "shareCardCacheMegabytes", 0...4_096, help: "Megabytes of drawn share cards kept in memory.",
            get: { $0.server.shareCardCacheBytes >> 20 }, set: { $0.server.shareCardCacheBytes = $1 << 20 }),
    ]

    /// Notifications: the scheduler, webhooks, Web Push and APNs.
    private static let delivery: [Setting] = [
        .seconds(
            "notificationInterval", 0...86_400, \.server.notificationInterval,
            help: "Seconds between the notification scheduler's passes; 0: this instance runs none."),
        .seconds(
            "deliveryInterval", 0...86_400, \.server.deliveryInterval,
            help: "Seconds between the passes that send notifications to devices and webhooks; 0: none."),
        .integer(
            "webhookFailureLimit", 1...10_000, \.server.webhookFailureLimit,
            help: "Failures in a row that disable a webhook until it is enabled again."),
        .list(
            "webhookAllowedNetworks", \.server.webhookAllowedNetworks,
            help:
                "Addresses or CIDR ranges webhooks may reach although loopback, private or link-local, such as 127.0.0.1,10.0.0.0/8 for a receiver beside the server."
        ),
        .list(
            "pushHosts", \.server.pushHosts,
            help:
                "Hosts whose Web Push endpoints browsers may register; *.example.com covers subdomains (the default: the push services of Chrome, Firefox, Safari and Edge)."
        ),
        .text(
            "vapidSubject", \.server.vapidSubject,
            help: "Who runs this server, for push services: mailto:you@example.com or an https: URL."),
        .optionalText(
            "apnsKeyFile", \.apnsKeyFile,
            help: "The APNs signing key (.p8) file; with apnsKeyId, apnsTeamId and apnsTopic."),
        .optionalText("apnsKeyId", \.apnsKeyId, help: "The APNs key's id."),
        .optionalText("apnsTeamId", \.apnsTeamId, help: "The Apple developer team id."),
        .optionalText("apnsTopic", \.apnsTopic, help: "The iOS app's bundle id (apns-topic)."),
        .text("apnsUrl", \.apnsUrl, help: "Where production device tokens go."),
        .text("apnsSandboxUrl", \.apnsSandboxUrl, help: "Where development builds' tokens go."),
        .optionalText(
            "deliveryCaFile", \.deliveryCaFile,
            help: "A PEM file of certificates to trust beside the system's, for webhooks and push services."),
    ]

    /// The server's configuration: the named files read, the choices made into their types,
    /// the APNs settings made one, and `ServerConfiguration.check()` passed.
    func serverConfiguration() throws(SettingsError) -> ServerConfiguration {
        var server = server
        server.pack = Profile.canonicalPack(server.pack)
        server.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        server.forwardedHeader = ServerConfiguration.ForwardedHeader(rawValue: forwardedHeader) ?? .xForwardedFor
        func file(_ path: String, _ key: String) throws(SettingsError) -> String {
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw SettingsError("\(key): cannot read '\(path)': \(error.localizedDescription)")
            }
        }
        if let path = deliveryCaFile { server.deliveryTrustRootsPEM = try file(path, "deliveryCaFile") }
        let named = [apnsKeyFile, apnsKeyId, apnsTeamId, apnsTopic].compactMap { $0 }
        if !named.isEmpty {
            guard let apnsKeyFile, let apnsKeyId, let apnsTeamId, let apnsTopic else {
                throw SettingsError(
                    "APNs needs all of --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic (MOMENTUM_APNS_KEY_FILE, …)"
                )
            }
            server.apns = APNsConfiguration(
                keyPEM: try file(apnsKeyFile, "apnsKeyFile"), keyID: apnsKeyId, teamID: apnsTeamId, topic: apnsTopic,
                productionURL: apnsUrl, sandboxURL: apnsSandboxUrl)
        }
        server.fcm = try fcmConfiguration()
        do { try server.check() } catch { throw SettingsError("\(error)") }
        return server
    }
}
