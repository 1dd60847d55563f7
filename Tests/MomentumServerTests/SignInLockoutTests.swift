import Foundation
@_spi(Testing) import MomentumServer
@_spi(Testing) import MomentumServices
import Synchronization
import Testing

/// Guesses at a password must not lock its owner out (issue 45, item 10): before, nine
/// wrong passwords from one address made the owner's right one from another get 429.
///
/// The throttle's clock is the test's (``ServerConfiguration/signInClock``), so waits pass
/// when the test says, however busy the machine is; a live server on a socket, since the
/// client addresses come through a trusted proxy's `X-Forwarded-For`.
@Suite(.serialized) struct SignInLockoutTests {
    /// Seconds the test moves by hand.
    final class Clock: Sendable {
        let seconds = Mutex(1_000.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    static func configure(_ clock: Clock) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.trustedProxies = ["127.0.0.1", "::1"]
            configuration.signInClock = { clock.seconds.withLock { $0 } }
        }
    }

    /// A sign-in through the API, from `address`, showing a device key if given.
    static func signIn(
        port: Int, _ name: String, password: String = "correct horse", from address: String, key: String? = nil
    ) async throws -> RawHTTP.Answer {
        var headers = ["X-Forwarded-For": address]
        headers["Momentum-Device-Key"] = key
        return try await RawHTTP.send(
            port: port, "POST", "/v1/sessions", headers: headers,
            json: #"{"email": "\#(name)@example.com", "password": "\#(password)"}"#)
    }

    /// A header's value as sent (``RawHTTP/Answer/headerLines`` are lowercased, a key is not).
    static func header(_ name: String, of answer: RawHTTP.Answer) -> String? {
        let head = answer.raw.components(separatedBy: "\r\n\r\n").first ?? ""
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else {
                continue
            }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The issue's case: nine wrong passwords from one address over 18 s, then one every 5
    /// minutes for an hour; the owner signs in from another address each time, one it never
    /// used before.
    @Test func guessesFromOneAddressNeverKeepTheOwnerOutElsewhere() async throws {
        let clock = Clock()
        try await LiveServer.with(Self.configure(clock)) { port in
            try await LiveServer.register(port: port, "owner")
            for _ in 1...9 {
                let answer = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.7")
                #expect([401, 429].contains(answer.status), "\(answer.raw)")
                clock.advance(2)
            }
            // The owner's own typo from another address does not add up with the guesses.
            #expect(try await Self.signIn(port: port, "owner", password: "typo", from: "198.51.100.20").status == 401)
            let owner = try await Self.signIn(port: port, "owner", from: "198.51.100.20")
            #expect(owner.status == 201, "\(owner.raw)")
            // The guesser's own address still waits, even with the right password.
            let guesser = try await Self.signIn(port: port, "owner", from: "203.0.113.7")
            #expect(guesser.status == 429, "\(guesser.raw)")
            #expect(guesser.body.contains(#""code":"sign_in_throttled""#))

            for minute in stride(from: 5, through: 60, by: 5) {
                clock.advance(300)
                _ = try await Self.signIn(port: port, "owner", password: "guess \(minute)", from: "203.0.113.7")
                let elsewhere = try await Self.signIn(port: port, "owner", from: "198.51.100.\(100 + minute)")
                #expect(elsewhere.status == 201, "after \(minute) minutes: \(elsewhere.raw)")
            }
        }
    }

    /// Guesses spread over three addresses or more soon wait on the account's shared
    /// budget, every address that has not signed in to it included; an address or a device
    /// (its key) that signed in before gets in all the same.
    @Test func guessesSpreadOverManyAddressesWaitButClientsThatSignedInBeforeDoNot() async throws {
        let clock = Clock()
        try await LiveServer.with { configuration in
            Self.configure(clock)(&configuration)
            configuration.signInFreeFailuresPerAccount = 2
            configuration.signInFreeFailuresAcrossAddresses = 6
        } _: { port in
            try await LiveServer.register(port: port, "owner")
            try await LiveServer.register(port: port, "mallory")
            let home = try await Self.signIn(port: port, "owner", from: "198.51.100.20")
            #expect(home.status == 201, "\(home.raw)")
            let key = try #require(Self.header("Momentum-Device-Key", of: home))
            let mallorys = try #require(
                Self.header(
                    "Momentum-Device-Key", of: try await Self.signIn(port: port, "mallory", from: "203.0.113.99")))

            // Three addresses, two free guesses each: the account's six are spent.
            for address in 1...3 {
                for _ in 1...2 {
                    let answer = try await Self.signIn(
                        port: port, "owner", password: "a guess", from: "203.0.113.\(address)")
                    #expect(answer.status == 401, "\(answer.raw)")
                }
            }
            // A fourth address waits, and so does the owner from an address never used for
            // this account, without a key or with another account's key.
            let fourth = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.4")
            #expect(fourth.status == 429, "\(fourth.raw)")
            #expect(fourth.headerLines.contains("retry-after: 1"), "\(fourth.headerLines)")
            #expect(try await Self.signIn(port: port, "owner", from: "192.0.2.50").status == 429)
            #expect(try await Self.signIn(port: port, "owner", from: "192.0.2.51", key: mallorys).status == 429)
            #expect(try await Self.signIn(port: port, "owner", from: "192.0.2.52", key: key + "x").status == 429)

            // From home, or with the device's key from anywhere: in.
            #expect(try await Self.signIn(port: port, "owner", from: "198.51.100.20").status == 201)
            let travelling = try await Self.signIn(port: port, "owner", from: "192.0.2.60", key: key)
            #expect(travelling.status == 201, "\(travelling.raw)")
            #expect(Self.header("Momentum-Device-Key", of: travelling) == key)

            // The rotation goes on, each guess waiting longer: 1 s, then 2 s.
            clock.advance(1)
            #expect(try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.5").status == 401)
            let next = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.6")
            #expect(next.status == 429 && next.headerLines.contains("retry-after: 2"), "\(next.raw)")
            // An address whose own wait is over still waits for the account's, and its
            // guesses count there too: spent addresses are no way around it.
            clock.advance(1)
            let spent = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.1")
            #expect(spent.status == 429 && spent.headerLines.contains("retry-after: 1"), "\(spent.raw)")
            clock.advance(1)
            #expect(try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.1").status == 401)
            let after = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.7")
            #expect(after.status == 429 && after.headerLines.contains("retry-after: 4"), "\(after.raw)")
        }
    }

    /// A device key is good for one password and a bounded time: whoever once knew the
    /// password and collected keys with it loses them all when the owner changes it, and a
    /// key past its lifetime is no key (a review of item 10's fix).
    @Test func aDeviceKeyDiesWithThePasswordItWasMadeUnderAndWithAge() async throws {
        let clock = Clock()
        let today = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
        try await LiveServer.with { configuration in
            Self.configure(clock)(&configuration)
            configuration.clock = { today.withLock { $0 } }
            configuration.signInFreeFailuresPerAccount = 2
            configuration.signInFreeFailuresAcrossAddresses = 6
        } _: { port in
            try await LiveServer.register(port: port, "owner")
            // Someone who knew the password collects a key; the owner's phone has its own.
            let collected = try await Self.signIn(port: port, "owner", from: "203.0.113.200")
            let stolen = try #require(Self.header("Momentum-Device-Key", of: collected))
            let phone = try await Self.signIn(port: port, "owner", from: "198.51.100.20")
            let phoneKey = try #require(Self.header("Momentum-Device-Key", of: phone))
            let token = try #require(
                phone.body.firstMatch(of: /"token":"([^"]+)"/).map { String($0.1) }, "\(phone.raw)")
            // The owner changes the password.
            let changed = try await RawHTTP.send(
                port: port, "POST", "/v1/account/password",
                headers: ["Authorization": "Bearer \(token)", "X-Forwarded-For": "198.51.100.20"],
                json: #"{"currentPassword": "correct horse", "newPassword": "battery staple"}"#)
            #expect(changed.status == 200, "\(changed.raw)")
            // Guesses from three addresses spend the account's budget for unknown clients.
            for address in 1...3 {
                for _ in 1...2 {
                    _ = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.\(address)")
                }
            }
            // The collected key no longer lets its holder past the account's wait, nor
            // does the phone's key made under the old password.
            let withStolen = try await Self.signIn(
                port: port, "owner", password: "battery staple", from: "192.0.2.70", key: stolen)
            #expect(withStolen.status == 429, "\(withStolen.raw)")
            let withOld = try await Self.signIn(
                port: port, "owner", password: "battery staple", from: "192.0.2.71", key: phoneKey)
            #expect(withOld.status == 429, "\(withOld.raw)")
            // From home the owner gets in, with a key for the new password that works from
            // anywhere while it is young …
            let home = try await Self.signIn(port: port, "owner", password: "battery staple", from: "198.51.100.20")
            #expect(home.status == 201, "\(home.raw)")
            let fresh = try #require(Self.header("Momentum-Device-Key", of: home))
            #expect(fresh != phoneKey)
            let away = try await Self.signIn(
                port: port, "owner", password: "battery staple", from: "192.0.2.72", key: fresh)
            #expect(away.status == 201, "\(away.raw)")
            // … and a sign-in with a key older than the renewal age gets a new one …
            today.withLock { $0 += 31 * 86_400 }
            let renewed = try await Self.signIn(
                port: port, "owner", password: "battery staple", from: "192.0.2.73", key: fresh)
            #expect(renewed.status == 201, "\(renewed.raw)")
            #expect(Self.header("Momentum-Device-Key", of: renewed) != fresh)
            // … while a key past its lifetime is no key at all.
            today.withLock { $0 += 400 * 86_400 }
            _ = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.9")
            let expired = try await Self.signIn(
                port: port, "owner", password: "battery staple", from: "192.0.2.74", key: fresh)
            #expect(expired.status == 429, "\(expired.raw)")
        }
    }

    /// The web app keeps its device key in a cookie only the sign-in form gets, and shows it
    /// when it signs in again.
    @Test func theWebAppsDeviceCookieLetsItsBrowserIn() async throws {
        let clock = Clock()
        try await LiveServer.with { configuration in
            Self.configure(clock)(&configuration)
            configuration.signInFreeFailuresPerAccount = 1
            configuration.signInFreeFailuresAcrossAddresses = 2
        } _: { port in
            try await LiveServer.register(port: port, "owner")
            func form(from address: String, cookie: String? = nil) async throws -> RawHTTP.Answer {
                let body = "email=owner%40example.com&password=correct+horse"
                var lines = [
                    "POST /signin HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "X-Forwarded-For: \(address)",
                    "Content-Type: application/x-www-form-urlencoded", "Content-Length: \(body.utf8.count)",
                ]
                if let cookie { lines.append("Cookie: \(cookie)") }
                return try await RawHTTP.exchange(port: port, lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
            }
            let first = try await form(from: "198.51.100.20")
            #expect(first.status == 303, "\(first.raw)")
            let line = try #require(
                first.raw.components(separatedBy: "\r\n").first {
                    $0.lowercased().hasPrefix("set-cookie: momentum_device=")
                })
            let attributes = line.lowercased()
            #expect(
                attributes.contains("path=/signin") && attributes.contains("httponly")
                    && attributes.contains("samesite=strict"), "\(line)")
            let cookie = String(line.dropFirst("set-cookie: ".count).prefix { $0 != ";" })

            for address in 1...3 {
                _ = try await Self.signIn(port: port, "owner", password: "a guess", from: "203.0.113.\(address)")
            }
            #expect(try await form(from: "192.0.2.70").status == 429)
            #expect(try await form(from: "192.0.2.71", cookie: cookie).status == 303)
        }
    }
}
