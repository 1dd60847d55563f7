import Logging
import MomentumStore

/// Tells a user's connected devices, on this instance and every other, that their data
/// changed.
public struct ChangePublisher: Sendable {
    /// The devices connected to this instance.
    public let hub: any LocalChangeDelivery
    let relay: (any ChangeRelay)?
    /// This instance's id, so that the others know where a change came from.
    public let instance: String
    let logger: Logger

    /// Delivers a change to the user's streams here and posts it to the other instances.
    ///
    /// The change leaves for the other instances with the relay's next notification; the
    /// request that made it does not wait for that (`ServerState.flushRelay()` does, at
    /// shutdown).
    public func publish(_ change: Change, to user: String) {
        hub.deliver(change, to: user)
        guard let relay else { return }
        let logger = logger
        relay.post(RelayMessage(instance: instance, user: user, change: change)) { error in
            logger.warning("could not relay a change", metadata: ["error": .string("\(error)")])
        }
    }

    /// Tells the other instances that a device session ended (`*`: every session of the
    /// user), so that none of them keeps trusting it from its cache.
    public func relayRevocation(of user: String, tokenHash: String) async {
        guard let relay else { return }
        do {
            try await relay.publish(RelayMessage(instance: instance, user: user, revoked: tokenHash))
        } catch {
            logger.warning("could not relay a revoked session", metadata: ["error": .string("\(error)")])
        }
    }
}

/// The devices connected to this instance: the HTTP layer's change streams.
public protocol LocalChangeDelivery: Sendable {
    /// Sends `change` to every stream `user` has open here.
    func deliver(_ change: Change, to user: String)
}
