import Foundation
import Logging

/// Everything `momentum serve` can be told: where to listen, which database, limits and
/// safety settings. Each setting has a flag and an environment variable (see the README).
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The port to listen on (0 picks a free one).
    public var port: Int = 8080
    /// The rule pack new accounts start with (`habits`, `ollie`, `savings`, `growth`).
    public var pack: String = "habits"
    /// Origins allowed to call the API from a browser; empty turns CORS off, `*` allows any.
    public var corsOrigins: [String] = []
    /// Requests a signed-in user may make per minute (0: no limit).
    public var userRequestsPerMinute: Int = 1_200
    /// Requests one client address may make per minute (0: no limit).
    public var addressRequestsPerMinute: Int = 2_400
    /// The largest JSON request body, in bytes.
    public var maxBodyBytes: Int = 1 << 20
    /// The largest photo upload, in bytes.
    public var maxPhotoBytes: Int = 8 << 20
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
    /// The log level.
    public var logLevel: Logger.Level = .info
    /// The clock; tests replace it.
    public var clock: @Sendable () -> Date = { Date() }

    /// The standard configuration.
    public init() {}
}
