import Foundation
import MomentumAPI
import MomentumCore

/// How the rules of the server stand to the device's own: the engine's version and those of
/// the packs the account uses (`RuleVersions`), compared after each sync.
///
/// The device computes its dashboard with its own engine and packs. That is the server's
/// dashboard, byte for byte, while both run the same rules; when the server has been
/// upgraded and the app not yet, the device would compute another streak. So the server
/// says which rules computed its states, and the client compares them with its own:
///
/// - ``current(_:)``: the same versions; the device computes, as the server does.
/// - ``serverNewer(server:client:)``: the server's engine, or one of the account's packs, is
///   newer (whatever else is older). ``MomentumClient/today(at:)`` shows the server's
///   dashboard of the last sync rather than computing another (``TodayDashboard``).
/// - ``serverOlder(server:client:)``: the device is newer (the app was updated first); it
///   computes with its own rules, which the server will run once upgraded.
/// - ``unknown(client:)``: no sync yet, or a server older than versions (it sends none);
///   the device computes.
public enum Compatibility: Hashable, Sendable {
    /// No versions from the server yet: before the first sync, or a server that sends none.
    case unknown(client: RuleVersions)
    /// The server runs the device's rules.
    case current(RuleVersions)
    /// The server's rules are newer than the device's: its states are the ones to show.
    case serverNewer(server: RuleVersions, client: RuleVersions)
    /// The device's rules are newer than the server's.
    case serverOlder(server: RuleVersions, client: RuleVersions)

    /// The versions of the device's rules (this build's engine, the account's packs).
    public var client: RuleVersions {
        switch self {
        case .unknown(let client), .current(let client), .serverNewer(_, let client), .serverOlder(_, let client):
            client
        }
    }

    /// The versions the server last sent; `nil` while ``unknown(client:)``.
    public var server: RuleVersions? {
        switch self {
        case .unknown: nil
        case .current(let versions): versions
        case .serverNewer(let server, _), .serverOlder(let server, _): server
        }
    }

    /// Whether the device shows the server's states rather than its own computation.
    public var showsServerState: Bool {
        if case .serverNewer = self { return true }
        return false
    }

    /// How `server`'s versions stand to `client`'s.
    init(server: RuleVersions?, client: RuleVersions) {
        guard let server else {
            self = .unknown(client: client)
            return
        }
        switch server.comparison(to: client) {
        case .same: self = .current(client)
        case .newer: self = .serverNewer(server: server, client: client)
        case .older: self = .serverOlder(server: server, client: client)
        }
    }
}

/// Today's dashboard as the device shows it, with who computed it.
public struct TodayDashboard: Hashable, Sendable {
    /// Who computed a dashboard.
    public enum Source: Hashable, Sendable {
        /// The device, from its log and outbox, at the instant asked for.
        case device
        /// The server, whose rules are newer: its `GET /v1/today` answer, fetched during the
        /// sync at `fetchedAt`. It describes that instant (`report.now`) and does not hold
        /// what the device recorded since; the next sync brings a new one.
        case server(fetchedAt: Date)
    }

    /// The dashboard; its `versions` are those of the rules that computed it.
    public var report: TodayReport
    /// Who computed it.
    public var source: Source
    /// How the server's rules stood to the device's at the last sync.
    public var compatibility: Compatibility
}

extension MomentumClient {
    /// How the server's rules stand to this device's, as of the last sync.
    ///
    /// ``Compatibility/unknown(client:)`` before the first sync (and with a server that sends
    /// no versions), or when no account is signed in.
    ///
    /// - Throws: When the device's database cannot be read.
    public var compatibility: Compatibility {
        get throws {
            guard try database.account() != nil else { return .unknown(client: RuleVersions(packs: [])) }
            return try compatibility(of: try profile())
        }
    }

    /// Today's dashboard and who computed it: the device, or, while the server's rules are
    /// newer than the device's (``Compatibility/serverNewer(server:client:)``), the server's
    /// `GET /v1/today` answer of the last sync.
    ///
    /// The device computes when the server's rules are the same or older, when it has not
    /// synced yet, and when it holds no readable answer of the server (the fetch during the
    /// sync failed): the ``TodayDashboard/compatibility`` says so all the same.
    ///
    /// - Parameter now: The instant the device computes at; by default the clock's. The
    ///   server's answer is of the instant it was fetched.
    /// - Throws: ``ClientError/notSignedIn``.
    public func todayDashboard(at now: Date? = nil) throws -> TodayDashboard {
        let profile = try profile()
        let compatibility = try compatibility(of: profile)
        if compatibility.showsServerState {
            let kept = try database.serverRules()
            if let json = kept.todayJSON, let fetchedAt = kept.todayFetchedAt,
                let report = try? MomentumJSON.decoder().decode(TodayReport.self, from: Data(json.utf8))
            {
                return TodayDashboard(
                    report: report, source: .server(fetchedAt: fetchedAt), compatibility: compatibility)
            }
        }
        return TodayDashboard(
            report: try computedToday(at: now, profile: profile), source: .device, compatibility: compatibility)
    }

    /// Today's dashboard as this device's rules compute it from the log and the outbox.
    func computedToday(at now: Date?, profile: Components.Schemas.Profile) throws -> TodayReport {
        var user = try localEngine()
        let report = TodayReport.evaluate(&user, now: now ?? clock(), profileZone: profile.timeZone)
        engine = user
        return report
    }

    /// The versions of this device's rules for the account's packs.
    static func clientVersions(of profile: Components.Schemas.Profile) -> RuleVersions {
        RuleVersions(packs: RulePack.canonicalNames(profile.pack) ?? [profile.pack])
    }

    private func compatibility(of profile: Components.Schemas.Profile) throws -> Compatibility {
        let kept = try database.serverRules()
        let server = kept.versionsJSON.flatMap {
            try? MomentumJSON.decoder().decode(RuleVersions.self, from: Data($0.utf8))
        }
        return Compatibility(server: server, client: Self.clientVersions(of: profile))
    }

    /// Keeps the versions a sync's pull answered with and, while they are newer than this
    /// device's rules, the server's dashboard (one more request, `GET /v1/today`, only then).
    ///
    /// - Parameter sent: The versions of the last page pulled; `nil` from a server older
    ///   than versions.
    /// - Throws: ``ClientError/offline`` and the like when the dashboard could not be
    ///   fetched; what the device kept before stays.
    func keepServerRules(_ sent: Components.Schemas.RuleVersions?) async throws {
        let versions = sent.map { RuleVersions(engine: $0.engine, packs: $0.packs.additionalProperties) }
        var rules = ClientDatabase.ServerRules(versionsJSON: try versions.map(Self.encode))
        if let versions, versions.comparison(to: Self.clientVersions(of: try profile())) == .newer {
            let today = try await perform("today's dashboard", rules: [.unauthorizedEndsSession, .serverErrorsAreBusy])
            {
                try await api.getToday()
            } success: {
                try $0.ok.body.json
            }
            rules.todayJSON = try Self.encode(today)
            rules.todayFetchedAt = clock()
        }
        try database.saveServerRules(rules)
    }
}
