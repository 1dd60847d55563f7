import Foundation
import HTTPTypes
import MomentumServices
import NIOCore

/// The reverse proxies whose `X-Forwarded-For` (or, if so configured, `Forwarded`) header
/// is believed, and how the client's address is read from it.
///
/// A request's address is its socket peer's, unless that peer is a trusted proxy: then the
/// forwarded hops are read from right to left (nearest first) and the first one that is
/// not itself a trusted proxy is the client. Headers from any other peer are ignored, so a
/// client cannot choose the address it is limited by.
struct TrustedProxies: Sendable {
    /// An address range: the first `prefix` bits of `bytes` (4 bytes for IPv4, 16 for IPv6).
    struct Network: Sendable, Hashable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefix
            for index in bytes.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    let networks: [Network]
    /// The header the proxies name the client in; the other is ignored.
    let header: ServerConfiguration.ForwardedHeader

    /// No proxy is trusted.
    static let none = TrustedProxies(networks: [], header: .xForwardedFor)

    private init(networks: [Network], header: ServerConfiguration.ForwardedHeader) {
        self.networks = networks
        self.header = header
    }

    /// Parses addresses and CIDR ranges (`10.0.0.0/8`, `::1`, `fd00::/8`).
    ///
    /// - Parameters:
    ///   - entries: The proxies' addresses and ranges.
    ///   - header: The header they name the client in.
    /// - Throws: A message naming the entry that is neither.
    init(
        _ entries: [String], header: ServerConfiguration.ForwardedHeader = .xForwardedFor
    ) throws(ConfigurationError) {
        self.header = header
        var networks: [Network] = []
        for entry in entries {
            let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let bytes = Self.bytes(of: String(parts[0])) else {
                throw ConfigurationError(message: "'\(entry)' is not an IP address or CIDR range")
            }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else {
                throw ConfigurationError(message: "'\(entry)' has no valid prefix length")
            }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    /// Whether an address (in text) is a trusted proxy's.
    func trusts(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client's address: the peer's, or the nearest forwarded hop that is not a
    /// trusted proxy when the peer is one.
    func clientAddress(peer: String?, headers: HTTPFields) -> String? {
        guard let peer, !networks.isEmpty, trusts(peer) else { return peer }
        // Only the header the proxies set: the other passes through from the client.
        let hops =
            header == .forwarded
            ? Self.forwardedFor(headers[values: .forwarded])
            : headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        var client = peer
        for hop in hops.reversed() {
            // An obfuscated or unknown hop ("unknown", "_hidden") names no address: the
            // nearest known one (a trusted proxy) stands for the client.
            guard let address = Self.address(of: hop) else { return client }
            client = address
            if !trusts(address) { return address }
        }
        return client
    }

    /// The `for=` values of `Forwarded` headers (RFC 7239), in order.
    static func forwardedFor(_ values: [String]) -> [String] {
        var hops: [String] = []
        for value in values {
            for element in value.split(separator: ",") {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else {
                        continue
                    }
                    hops.append(parts[1].trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return hops
    }

    /// A hop's address in canonical text, without quotes, brackets or port; `nil` when it
    /// names none.
    static func address(of hop: String) -> String? {
        var text = Substring(hop)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        if text.hasPrefix("[") {
            // "[2001:db8::1]:4711"
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            // "192.0.2.43:47011"
            text = text[..<colon]
        }
        guard let address = try? SocketAddress(ipAddress: String(text), port: 0) else { return nil }
        return Self.canonical(address)
    }

    /// The address's bytes (an IPv4-mapped IPv6 address as IPv4).
    static func bytes(of text: String) -> [UInt8]? {
        guard let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        return bytes(of: address)
    }

    static func bytes(of address: SocketAddress) -> [UInt8]? {
        switch address {
        case .v4(let v4):
            return withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return Array(bytes[12...])
            }
            return bytes
        default:
            return nil
        }
    }

    /// The address as text, an IPv4-mapped IPv6 address as IPv4.
    static func canonical(_ address: SocketAddress) -> String? {
        guard let bytes = bytes(of: address) else { return address.ipAddress }
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return address.ipAddress
    }
}

/// A setting that cannot be used as given.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the setting's value.
    public var message: String
    /// The message.
    public var description: String { message }
}

extension HTTPField.Name {
    /// `Forwarded` (RFC 7239).
    static let forwarded = HTTPField.Name("Forwarded")!
    /// `X-Forwarded-For`, the de-facto list of hops.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
