/// Hashes and checks passwords (bcrypt, in the server), off the threads that serve
/// requests, refusing when too many wait.
public protocol PasswordHashing: Sendable {
    /// The hash of `password` at `cost`.
    ///
    /// - Throws: ``ServiceError`` `server_busy` (unavailable) when too many wait.
    func hash(_ password: String, cost: UInt8) async throws -> String

    /// Whether `password` is the one `hash` was made from.
    ///
    /// - Throws: ``ServiceError`` `server_busy` (unavailable) when too many wait.
    func verify(_ password: String, hash: String) async throws -> Bool
}
