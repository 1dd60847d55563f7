import Foundation

/// Where the operator's console (`/console`) answers (``ServerConfiguration/console``):
/// whether it is on, the host names it answers on, and the origins its forms may be
/// posted from.
public struct ConsoleSettings: Sendable {
    /// Whether `/console` exists at all; off, every console path is 404.
    public var enabled: Bool = true
    /// The `Host` header values the console answers on (`console.example.com`, or with a
    /// port, `localhost:8080`; a name without a port matches any port); another host gets
    /// 404 for every console path. Empty: any host.
    public var hosts: [String] = []
    /// The origins (`https://console.example.com`) the console's forms may be posted from.
    /// Empty: only the request's own origin (its `Host` and scheme).
    public var origins: [String] = []

    /// The standard settings: on, any host, same-origin forms.
    public init() {}

    /// Whether the console answers a request whose `Host` is `authority` (`host[:port]`).
    ///
    /// - Parameter authority: The request's `Host` header; `nil` when it sent none.
    /// - Returns: `true` when ``hosts`` is empty or names the host.
    public func answers(host authority: String?) -> Bool {
        guard !hosts.isEmpty else { return true }
        guard let authority = authority?.lowercased(), !authority.isEmpty else { return false }
        let name = Self.hostName(of: authority)
        return hosts.contains { configured in
            let configured = configured.lowercased()
            return configured == authority || (!Self.hasPort(configured) && configured == name)
        }
    }

    /// The host name of `host[:port]` (an IPv6 literal keeps its brackets).
    static func hostName(of authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[...end])
        }
        return String(authority.prefix { $0 != ":" })
    }

    private static func hasPort(_ authority: String) -> Bool {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return authority[authority.index(after: end)...].hasPrefix(":")
        }
        return authority.contains(":")
    }
}
