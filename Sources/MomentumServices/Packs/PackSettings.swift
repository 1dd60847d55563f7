/// Packs as configuration (``ServerConfiguration/packs``): how large an upload may be, and
/// how often each instance reloads the active versions.
public struct PackSettings: Sendable {
    /// The largest pack upload, in bytes; a larger one is refused (413) before it is read.
    public var maxBytes: Int = 1_048_576
    /// Seconds between reloads of the active versions on each instance (the instance that
    /// activates reloads at once).
    public var refreshSeconds: Int = 2

    /// The standard settings: 1 MiB, every 2 seconds.
    public init() {}
}
