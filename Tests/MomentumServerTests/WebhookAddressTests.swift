import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@_spi(Testing) @testable import MomentumServer
@_spi(Testing) @testable import MomentumServices
@testable import MomentumWeb

/// Webhooks are not a way into the server's own networks (issue 45, item 11): before, a
/// webhook to 127.0.0.1, localhost, 169.254.169.254, 10.x, 192.168.x, [::1] or 0.0.0.0 was
/// accepted and posted to, and the admin's list of webhooks showed the first 500 bytes of
/// the answer.
@Suite(.serialized) struct WebhookAddressTests {
    static let admin: HTTPFields = [.authorization: "Bearer mop_harness-owner"]

    /// Names the test resolves itself; any other goes to the system's resolver.
    final class Names: Sendable {
        let addresses = Mutex<[String: [String]]>([:])

        func set(_ name: String, _ addresses: [String]) { self.addresses.withLock { $0[name] = addresses } }

        var resolver: @Sendable (String) async throws -> [String] {
            { host in
                if let known = self.addresses.withLock({ $0[host] }) { return known }
                return try await WebhookAddresses.system(host)
            }
        }
    }

    static func create(_ client: any TestClientProtocol, _ url: String) async throws -> JSONResponse {
        try await client.call(.post, "/v1/admin/webhooks", json: #"{"url": "\#(url)"}"#, headers: admin)
    }

    /// The webhooks as the admin lists them, by id.
    static func webhooks(_ client: any TestClientProtocol) async throws -> [String: [String: Any]] {
        let listed = try await client.call(.get, "/v1/admin/webhooks", headers: admin)
        let webhooks = listed.json["webhooks"] as? [[String: Any]] ?? []
        return Dictionary(
            uniqueKeysWithValues: webhooks.compactMap { hook in (hook["id"] as? String).map { ($0, hook) } })
    }

    @Test func internalAddressesAreRefusedWhenAWebhookIsMadeNamingTheReason() async throws {
        let names = Names()
        names.set("hooks.internal.test", ["93.184.216.34", "10.0.0.7"])
        names.set("rebind.test", ["127.0.0.1"])
        names.set("hooks.example.test", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
        try await ServerHarness.with(configure: { $0.webhookResolver = names.resolver }) { _, client in
            let refused: [(url: String, reason: String)] = [
                ("http://127.0.0.1:9/hook", "127.0.0.1 is a loopback address"),
                ("http://localhost:8080/hook", "localhost resolves to 127.0.0.1, a loopback address"),
                ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
                ("http://10.1.2.3/", "10.1.2.3 is a private address"),
                ("http://192.168.0.10/", "192.168.0.10 is a private address"),
                ("http://172.20.0.1/", "172.20.0.1 is a private address"),
                ("http://100.100.100.200/", "100.100.100.200 is a shared carrier-NAT address"),
                ("http://[::1]:8080/", "::1 is a loopback address"),
                ("http://0.0.0.0:8080/", "0.0.0.0 is an unspecified address"),
                ("http://[::]/", ":: is the unspecified address"),
                ("http://[::ffff:169.254.169.254]/", "is a link-local address"),
                ("http://[fd00:ec2::254]/", "fd00:ec2::254 is a unique-local address"),
                ("http://[fe80::1]/", "fe80::1 is a link-local address"),
                ("http://224.0.0.251/", "224.0.0.251 is a multicast address"),
                // Spellings the system's resolver reads as 127.0.0.1.
                ("http://2130706433/", "2130706433 resolves to 127.0.0.1, a loopback address"),
                ("http://127.1/", "127.1 resolves to 127.0.0.1, a loopback address"),
                // A name with one internal address among public ones, and one that resolves to loopback.
                ("https://hooks.internal.test/hook", "hooks.internal.test resolves to 10.0.0.7, a private address"),
                ("https://rebind.test/hook", "rebind.test resolves to 127.0.0.1, a loopback address"),
            ]
            for (url, reason) in refused {
                let answer = try await Self.create(client, url)
                #expect(answer.status == .unprocessableContent, "\(url): \(answer.text)")
                #expect(answer.errorCode == "webhook_address_refused", "\(url): \(answer.text)")
                #expect(answer.errorFields == ["url"], "\(url): \(answer.text)")
                let message = (answer.json["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains(reason), "\(url): \(message)")
                #expect(message.contains("--webhook-allowed-networks"), "\(url): \(message)")
            }
            #expect(try await Self.webhooks(client).isEmpty)

            // A host that does not resolve is refused as such; public addresses are taken.
            let nowhere = try await Self.create(client, "https://nowhere.invalid/hook")
            #expect(nowhere.status == .unprocessableContent && nowhere.errorCode == "invalid_input", "\(nowhere.text)")
            #expect(nowhere.text.contains("nowhere.invalid does not resolve"), "\(nowhere.text)")
            #expect(try await Self.create(client, "https://93.184.216.34/hook").status == .created)
            #expect(try await Self.create(client, "https://hooks.example.test/hook").status == .created)
        }
    }

    @Test func anAllowedNetworkAdmitsAReceiverBesideTheServerAndNoOther() async throws {
        try await ServerHarness.with(configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8", "10.1.0.0/16"] }) {
            _, client async throws in
            #expect(try await Self.create(client, "http://127.0.0.1:9/hook").status == .created)
            #expect(try await Self.create(client, "http://localhost:9/hook").status == .created)
            #expect(try await Self.create(client, "http://10.1.2.3/hook").status == .created)
            for url in ["http://[::1]:9/hook", "http://10.2.0.1/hook", "http://169.254.169.254/"] {
                #expect(try await Self.create(client, url).errorCode == "webhook_address_refused", "\(url)")
            }
        }
        // A list entry that is no address is refused when the server starts.
        var configuration = ServerConfiguration()
        configuration.webhookAllowedNetworks = ["intranet"]
        #expect(throws: ConfigurationError.self) { try configuration.check() }
    }

    /// The address is checked again before each post, and the post goes to the address
    /// checked: a name the system cannot resolve reaches the receiver the check saw (over
    /// TLS too, the certificate checked against the name), and a name that moves to
    /// loopback after the webhook was made is not posted to.
    @Test func aPostChecksTheAddressAgainAndGoesToTheAddressItChecked() async throws {
        let certificate = try LoopbackCertificate.make()
        let plain = try await LoopbackReceiver.start(.plain, answer: { _ in (204, "") })
        let tls = try await LoopbackReceiver.start(.tls(certificate), answer: { _ in (204, "") })
        defer {
            Task {
                await plain.stop()
                await tls.stop()
            }
        }
        let names = Names()
        names.set("hooks.pinned.test", ["127.0.0.1"])
        try await ServerHarness.with(
            configure: {
                $0.webhookResolver = names.resolver
                $0.webhookAllowedNetworks = ["127.0.0.0/8"]
                $0.deliveryTrustRootsPEM = certificate.certificatePEM
            }
        ) { harness, client in
            #expect(try await Self.create(client, "http://hooks.pinned.test:\(plain.port)/in").status == .created)
            #expect(try await Self.create(client, "https://localhost:\(tls.port)/in").status == .created)
            _ = try await client.register("ada")
            _ = try await DeliveryTests().notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().sent == 2)
            // The system cannot resolve hooks.pinned.test: the post reached the checked address.
            #expect(plain.requests.count == 1)
            #expect(tls.requests.count == 1)
        }

        names.set("hooks.rebind.test", ["93.184.216.34"])
        try await ServerHarness.with(configure: { $0.webhookResolver = names.resolver }) { harness, client in
            let created = try await Self.create(client, "http://hooks.rebind.test:\(plain.port)/in")
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"] as? String)
            names.set("hooks.rebind.test", ["127.0.0.1"])
            _ = try await client.register("ada")
            _ = try await DeliveryTests().notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            #expect(plain.requests.count == 1)
            let status = try #require(try await Self.webhooks(client)[id])
            #expect(
                status["lastError"] as? String == "refused: hooks.rebind.test resolves to 127.0.0.1, a loopback address"
            )
        }
    }

    @Test func aFailedPostIsRecordedAsAStatusNeverTheAnswer() async throws {
        let receiver = try await LoopbackReceiver.start(
            .plain, answer: { _ in (500, #"{"AccessKeyId": "ASIA-internal", "SecretAccessKey": "do not show"}"#) })
        defer { Task { await receiver.stop() } }
        try await ServerHarness.with(configure: { $0.webhookAllowedNetworks = ["127.0.0.0/8"] }) { harness, client in
            let answered = try #require(
                try await Self.create(client, "http://127.0.0.1:\(receiver.port)/in").json["id"] as? String)
            // Port 1 on loopback: nothing listens there.
            let closed = try #require(try await Self.create(client, "http://127.0.0.1:1/in").json["id"] as? String)
            _ = try await client.register("ada")
            _ = try await DeliveryTests().notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().retried == 2)
            let webhooks = try await Self.webhooks(client)
            #expect(webhooks[answered]?["lastError"] as? String == "HTTP 500")
            #expect(webhooks[closed]?["lastError"] as? String == "connection refused")
            let listed = try await client.call(.get, "/v1/admin/webhooks", headers: Self.admin)
            #expect(!listed.text.contains("AccessKeyId") && !listed.text.contains("do not show"), "\(listed.text)")
        }
        // What the client's errors say, in a few words.
        #expect(DeliveryHTTP.status(of: "HTTPClientError.deadlineExceeded") == "timed out")
        #expect(DeliveryHTTP.status(of: "HTTPClientError.connectTimeout") == "timed out")
        #expect(DeliveryHTTP.status(of: "handshakeFailed(NIOSSL.BoringSSLError.sslError([...]))") == "TLS failed")
        #expect(DeliveryHTTP.status(of: "something else entirely") == "could not connect")
    }

    /// Counts a resolver's calls.
    final class Calls: Sendable {
        let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A lookup that hangs (a name whose servers do not answer) is given up after the
    /// timeout: the post is retried as `DNS timed out`, a webhook being made is refused with
    /// 422 `webhook_dns_timeout`. Before, the check waited for the lookup however long it took.
    @Test func aLookupThatHangsIsGivenUpAfterTheTimeout() async throws {
        let hanging: WebhookAddresses.Resolver = { _ in
            try await Task.sleep(for: .seconds(600))
            return ["93.184.216.34"]
        }
        let addresses = WebhookAddresses(allowed: [], resolver: hanging, timeout: .milliseconds(200))
        let url = try #require(URL(string: "https://hooks.hanging.test/in"))
        for fresh in [false, true] {
            guard case .failure(let refusal) = await addresses.vet(url, fresh: fresh) else {
                Issue.record("a hanging lookup was waited for (fresh: \(fresh))")
                continue
            }
            #expect(refusal.timedOut && !refusal.forbidden, "\(refusal)")
            #expect(refusal.reason == "hooks.hanging.test: the DNS lookup timed out")
        }

        // Through the server: the admin's POST answers 422 webhook_dns_timeout, a post is retried as "DNS timed out".
        let hangs = Mutex(true)
        try await ServerHarness.with(
            configure: {
                $0.webhookResolver = { host in
                    if hangs.withLock({ $0 }) { return try await hanging(host) }
                    return ["93.184.216.34"]
                }
                $0.webhookLookupTimeout = .milliseconds(200)
            }
        ) { harness, client in
            let hung = try await Self.create(client, "https://hooks.hanging.test/in")
            #expect(hung.status == .unprocessableContent && hung.errorCode == "webhook_dns_timeout", "\(hung.text)")
            hangs.withLock { $0 = false }
            // (Another name: the hanging lookup of the first is still under way, and shared.)
            let created = try await Self.create(client, "https://hooks.later.test/in")
            let id = try #require(created.json["id"] as? String, "\(created.text)")
            hangs.withLock { $0 = true }
            _ = try await client.register("ada")
            _ = try await DeliveryTests().notify(harness, "ada@example.com", key: "milestone:first")
            #expect(try await harness.state.runDueDeliveries().retried == 1)
            #expect(try await Self.webhooks(client)[id]?["lastError"] as? String == "DNS timed out")
        }
    }

    /// Vettings of one host at once share one lookup; a failed lookup is kept for a few
    /// seconds as a successful one is kept for ten. Before, each vetting resolved again.
    @Test func lookupsOfOneHostAreSharedAndFailuresKept() async throws {
        let calls = Calls()
        let slow = WebhookAddresses(
            allowed: [],
            resolver: { _ in
                calls.add()
                try await Task.sleep(for: .milliseconds(300))
                return ["93.184.216.34"]
            })
        let url = try #require(URL(string: "https://hooks.shared.test/in"))
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask { if case .success = await slow.vet(url, fresh: false) { true } else { false } }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 10))
        #expect(calls.value == 1)

        let failures = Calls()
        let failing = WebhookAddresses(
            allowed: [],
            resolver: { _ in
                failures.add()
                throw CancellationError()
            })
        let nowhere = try #require(URL(string: "https://nowhere.failing.test/in"))
        for _ in 0..<3 {
            guard case .failure(let refusal) = await failing.vet(nowhere, fresh: false) else {
                Issue.record("a failed lookup passed")
                continue
            }
            #expect(refusal.reason == "nowhere.failing.test does not resolve")
        }
        #expect(failures.value == 1)
    }

    /// IPv4 addresses written as SIIT (`::ffff:0:a.b.c.d`) are checked as the address they
    /// carry; Teredo (2001::/32) is refused whatever it carries. Before, both passed.
    @Test func siitAndTeredoFormsAreRefused() async throws {
        let addresses = WebhookAddresses(allowed: [], resolver: { _ in [] })
        let refused: [(String, String)] = [
            ("http://[::ffff:0:169.254.169.254]/", "SIIT, ::ffff:0:0/96) form of a link-local address"),
            ("http://[::ffff:0:7f00:1]/", "SIIT, ::ffff:0:0/96) form of a loopback address"),
            ("http://[::ffff:0:10.0.0.1]/", "form of a private address (10.0.0.0/8)"),
            ("http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "a Teredo address (2001::/32), refused whatever"),
            ("http://[2001::1]/", "a Teredo address (2001::/32)"),
        ]
        for (text, reason) in refused {
            let url = try #require(URL(string: text))
            guard case .failure(let refusal) = await addresses.vet(url, fresh: true) else {
                Issue.record("\(text) passed")
                continue
            }
            #expect(refusal.forbidden && refusal.reason.contains(reason), "\(text): \(refusal.reason)")
        }
        // A public IPv4 address in SIIT form, and an address beside Teredo's prefix, pass.
        for text in ["http://[::ffff:0:93.184.216.34]/", "http://[2001:db8:1::1]/", "http://[2001:4860::8888]/"] {
            let url = try #require(URL(string: text))
            guard case .success = await addresses.vet(url, fresh: true) else {
                Issue.record("\(text) was refused")
                continue
            }
        }
    }

    /// A name whose servers rotate its addresses keeps one pinned address (one client)
    /// while it still resolves to it. Before, the first address answered was used.
    @Test func thePinnedAddressStaysWhileTheNameStillResolvesToIt() async throws {
        let turn = Calls()
        let rotating = WebhookAddresses(
            allowed: [],
            resolver: { _ in
                turn.add()
                let all = ["93.184.216.36", "93.184.216.34", "2606:2800:220:1::1", "93.184.216.35"]
                let shift = turn.value % all.count
                return Array(all[shift...] + all[..<shift])
            })
        let url = try #require(URL(string: "https://hooks.rotating.test/in"))
        var pinned: Set<String?> = []
        for _ in 0..<8 {
            if case .success(let destination) = await rotating.vet(url, fresh: true) {
                pinned.insert(destination.address)
            }
        }
        #expect(pinned == ["93.184.216.34"])
    }
}
