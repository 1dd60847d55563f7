import Foundation

/// Which users a what-if replays: all users of the pack (no field), a count of them chosen
/// at random with a seed (`{"count": 200, "seed": 7}`), or a list of user ids
/// (`{"users": ["u_…"]}`).
///
/// A random sample is the `count` users of the pack whose ids hash lowest with the seed:
/// the same seed picks the same users for as long as they exist, whatever order they are
/// read in, and picking holds `count` ids at most.
public struct WhatIfSample: Hashable, Sendable, Codable {
    /// The most users a sample names or counts.
    public static let maximumUsers = 1_000

    /// How many users to choose at random.
    public var count: Int?
    /// The seed of the random choice (0 when not given).
    public var seed: Int64?
    /// The users to replay.
    public var users: [String]?

    /// All users of the pack.
    public static let all = WhatIfSample()

    /// Creates a sample.
    public init(count: Int? = nil, seed: Int64? = nil, users: [String]? = nil) {
        self.count = count
        self.seed = seed
        self.users = users
    }

    /// Whether it replays every user of the pack.
    public var isAll: Bool { count == nil && users == nil }

    /// Refuses a sample that names too many users, or both a count and users.
    ///
    /// - Throws: ``ServiceError`` `invalid_input` naming the field.
    public func validate() throws {
        var problems: [ServiceError.Field] = []
        if count != nil, users != nil {
            problems.append(.init(field: "sample", issue: "give a count or users, not both"))
        }
        if let count, !(1...Self.maximumUsers).contains(count) {
            problems.append(.init(field: "sample.count", issue: "must be 1 to \(Self.maximumUsers)"))
        }
        if seed != nil, count == nil {
            problems.append(.init(field: "sample.seed", issue: "a seed goes with a count"))
        }
        if let users {
            if !(1...Self.maximumUsers).contains(users.count) {
                problems.append(.init(field: "sample.users", issue: "must name 1 to \(Self.maximumUsers) users"))
            }
            for (index, user) in users.enumerated() where !(1...128).contains(user.utf8.count) {
                problems.append(.init(field: "sample.users[\(index)]", issue: "must have 1 to 128 bytes"))
            }
        }
        if !problems.isEmpty { throw ServiceError.invalid(problems) }
    }

    /// Where a user falls in a random sample with this seed (the lowest are chosen).
    func rank(of user: String) -> UInt64 {
        // FNV-1a over the seed and the id, then SplitMix64's finalizer: stable across
        // processes and platforms (Swift's own hashing is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: seed ?? 0)
        for byte in user.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    /// The JSON the store keeps.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    /// A sample from the store's JSON (all users when it cannot be read).
    static func stored(_ json: String) -> WhatIfSample {
        (try? JSONDecoder().decode(WhatIfSample.self, from: Data(json.utf8))) ?? .all
    }
}
