import Foundation
import HummingbirdBcrypt
import Logging
import MomentumServices
import MomentumStore

/// The operators' use case for the command line (`momentum operator add|list|disable`),
/// which works on the database directly, with bcrypt on a small pool of its own.
public enum CommandLineOperators {
    /// Who the command line acts as in the audit log: whoever can open the database.
    public static let actor = OperatorActor(id: "cli", email: "", role: .owner)

    /// The use case over `store`.
    ///
    /// - Parameters:
    ///   - store: A migrated store.
    ///   - configuration: The bcrypt cost and the clocks (the defaults unless a test says).
    public static func make(store: any MomentumStore, configuration: ServerConfiguration = .init()) -> Operators {
        Operators(
            store: store, passwords: PasswordHasher(threads: 1, queue: 4),
            throttle: SignInThrottle(maxBackoffSeconds: configuration.signInMaxBackoffSeconds),
            decoyHash: Bcrypt.hash(Tokens.id("decoy_"), cost: configuration.bcryptCost), configuration: configuration,
            logger: Logger(label: "momentum.operators"))
    }
}
