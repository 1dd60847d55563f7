import Foundation
import MomentumCore

/// A whole account, as `momentum export` writes it and `momentum import` reads it.
///
/// On disk an archive is a directory:
///
/// - `account.jsonl`: one JSON object per line, each with a `type`: the `account` (first),
///   its `profile`, every `event` of the log in order (with `seq`, `received_at` and
///   `device`), a `photo` line per stored photo, and the `celebrations` planner.
/// - `memories.jsonl`: the memories with their notes and photo paths, in seed 000's format.
/// - `memories/…`: the photo files, at the paths the memories name.
///
/// Device sessions and idempotency records are not exported: they belong to the server
/// the account leaves. Export, import and export again gives the same bytes.
public struct AccountArchive: Hashable, Sendable {
    /// The account.
    public var account: Account
    /// Its profile.
    public var profile: Profile
    /// The whole log, in order.
    public var events: [StoredEvent]
    /// The memories, with notes and photo paths.
    public var memories: [Memory]
    /// The photo files.
    public var photos: [StoredPhoto]
    /// The celebration planner, if the user has one.
    public var celebrations: CelebrationPlanner?
    /// For each memory id, the line of `memories.jsonl` it came from (when read from disk).
    public var memoryLines: [String: Int] = [:]

    /// Creates an archive.
    public init(
        account: Account, profile: Profile, events: [StoredEvent], memories: [Memory], photos: [StoredPhoto],
        celebrations: CelebrationPlanner?
    ) {
        self.account = account
        self.profile = profile
        self.events = events
        self.memories = memories
        self.photos = photos
        self.celebrations = celebrations
    }

    /// The name of the main file.
    public static let accountFile = "account.jsonl"
    /// The name of the memories file.
    public static let memoriesFile = "memories.jsonl"
}

/// The lines of `account.jsonl`.
struct ArchiveLine: Codable {
    var type: String
    var id: String?
    var email: String?
    var passwordHash: String?
    var createdAt: Date?
    var profile: Profile?
    var seq: Int64?
    var receivedAt: Date?
    var device: String?
    var event: Event?
    var path: String?
    var contentType: String?
    var planner: CelebrationPlanner?

    enum CodingKeys: String, CodingKey {
        case type, id, email, passwordHash = "password_hash", createdAt = "created_at", profile, seq
        case receivedAt = "received_at", device, event, path, contentType = "content_type", planner
    }

    init(type: String) { self.type = type }
}
