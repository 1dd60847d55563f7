import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Bearer tokens and passwords.
///
/// A token is `<user id>.<43 random base64url characters>` (256 bits). The server stores
/// only its SHA-256; the user id in front lets it look the token up within that user's
/// rows, so authentication never scans other users.
enum Tokens {
    static func make(user: String) -> (token: String, hash: String) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = "\(user).\(base64URL(bytes))"
        return (token, hash(token))
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The user id a token names, if it has the token's shape.
    static func user(of token: String) -> String? {
        guard let dot = token.lastIndex(of: "."), dot > token.startIndex else { return nil }
        let secret = token[token.index(after: dot)...]
        guard secret.count == 43 else { return nil }
        return String(token[..<dot])
    }

    /// The public id of a device: the first 16 hex digits of its token's hash.
    static func deviceID(_ tokenHash: String) -> String { String(tokenHash.prefix(16)) }

    /// A random id with a prefix: `u_` followed by 20 base32 characters (100 bits).
    static func id(_ prefix: String) -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return prefix + String((0..<20).map { _ in alphabet[Int.random(in: 0..<32, using: &generator)] })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Hashes a password with bcrypt, off the event loops.
    static func hashPassword(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Checks a password against its bcrypt hash, off the event loops.
    static func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
