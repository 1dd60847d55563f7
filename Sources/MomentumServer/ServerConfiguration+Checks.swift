extension ServerConfiguration {
    /// Checks the settings that can be wrong in ways the types cannot say.
    ///
    /// - Throws: ``ConfigurationError`` naming a trusted proxy that is neither an address
    ///   nor a CIDR range.
    public func check() throws {
        _ = try TrustedProxies(trustedProxies, header: forwardedHeader)
    }
}
