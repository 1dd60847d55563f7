import Crypto
import Foundation

/// Web Push message encryption (RFC 8291, the `aes128gcm` content coding of RFC 8188): the
/// push service carries a payload only the subscribed browser can read.
///
/// The sender makes a fresh P-256 key pair and salt for every message, agrees a secret with
/// the subscription's public key (`p256dh`), mixes in the subscription's authentication
/// secret, and seals the payload in one AES-128-GCM record.
public enum WebPushCrypto {
    /// A subscription key or secret that is not what RFC 8291 requires.
    public struct KeyError: Error, CustomStringConvertible {
        /// What is wrong with the key.
        public var description: String
    }

    /// The record size written in the header: one record holds the whole payload.
    public static let recordSize: UInt32 = 4096

    /// The most payload bytes one record holds (the record size less the tag and the
    /// delimiter), less the header a push service counts too.
    public static let maximumPayload = 3993

    /// Encrypts a payload for a subscription.
    ///
    /// - Parameters:
    ///   - payload: The bytes to deliver (at most ``maximumPayload``).
    ///   - p256dh: The subscription's public key, 65 bytes uncompressed.
    ///   - auth: The subscription's authentication secret, 16 bytes.
    ///   - senderKey: The sender's key pair for this message (fresh, except in tests).
    ///   - salt: 16 random bytes (fresh, except in tests).
    /// - Returns: The request body: the `aes128gcm` header (salt, record size, the sender's
    ///   public key) and the sealed record.
    public static func encrypt(
        _ payload: [UInt8], p256dh: [UInt8], auth: [UInt8],
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: [UInt8] = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
    ) throws -> [UInt8] {
        guard payload.count <= maximumPayload else {
            throw KeyError(description: "a push payload holds at most \(maximumPayload) bytes")
        }
        guard salt.count == 16 else { throw KeyError(description: "the salt must be 16 bytes") }
        let receiver = try publicKey(p256dh)
        guard auth.count == 16 else { throw KeyError(description: "the auth secret must be 16 bytes") }
        let senderPublic = [UInt8](senderKey.publicKey.x963Representation)
        let (key, nonce) = try keys(
            shared: senderKey.sharedSecretFromKeyAgreement(with: receiver), auth: auth, receiverPublic: p256dh,
            senderPublic: senderPublic, salt: salt)
        // One record, the last: the payload and the delimiter 0x02, no padding.
        let sealed = try AES.GCM.seal(payload + [2], using: key, nonce: nonce)
        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body += $0 }
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }

    /// Decrypts a message as the browser does, with the subscription's private key: what a
    /// push service that is also the browser (the tests' receiver) reads.
    public static func decrypt(
        _ body: [UInt8], receiverKey: P256.KeyAgreement.PrivateKey, auth: [UInt8]
    ) throws -> [UInt8] {
        guard body.count > 21 else { throw KeyError(description: "the body is shorter than its header") }
        let salt = Array(body[0..<16])
        let idLength = Int(body[20])
        guard body.count >= 21 + idLength + 17 else { throw KeyError(description: "the body has no record") }
        let senderPublic = Array(body[21..<(21 + idLength)])
        let record = Array(body[(21 + idLength)...])
        let (key, nonce) = try keys(
            shared: receiverKey.sharedSecretFromKeyAgreement(with: publicKey(senderPublic)), auth: auth,
            receiverPublic: [UInt8](receiverKey.publicKey.x963Representation), senderPublic: senderPublic, salt: salt)
        let box = try AES.GCM.SealedBox(
            nonce: nonce, ciphertext: record.dropLast(16), tag: record.suffix(16))
        var plain = [UInt8](try AES.GCM.open(box, using: key))
        // Strip the padding and the delimiter (0x02: the last record).
        while plain.last == 0 { plain.removeLast() }
        guard plain.last == 2 else { throw KeyError(description: "the record has no last-record delimiter") }
        plain.removeLast()
        return plain
    }

    /// A subscription's public key, checked to be a point of P-256.
    public static func publicKey(_ bytes: [UInt8]) throws -> P256.KeyAgreement.PublicKey {
        guard bytes.count == 65, bytes.first == 4 else {
            throw KeyError(description: "p256dh must be an uncompressed P-256 public key (65 bytes)")
        }
        do { return try P256.KeyAgreement.PublicKey(x963Representation: bytes) } catch {
            throw KeyError(description: "p256dh is not a point of P-256")
        }
    }

    /// The content encryption key and nonce (RFC 8291 section 3.4, RFC 8188 section 2.2).
    private static func keys(
        shared: SharedSecret, auth: [UInt8], receiverPublic: [UInt8], senderPublic: [UInt8], salt: [UInt8]
    ) throws -> (SymmetricKey, AES.GCM.Nonce) {
        let info = Array("WebPush: info".utf8) + [0] + receiverPublic + senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: auth, sharedInfo: info, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        return (key, try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
    }

    /// Bytes from base64url, padded or not; `nil` for anything else.
    public static func bytes(base64URL text: String) -> [UInt8]? {
        guard text.utf8.count <= 1024,
            text.utf8.allSatisfy({
                ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95
                    || $0 == 61
            })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            .replacingOccurrences(of: "=", with: "")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
