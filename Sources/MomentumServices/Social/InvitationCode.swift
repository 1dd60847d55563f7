import Foundation

/// Invitation codes: 12 characters of an alphabet without look-alikes (60 bits), shown
/// as `XXXX-XXXX-XXXX`, typed in any case, with or without dashes and spaces.
public enum InvitationCode: Sendable {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789".utf8) + [UInt8(ascii: "L")]

    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bits = generator.next() as UInt64
        var code = ""
        for _ in 0..<12 {
            code.append(Character(UnicodeScalar(alphabet[Int(bits & 31)])))
            bits >>= 5
        }
        return code
    }

    static func normalize(_ text: String) -> String? {
        let kept = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == 12, kept.utf8.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return kept
    }

    static func display(_ code: String) -> String {
        let characters = Array(code)
        guard characters.count == 12 else { return code }
        return String(characters[0..<4]) + "-" + String(characters[4..<8]) + "-" + String(characters[8..<12])
    }
}
