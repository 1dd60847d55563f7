import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Secrets in one JSON file that only its owner may read (mode 0600): the store of
/// platforms without a Keychain (Linux).
///
/// Each change writes a new file beside the old one, created with mode 0600, and renames
/// it over the old one: a crash leaves either the old secrets or the new, never half a
/// file, and no secret is ever in a file others may read.
public final class FileTokenStore: TokenStore, @unchecked Sendable {  // every access holds the lock
    /// The file.
    public let path: String
    private let lock = NSLock()

    /// A store in the file at `path` (created with the first secret).
    public init(path: String) {
        self.path = path
    }

    /// The secret kept for `key`, or `nil` when there is none.
    public func read(_ key: TokenKey) throws -> String? {
        try lock.withLock { try load()[key.description] }
    }

    /// Keeps `secret` for `key`, replacing any earlier one.
    public func save(_ secret: String, for key: TokenKey) throws {
        try lock.withLock {
            var secrets = try load()
            guard secrets[key.description] != secret else { return }
            secrets[key.description] = secret
            try replace(with: secrets)
        }
    }

    /// Forgets the secret kept for `key`; forgetting a missing one is no error.
    public func delete(_ key: TokenKey) throws {
        try lock.withLock {
            var secrets = try load()
            guard secrets.removeValue(forKey: key.description) != nil else { return }
            try replace(with: secrets)
        }
    }

    private func load() throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        do {
            return try JSONDecoder().decode([String: String].self, from: data)
        } catch {
            throw ClientError.corruptDatabase("the token file \(path) is unreadable: \(error)")
        }
    }

    private func replace(with secrets: [String: String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(secrets)
        let temporary = path + ".\(UUID().uuidString).tmp"
        // Created 0600 by open(2) itself, so that the secrets are never in a file others may read.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw ClientError.corruptDatabase("cannot create the token file \(temporary): errno \(errno)")
        }
        let written = data.withUnsafeBytes { bytes in
            bytes.baseAddress.map { write(descriptor, $0, bytes.count) } ?? 0
        }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw ClientError.corruptDatabase("cannot write the token file \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(atPath: temporary)
            throw ClientError.corruptDatabase("cannot replace the token file \(path): errno \(code)")
        }
    }
}
