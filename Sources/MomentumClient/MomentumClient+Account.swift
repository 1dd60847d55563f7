import Foundation
import MomentumAPI
import OpenAPIRuntime

// Account care: the password, and the whole account as an archive to keep or to take to
// another Momentum server. Online operations, like the social ones.

extension MomentumClient {
    /// Changes the account's password.
    ///
    /// - Parameters:
    ///   - current: The password in use now.
    ///   - new: The new password, 8 to 72 characters.
    ///   - signOutOtherDevices: Sign out every other device (this one stays signed in).
    /// - Returns: How many devices were signed out.
    /// - Throws: ``ClientError`` `wrong_password` (the current password is not right),
    ///   `invalid_input` naming `newPassword`, ``ClientError/busy`` after too many wrong
    ///   tries, or ``ClientError/offline``.
    @discardableResult
    public func changePassword(current: String, new: String, signOutOtherDevices: Bool = false) async throws -> Int {
        try await perform("changing the password") {
            try await api.changePassword(
                body: .json(
                    .init(currentPassword: current, newPassword: new, signOutOtherDevices: signOutOtherDevices)))
        } success: {
            try $0.ok.body.json.signedOutDevices
        }
    }

    /// The whole account as the server keeps it, as one tar file: the log, the profile, the
    /// memories with their photos. `momentum import` (or an operator's
    /// `POST /v1/admin/archives`) brings it into another Momentum server.
    ///
    /// - Parameter limit: The most bytes to accept (photos make archives large).
    /// - Throws: ``ClientError``, or ``ClientError/offline``.
    public func downloadArchive(limit: Int = 1 << 30) async throws -> Data {
        try await perform("downloading the archive") {
            try await api.downloadArchive()
        } success: { output in
            do {
                return try await Data(collecting: try output.ok.body.applicationXTar, upTo: limit)
            } catch {
                throw Self.unreachable(error)
            }
        }
    }

    /// The account's habits as CSV files in Loop Habit Tracker's layout, zipped: what a
    /// spreadsheet opens, and what ``importHabits(from:files:dryRun:)`` reads back.
    ///
    /// - Parameter limit: The most bytes to accept.
    /// - Throws: ``ClientError``, or ``ClientError/offline``.
    public func downloadCSV(limit: Int = 1 << 28) async throws -> Data {
        try await perform("downloading the CSV files") {
            try await api.downloadCSV()
        } success: { output in
            do {
                return try await Data(collecting: try output.ok.body.applicationZip, upTo: limit)
            } catch {
                throw Self.unreachable(error)
            }
        }
    }

    /// Brings in the habits and history another app exported: each habit new, starting on
    /// its first marked day, with its check-ins, amounts, skips and notes. An export with
    /// a bad line imports nothing (the error's details name each line as `file:line`);
    /// importing the same export again stores nothing twice. Sync afterwards to bring the
    /// imported history into this device.
    ///
    /// - Parameters:
    ///   - source: `.loop` (Loop Habit Tracker's CSV files, or Momentum's) or `.beaver`
    ///     (Beaver Habit Tracker's JSON).
    ///   - files: The export's files by their path in it, as text (unzip Loop's zip first).
    ///   - dryRun: Report what would be imported, storing nothing.
    /// - Returns: What came in (or would): each habit with its check-ins and skips, and
    ///   what was left out.
    /// - Throws: ``ClientError``, or ``ClientError/offline``.
    public func importHabits(
        from source: Components.Schemas.HabitImportRequest.SourcePayload, files: [String: String],
        dryRun: Bool = false
    ) async throws -> Components.Schemas.HabitImportReport {
        try await perform("the import") {
            try await api.importHabits(
                body: .json(.init(dryRun: dryRun, files: .init(additionalProperties: files), source: source)))
        } success: {
            try $0.ok.body.json
        }
    }
}
