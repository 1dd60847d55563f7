/// The signed-in device a request comes from.
public struct Caller: Sendable, Hashable {
    /// The user's id.
    public var user: String
    /// The SHA-256 of the device's bearer token.
    public var tokenHash: String
    /// The device's name.
    public var deviceName: String

    /// Creates a caller.
    public init(user: String, tokenHash: String, deviceName: String) {
        self.user = user
        self.tokenHash = tokenHash
        self.deviceName = deviceName
    }
}
