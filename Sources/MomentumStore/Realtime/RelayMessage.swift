import Foundation
import MomentumCore

/// A change on its way between server instances.
public struct RelayMessage: Sendable, Codable, Hashable {
    /// The instance that made the change.
    public var instance: String
    /// Whose data changed.
    public var user: String
    /// The change to deliver to the user's streams, if it is one.
    public var change: Change?
    /// A device session that was ended (its token hash), or `*` when every session of the
    /// user was (the account was deleted): other instances stop trusting what they cached.
    public var revoked: String?

    /// Creates a message.
    public init(instance: String, user: String, change: Change? = nil, revoked: String? = nil) {
        self.instance = instance
        self.user = user
        self.change = change
        self.revoked = revoked
    }

    /// The message's JSON: the bytes `MomentumJSON.encodeBytes` writes (keys in byte
    /// order, absent values left out), written directly, since every change a request
    /// makes is relayed (through `Encodable` this was 1.5% of a PostgreSQL check-in).
    public func json() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(contentsOf: "{".utf8)
        if let change {
            out.append(contentsOf: #""change":{"at":"#.utf8)
            MomentumJSON.appendInstant(change.at, to: &out)
            if let device = change.device {
                out.append(contentsOf: #","device":"#.utf8)
                MomentumJSON.appendString(device, to: &out)
            }
            if let headSeq = change.headSeq {
                out.append(contentsOf: #","headSeq":"#.utf8)
                MomentumJSON.appendInteger(headSeq, to: &out)
            }
            out.append(contentsOf: #","kind":"#.utf8)
            MomentumJSON.appendString(change.kind, to: &out)
            out.append(contentsOf: "},".utf8)
        }
        out.append(contentsOf: #""instance":"#.utf8)
        MomentumJSON.appendString(instance, to: &out)
        if let revoked {
            out.append(contentsOf: #","revoked":"#.utf8)
            MomentumJSON.appendString(revoked, to: &out)
        }
        out.append(contentsOf: #","user":"#.utf8)
        MomentumJSON.appendString(user, to: &out)
        out.append(contentsOf: "}".utf8)
        return out
    }
}
