import Crypto
import Foundation

/// Bearer tokens and random ids.
///
/// A token is `<user id>.<43 random base64url characters>` (256 bits). The server stores
/// only its SHA-256; the user id in front lets it look the token up within that user's
/// rows, so authentication never scans other users.
public enum Tokens: Sendable {
    static func make(user: String) -> (token: String, hash: String) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = "\(user).\(base64URL(bytes))"
        return (token, hash(token))
    }

    /// The token's SHA-256 in lowercase hex: what the store keeps and looks up.
    public static func hash(_ token: String) -> String {
        var token = token
        let digest = token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { output in
            var index = 0
            for byte in digest {
                output[index] = hexDigits[Int(byte >> 4)]
                output[index + 1] = hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The user id a token names, if it has the token's shape.
    public static func user(of token: String) -> String? {
        guard let dot = token.lastIndex(of: "."), dot > token.startIndex else { return nil }
        let secret = token[token.index(after: dot)...]
        guard secret.count == 43 else { return nil }
        return String(token[..<dot])
    }

    /// The public id of a device: the first 16 hex digits of its token's hash.
    public static func deviceID(_ tokenHash: String) -> String { String(tokenHash.prefix(16)) }

    /// A random id with a prefix: `u_` followed by 20 base32 characters (100 bits).
    public static func id(_ prefix: String) -> String {
        // 100 random bits from two draws of the system generator (a draw is a system call).
        var generator = SystemRandomNumberGenerator()
        var bits = (generator.next() as UInt64, generator.next() as UInt64)
        let suffix = String(unsafeUninitializedCapacity: 20) { output in
            for index in 0..<20 {
                if index < 12 {
                    output[index] = idAlphabet[Int(bits.0 & 31)]
                    bits.0 >>= 5
                } else {
                    output[index] = idAlphabet[Int(bits.1 & 31)]
                    bits.1 >>= 5
                }
            }
            return 20
        }
        return prefix + suffix
    }

    private static let idAlphabet: [UInt8] = Array("abcdefghijkmnpqrstuvwxyz23456789".utf8)

    /// `bytes` in base64url, without padding.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
