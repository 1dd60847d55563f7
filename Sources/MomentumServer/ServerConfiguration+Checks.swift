import Foundation
import JWTKit
import MomentumServices

extension ServerConfiguration {
    /// Checks the settings that can be wrong in ways the types cannot say.
    ///
    /// - Throws: ``ConfigurationError`` naming a trusted proxy or a webhook allowed network
    ///   that is neither an address nor a CIDR range, an APNs key or FCM service account that
    ///   does not load, a VAPID subject that is neither `mailto:` nor `https:`, or trust roots
    ///   that are not PEM certificates.
    public func check() throws {
        _ = try TrustedProxies(trustedProxies, header: forwardedHeader)
        if let problem = CORSPolicy.problem(in: self) { throw ConfigurationError(message: problem) }
        if let problem = observability.problem(publicPort: port) { throw ConfigurationError(message: problem) }
        do { _ = try TrustedProxies(webhookAllowedNetworks) } catch {
            throw ConfigurationError(message: "webhook allowed networks: \(error.message)")
        }
        if let problem = apns?.problem { throw ConfigurationError(message: problem) }
        if let fcm {
            if let problem = fcm.problem { throw ConfigurationError(message: problem) }
            if (try? Insecure.RSA.PrivateKey(pem: fcm.privateKeyPEM)) == nil {
                throw ConfigurationError(
                    message: "the FCM service account's private_key is not an RSA private key of 2048 bits or more")
            }
        }
        if !(vapidSubject.hasPrefix("mailto:") || vapidSubject.hasPrefix("https://")) {
            throw ConfigurationError(
                message: "the VAPID subject must be a mailto: or https: URL, not '\(vapidSubject)'")
        }
        if let url = mail.smtpURL {
            do { _ = try SMTPClient(settings: mail, url: url, clock: clock) } catch {
                throw ConfigurationError(message: "mail: \(error)")
            }
        }
        if let publicURL, URLComponents(string: publicURL)?.host == nil || !publicURL.lowercased().hasPrefix("http") {
            throw ConfigurationError(message: "the public URL must be an http: or https: URL, not '\(publicURL)'")
        }
        if let pem = deliveryTrustRootsPEM {
            do { _ = try DeliveryHTTP.client(extraRootsPEM: pem) } catch {
                throw ConfigurationError(message: "the delivery trust roots are not PEM certificates: \(error)")
            }
        }
    }
}
