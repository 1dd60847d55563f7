import Foundation
import MomentumServer
import MomentumServices
import NIOCore
import Testing

/// Connections and headers on a live server (issue 23, defect 6 and "behind a proxy").
@Suite(.serialized) struct ConnectionHardeningTests {
    @Test func aRequestWithConnectionCloseGetsTheHeaderBackAndTheConnectionEnds() async throws {
        try await LiveServer.with { _ in
        } _: { port in
            for spelling in ["close", "Close", "keep-alive, CLOSE"] {
                // Two requests pipelined on one connection: the first asks to close, so the
                // second is never answered and the connection ends (exchange returns).
                let request =
                    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: \(spelling)\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                let answer = try await RawHTTP.exchange(port: port, request, timeout: .seconds(5))
                #expect(answer.status == 200, "\(answer.raw)")
                #expect(answer.headerLines.contains("connection: close"), "\(spelling): \(answer.headerLines)")
                #expect(answer.raw.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer.raw)")
            }
            // Without it, no Connection header is added.
            let channel = try await RawHTTP.connect(port: port)
            let head = try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
                var received = ""
                for try await chunk in inbound {
                    received += String(buffer: chunk)
                    if received.contains("\r\n\r\n") { break }
                }
                return received.lowercased()
            }
            #expect(!head.contains("connection: close"), "\(head)")
        }
    }

    @Test func anIdleConnectionAndASlowHeaderAreClosedAfterTheIdleTimeout() async throws {
        try await LiveServer.with { configuration in
            configuration.idleTimeoutSeconds = 1
        } _: { port in
            // Idle after connecting: closed after about a second.
            var started = ContinuousClock.now
            let idle = try await RawHTTP.exchange(port: port, "", timeout: .seconds(5))
            #expect(idle.raw.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(3))

            // A header that never ends (slowloris): closed as well.
            started = ContinuousClock.now
            let channel = try await RawHTTP.connect(port: port)
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
                for _ in 0..<4 {
                    try await Task.sleep(for: .milliseconds(400))
                    try? await outbound.write(ByteBuffer(string: "X-Slow: 1\r\n"))
                }
                for try await _ in inbound {}
            }
            #expect(ContinuousClock.now - started < .seconds(4))

            // Idle after an answer on a kept-alive connection: closed too.
            started = ContinuousClock.now
            let kept = try await RawHTTP.exchange(
                port: port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout: .seconds(5))
            #expect(kept.status == 200)
            #expect(ContinuousClock.now - started < .seconds(3))
        }
    }

    @Test func theBearerSchemeIsAcceptedInAnyCase() async throws {
        try await LiveServer.with { configuration in
            configuration.adminToken = "admin-secret"
        } _: { port in
            try await LiveServer.register(port: port, "ada")
            let session = try await LiveServer.signIn(port: port, "ada")
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any])?["token"] as? String
            )
            // The admin token creates the first owner, who signs in: the admin routes take
            // the owner's token.
            let operatorJSON = #"{"email": "owner@example.com", "name": "Owner", "password": "owner-password-1"}"#
            let owner = try await RawHTTP.send(
                port: port, "POST", "/v1/admin/operators", headers: ["Authorization": "Bearer admin-secret"],
                json: operatorJSON)
            #expect(owner.status == 201, "\(owner.raw)")
            let signedIn = try await RawHTTP.send(
                port: port, "POST", "/v1/admin/sessions",
                json: #"{"email": "owner@example.com", "password": "owner-password-1"}"#)
            let operatorToken = try #require(
                (try JSONSerialization.jsonObject(with: Data(signedIn.body.utf8)) as? [String: Any])?["token"]
                    as? String)
            for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
                let profile = try await RawHTTP.send(
                    port: port, "GET", "/v1/profile", headers: ["Authorization": "\(scheme) \(token)"])
                #expect(profile.status == 200, "\(scheme): \(profile.raw)")
                let flags = try await RawHTTP.send(
                    port: port, "GET", "/v1/admin/review-flags",
                    headers: ["Authorization": "\(scheme) \(operatorToken)"])
                #expect(flags.status == 200, "\(scheme): \(flags.raw)")
            }
            let wrong = try await RawHTTP.send(
                port: port, "GET", "/v1/admin/review-flags", headers: ["Authorization": "bearer \(operatorToken)X"])
            #expect(wrong.status == 401)
            let basic = try await RawHTTP.send(
                port: port, "GET", "/v1/admin/review-flags", headers: ["Authorization": "Basic \(operatorToken)"])
            #expect(basic.status == 401)
        }
    }

    @Test func aUserMayHoldAtMostTheConfiguredNumberOfEventStreams() async throws {
        try await LiveServer.with { configuration in
            configuration.maxStreamsPerUser = 3
        } _: { port in
            try await LiveServer.register(port: port, "ada")
            let session = try await LiveServer.signIn(port: port, "ada")
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any])?["token"] as? String
            )
            var streams: [EventStreamReader] = []
            for _ in 0..<3 {
                let stream = try await EventStreamReader.open(port: port, token: token)
                try await stream.waitFor("event: ready")
                streams.append(stream)
            }
            let fourth = try await RawHTTP.send(
                port: port, "GET", "/v1/stream", headers: ["Authorization": "Bearer \(token)"])
            #expect(fourth.status == 429, "\(fourth.raw)")
            #expect(fourth.body.contains(#""code":"too_many_streams""#), "\(fourth.body)")

            for stream in streams { await stream.close() }
        }
    }

    @Test func aClosedEventStreamFreesItsPlaceAtOnce() async throws {
        try await LiveServer.with { configuration in
            configuration.maxStreamsPerUser = 8
        } _: { port in
            try await LiveServer.register(port: port, "ada")
            let session = try await LiveServer.signIn(port: port, "ada")
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: Any])?["token"] as? String
            )
            var streams: [EventStreamReader] = []
            for _ in 0..<8 {
                let stream = try await EventStreamReader.open(port: port, token: token)
                try await stream.waitFor("event: ready")
                streams.append(stream)
            }
            // The client closes one stream's connection; a new stream is let in at once
            // (it was refused until a keep-alive write failed, 15 to 30 s later).
            await streams.removeFirst().close()
            let closed = ContinuousClock.now
            var ninth: EventStreamReader?
            var refusals: [String] = []
            while ninth == nil, ContinuousClock.now - closed < .seconds(2) {
                let stream = try await EventStreamReader.open(port: port, token: token)
                let answer = try await stream.waitFor("HTTP/1.1 ")
                if answer.hasPrefix("HTTP/1.1 200") {
                    try await stream.waitFor("event: ready")
                    ninth = stream
                } else {
                    refusals.append(String(answer.prefix(12)))
                    await stream.close()
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            let opened = try #require(ninth, "no new stream within 2 s of closing one: \(refusals)")
            streams.append(opened)

            // Eight are open again: one more is refused.
            let tenth = try await RawHTTP.send(
                port: port, "GET", "/v1/stream", headers: ["Authorization": "Bearer \(token)"])
            #expect(tenth.status == 429, "\(tenth.raw)")
            #expect(tenth.body.contains(#""code":"too_many_streams""#), "\(tenth.body)")

            for stream in streams { await stream.close() }
        }
    }
}
