/// A semantic version (`1.4.0`, `2.0.0-beta.1`), compared by Semantic Versioning 2.0's
/// precedence.
///
/// The engine's version (``MomentumUser/engineVersion``) and each pack's
/// (``RulePack/version``) are semantic versions, so that a device can tell whether the rules
/// that computed a state are older or newer than its own.
public struct SemanticVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Incompatible changes.
    public var major: Int
    /// Changes that compute something new.
    public var minor: Int
    /// Fixes.
    public var patch: Int
    /// The pre-release identifiers (`["beta", "1"]`); empty for a release.
    public var preRelease: [String]

    /// Reads `major.minor.patch`, with an optional `-pre.release` and `+build` (ignored in
    /// comparisons); `nil` for anything else.
    public init?(_ text: String) {
        var rest = Substring(text)
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard Self.areIdentifiers(build) else { return nil }
            rest = rest[..<plus]
        }
        var preRelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            let pre = rest[rest.index(after: dash)...]
            guard Self.areIdentifiers(pre) else { return nil }
            preRelease = pre.split(separator: ".").map(String.init)
            if preRelease.contains(where: { $0.count > 1 && $0.first == "0" && $0.allSatisfy(\.isASCIIDigit) }) {
                return nil
            }
            rest = rest[..<dash]
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3 else { return nil }
        var values: [Int] = []
        for number in numbers {
            guard !number.isEmpty, number.count <= 9, number.allSatisfy(\.isASCIIDigit),
                number == "0" || number.first != "0", let value = Int(number)
            else { return nil }
            values.append(value)
        }
        major = values[0]
        minor = values[1]
        patch = values[2]
        self.preRelease = preRelease
    }

    /// The version as written, without build metadata.
    public var description: String {
        "\(major).\(minor).\(patch)" + (preRelease.isEmpty ? "" : "-" + preRelease.joined(separator: "."))
    }

    /// Semantic Versioning's precedence: numbers first; a pre-release comes before its
    /// release; pre-release identifiers compare numerically when both are numbers, else as
    /// text, numbers first.
    public static func < (a: SemanticVersion, b: SemanticVersion) -> Bool {
        if (a.major, a.minor, a.patch) != (b.major, b.minor, b.patch) {
            return (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }
        switch (a.preRelease.isEmpty, b.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        for (x, y) in zip(a.preRelease, b.preRelease) where x != y {
            switch (Int(x), Int(y)) {
            case (let m?, let n?): return m < n
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return x < y
            }
        }
        return a.preRelease.count < b.preRelease.count
    }

    private static func areIdentifiers(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}
