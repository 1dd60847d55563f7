import Foundation
import MomentumSQLite
import MomentumStore
import Testing

/// `momentum operator add|list|disable`, run as an operator of the server would, on a
/// SQLite file.
@Suite(.serialized)
struct OperatorCommandTests {
    let cli = EvaluateCommandTests()

    func database() throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appending(path: "ops.sqlite").path)
    }

    @Test func addsListsAndDisablesOperatorsWithPasswordsFromStdinOrGenerated() throws {
        let (directory, path) = try database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let owner = try cli.momentum(
            [
                "operator", "add", "--database", path, "--email", "Owner@Example.com", "--name", "Owner", "--role",
                "owner", "--password-stdin",
            ], stdin: Data("a long enough password\n".utf8))
        #expect(owner.status == 0, "\(owner.stderr)")
        let ownerOut = String(decoding: owner.stdout, as: UTF8.self)
        #expect(ownerOut.contains("added owner@example.com"))
        #expect(!ownerOut.contains("password:"))
        // Without --password-stdin a password is generated and printed once.
        let support = try cli.momentum(
            [
                "operator", "add", "--database", path, "--email", "help@example.com", "--name", "Help", "--role",
                "support",
            ])
        #expect(support.status == 0, "\(support.stderr)")
        let generated = String(decoding: support.stdout, as: UTF8.self).components(separatedBy: "password: ")
        #expect(generated.count == 2 && generated[1].trimmingCharacters(in: .whitespacesAndNewlines).count >= 12)
        // The same email again, a short password, an unknown role: refused, nothing added.
        let again = try cli.momentum(
            ["operator", "add", "--database", path, "--email", "help@example.com", "--name", "H", "--role", "viewer"])
        #expect(again.status == 73, "\(again.stderr)")
        #expect(again.stderr.contains("email_taken"))
        let short = try cli.momentum(
            [
                "operator", "add", "--database", path, "--email", "v@example.com", "--name", "V", "--role", "viewer",
                "--password-stdin",
            ], stdin: Data("short\n".utf8))
        #expect(short.status == 65 && short.stderr.contains("password"), "\(short.stderr)")
        let role = try cli.momentum(
            ["operator", "add", "--database", path, "--email", "v@example.com", "--name", "V", "--role", "admin"])
        #expect(role.status != 0)
        let list = try cli.momentum(["operator", "list", "--database", path])
        let lines = String(decoding: list.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("owner@example.com\towner\tenabled") })
        #expect(lines.contains { $0.contains("help@example.com\tsupport\tenabled") })
        // The last owner is not disabled; another operator is.
        let last = try cli.momentum(["operator", "disable", "--database", path, "--email", "owner@example.com"])
        #expect(last.status == 73 && last.stderr.contains("last_owner"), "\(last.stderr)")
        let disabled = try cli.momentum(["operator", "disable", "--database", path, "--email", "HELP@example.com"])
        #expect(disabled.status == 0, "\(disabled.stderr)")
        let after = String(decoding: try cli.momentum(["operator", "list", "--database", path]).stdout, as: UTF8.self)
        #expect(after.contains("help@example.com\tsupport\tdisabled"))
        let unknown = try cli.momentum(["operator", "disable", "--database", path, "--email", "nobody@example.com"])
        #expect(unknown.status == 66, "\(unknown.stderr)")
    }

    @Test func whatTheCommandLineDidIsInTheAuditLog() async throws {
        let (directory, path) = try database()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try cli.momentum(
            ["operator", "add", "--database", path, "--email", "o@example.com", "--name", "O", "--role", "owner"])
        let store = try SQLiteStore(path: path)
        let entries = try await store.auditRecords(AuditRecordQuery(operatorID: "cli"))
        await store.close()
        #expect(entries.map(\.action) == ["operator.added"])
        #expect(entries.first?.detail == "o@example.com as owner")
    }
}
