import Foundation
import MomentumServices

extension ServerConfiguration {
    /// Checks the settings that can be wrong in ways the types cannot say.
    ///
    /// - Throws: ``ConfigurationError`` naming a trusted proxy or a webhook allowed network
    ///   that is neither an address nor a CIDR range, an APNs key that does not load, a VAPID subject that is neither
    ///   `mailto:` nor `https:`, or trust roots that are not PEM certificates.
    public func check() throws {
        _ = try TrustedProxies(trustedProxies, header: forwardedHeader)
        do { _ = try TrustedProxies(webhookAllowedNetworks) } catch {
            throw ConfigurationError(message: "webhook allowed networks: \(error.message)")
        }
        if let problem = apns?.problem { throw ConfigurationError(message: problem) }
        if !(vapidSubject.hasPrefix("mailto:") || vapidSubject.hasPrefix("https://")) {
            throw ConfigurationError(
                message: "the VAPID subject must be a mailto: or https: URL, not '\(vapidSubject)'")
        }
        if let pem = deliveryTrustRootsPEM {
            do { _ = try DeliveryHTTP.client(extraRootsPEM: pem) } catch {
                throw ConfigurationError(message: "the delivery trust roots are not PEM certificates: \(error)")
            }
        }
    }
}
