import Foundation
import Testing

@testable import MomentumServer
@testable import MomentumServices

/// CORS per origin (``CORSPolicy``): origins that call the whole API, origins that only
/// read the change stream (with a ticket), origins that may send credentials, and the
/// headers answers expose; `*` never echoed together with credentials.
@Suite(.serialized) struct CrossOriginTests {
    static func policy(
        api: [String] = [], stream: [String] = [], credentials: [String] = [], exposed: [String] = []
    ) -> CORSPolicy {
        var configuration = ServerConfiguration()
        configuration.corsOrigins = api
        configuration.corsStreamOrigins = stream
        configuration.corsCredentialOrigins = credentials
        configuration.corsExposedHeaders = exposed
        return CORSPolicy(configuration)
    }

    @Test func eachOriginGetsWhatItsListsGrantAndNoMore() {
        let policy = Self.policy(
            api: ["https://app.example"], stream: ["https://widget.example"], credentials: ["https://app.example"])
        // The API origin, with credentials: echoed, everywhere.
        #expect(
            policy.grant(origin: "https://app.example", path: "/v1/today")
                == .init(allowOrigin: "https://app.example", credentials: true, streamOnly: false))
        // The stream origin: the stream only, without credentials.
        #expect(
            policy.grant(origin: "https://widget.example", path: "/v1/stream")
                == .init(allowOrigin: "https://widget.example", credentials: false, streamOnly: true))
        #expect(policy.grant(origin: "https://widget.example", path: "/v1/today") == nil)
        #expect(policy.grant(origin: "https://widget.example", path: "/v1/stream-tickets") == nil)
        // Anyone else: nothing, not even the stream; a near miss is anyone else.
        #expect(policy.grant(origin: "https://evil.example", path: "/v1/stream") == nil)
        #expect(policy.grant(origin: "https://app.example.evil.example", path: "/v1/today") == nil)
        #expect(policy.grant(origin: "null", path: "/v1/stream") == nil)
    }

    @Test func anyOriginIsAnsweredWithStarAndNeverWithCredentials() {
        let policy = Self.policy(api: ["*"], stream: ["*"], credentials: ["https://app.example"])
        for origin in ["https://evil.example", "null", "http://localhost:1234"] {
            #expect(
                policy.grant(origin: origin, path: "/v1/today")
                    == .init(allowOrigin: "*", credentials: false, streamOnly: false))
        }
        // Only an origin named in the credential list is echoed, with credentials.
        #expect(policy.grant(origin: "https://app.example", path: "/v1/today")?.credentials == true)
        let streamOnly = Self.policy(stream: ["*"])
        #expect(
            streamOnly.grant(origin: "https://evil.example", path: "/v1/stream")
                == .init(allowOrigin: "*", credentials: false, streamOnly: true))
        #expect(streamOnly.grant(origin: "https://evil.example", path: "/v1/today") == nil)
    }

    @Test func settingsThatWouldLeakOrNeverMatchAreRefusedAtStart() throws {
        func problem(_ change: (inout ServerConfiguration) -> Void) -> String? {
            var configuration = ServerConfiguration()
            change(&configuration)
            do {
                try configuration.check()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(
            problem {
                $0.corsOrigins = ["*"]; $0.corsStreamOrigins = ["https://a.example:8443"]
            } == nil)
        #expect(
            problem {
                $0.corsOrigins = ["*"]; $0.corsCredentialOrigins = ["*"]
            }?.contains("corsCredentialOrigins")
                == true)
        #expect(
            problem { $0.corsCredentialOrigins = ["https://a.example"] }?.contains("neither corsOrigins") == true)
        for bad in ["https://a.example/", "https://A.example", "a.example", "https://a.example/path", "null"] {
            #expect(problem { $0.corsStreamOrigins = [bad] }?.contains("corsStreamOrigins") == true, "\(bad)")
        }
        #expect(problem { $0.corsExposedHeaders = ["X-Good", "bad header"] }?.contains("bad header") == true)
    }

    @Test(.timeLimit(.minutes(2)))
    func theStreamAndItsRefusalsCarryTheHeadersOfTheOriginsAllowedToReadThem() async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = { configuration in
            configuration.corsOrigins = ["https://app.example"]
            configuration.corsStreamOrigins = ["https://widget.example"]
            configuration.corsCredentialOrigins = ["https://app.example"]
            configuration.corsExposedHeaders = ["X-Extra"]
        }
        try await TicketServer.with(.sqlite, configure: configure) { server in
            let ada = try await server.register("ada")
            let ticket = try await server.ticket(ada)
            let stream = try await TicketStream.open(
                port: server.port, path: "/v1/stream?ticket=\(ticket.ticket)",
                headers: ["Origin": "https://widget.example"])
            try await stream.waitFor("event: ready")
            await stream.close()
            let head = stream.received.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(head.contains("access-control-allow-origin: https://widget.example"), "\(head)")
            #expect(head.contains("vary: origin"), "\(head)")
            #expect(head.contains("access-control-expose-headers: x-request-id"), "\(head)")
            #expect(head.contains("x-extra"), "\(head)")
            #expect(!head.contains("access-control-allow-credentials"), "\(head)")

            // The page can read why it was refused.
            let used = try await RawHTTP.send(
                port: server.port, "GET", "/v1/stream?ticket=\(ticket.ticket)",
                headers: ["Origin": "https://widget.example"])
            #expect(used.status == 401)
            #expect(used.headerLines.contains("access-control-allow-origin: https://widget.example"), "\(used.raw)")

            // A stream origin reads nothing else; an unknown origin nothing at all.
            let today = try await RawHTTP.send(
                port: server.port, "GET", "/v1/today",
                headers: ["Origin": "https://widget.example", "Authorization": "Bearer \(ada.token)"])
            #expect(today.status == 200)
            #expect(!today.raw.lowercased().contains("access-control-allow-origin"), "\(today.raw)")
            let other = try await server.ticket(ada)
            let evil = try await TicketStream.open(
                port: server.port, path: "/v1/stream?ticket=\(other.ticket)",
                headers: ["Origin": "https://evil.example"])
            try await evil.waitFor("event: ready")
            await evil.close()
            #expect(!evil.received.lowercased().contains("access-control-allow-origin"), "\(evil.received)")

            // The API origin: a preflight for a ticket, with credentials echoed for it alone.
            let preflight = try await RawHTTP.send(
                port: server.port, "OPTIONS", "/v1/stream-tickets",
                headers: [
                    "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "authorization",
                ])
            #expect(preflight.status == 204, "\(preflight.raw)")
            #expect(preflight.headerLines.contains("access-control-allow-origin: https://app.example"))
            #expect(preflight.headerLines.contains("access-control-allow-credentials: true"))
            #expect(
                preflight.headerLines.contains {
                    $0.hasPrefix("access-control-allow-headers:") && $0.contains("authorization")
                })
            let widgetPreflight = try await RawHTTP.send(
                port: server.port, "OPTIONS", "/v1/stream-tickets",
                headers: ["Origin": "https://widget.example", "Access-Control-Request-Method": "POST"])
            #expect(!widgetPreflight.raw.lowercased().contains("access-control-allow-origin"), "\(widgetPreflight.raw)")
        }
    }
}
