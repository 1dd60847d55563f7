import Foundation
import MomentumAPI
import MomentumCore
import MomentumStore

// An account as a whole: its archive out, and an archive in (the operator's import).

extension Accounts {
    /// The whole account as a tar file (`AccountArchive/tar()`): the log, the profile, the
    /// memories with their photos and the celebrations, as `momentum export` writes it.
    public func archive(of user: String) async throws -> Data {
        try await store.exportAccount(user).tar()
    }

    /// Creates an account on this server from an archive another server (or `momentum
    /// export`) wrote: the operator's import (`POST /v1/admin/archives`).
    ///
    /// - Throws: `.invalid` listing each problem of the archive (nothing is imported then), `.conflict`
    ///   when its account id or email is taken here.
    public func importArchive(_ tar: Data) async throws -> AccountArchive {
        let archive: AccountArchive
        do {
            archive = try AccountArchive.read(tar: tar, origin: "the archive", packs: store.packLibrary)
        } catch {
            throw ServiceError(
                .invalid, "invalid_archive", error.message,
                fields: error.problems.map { problem in
                    .init(field: problem.line.map { "\(problem.file):\($0)" } ?? problem.file, issue: problem.reason)
                })
        }
        if try await store.account(id: archive.account.id) != nil {
            throw ServiceError(
                .conflict, "account_exists", "this server already has the account '\(archive.account.id)'",
                fields: [.init(field: "account", issue: "exists")])
        }
        if let email = archive.account.email, try await store.account(email: email) != nil {
            throw ServiceError(
                .conflict, "email_taken", "an account with the email \(email) exists on this server",
                fields: [.init(field: "email", issue: "is taken")])
        }
        try await store.importAccount(archive, now: now())
        try await notifications.touch(archive.account.id)
        return archive
    }
}
