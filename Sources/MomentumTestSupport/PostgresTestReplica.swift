import Foundation
import Logging
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway streaming replica of a ``PostgresTestCluster``, for tests of reads served
/// by a replica.
///
/// It is made with `pg_basebackup -R` (which writes `primary_conninfo` and
/// `standby.signal`) from the cluster, whose `initdb` defaults already allow it:
/// `wal_level = replica`, WAL senders, and a `replication` entry in `pg_hba.conf` for
/// loopback; it runs as a hot standby on a free loopback port.
public final class PostgresTestReplica: Sendable {
    /// The replica's base URL, without a database.
    public let baseURL: String
    private let dataDirectory: String
    private let runAs: String?

    private init(baseURL: String, dataDirectory: String, runAs: String?) {
        self.baseURL = baseURL
        self.dataDirectory = dataDirectory
        self.runAs = runAs
    }

    /// A URL for one database of the replica.
    public func url(database: String) -> String { "\(baseURL)/\(database)?sslmode=disable" }

    /// Makes a replica of `cluster` (a cluster this process started) and starts it.
    public static func start(replicating cluster: PostgresTestCluster) throws -> PostgresTestReplica {
        guard let primary = URLComponents(string: cluster.baseURL), let primaryPort = primary.port else {
            throw PostgresTestCluster.ClusterError(message: "not a URL: \(cluster.baseURL)")
        }
        let basebackup = try PostgresTestCluster.tool("pg_basebackup")
        let pgCtl = try PostgresTestCluster.tool("pg_ctl")
        let runAs = cluster.runAs
        let root = FileManager.default.temporaryDirectory.appending(path: "momentum-replica-\(UUID().uuidString)").path
        let data = root + "/data"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if let runAs { try FileManager.default.setAttributes([.ownerAccountName: runAs], ofItemAtPath: root) }
        try PostgresTestCluster.run(
            basebackup,
            [
                "-h", primary.host ?? "127.0.0.1", "-p", String(primaryPort), "-U", primary.user ?? "postgres", "-D",
                data, "-R", "-X", "stream", "--no-sync", "-c", "fast",
            ], as: runAs)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try PostgresTestCluster.freePort()
            do {
                try PostgresTestCluster.run(
                    pgCtl,
                    [
                        "-D", data, "-l", root + "/server.log", "-w", "-t", "60", "start", "-o",
                        "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200 -c hot_standby=on",
                    ], as: runAs)
                return PostgresTestReplica(
                    baseURL: "postgres://\(primary.user ?? "postgres")@127.0.0.1:\(port)", dataDirectory: data,
                    runAs: runAs)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? PostgresTestCluster.ClusterError(message: "could not start the replica")
    }

    /// Runs one statement on the replica's `postgres` database (`SELECT
    /// pg_wal_replay_pause()`, …), on a connection of its own.
    public func administer(_ sql: String) async throws {
        try await PostgresTestCluster.administer(sql, on: baseURL)
    }

    /// Stops the replica (immediately) and deletes its files.
    public func stop() {
        guard let pgCtl = try? PostgresTestCluster.tool("pg_ctl") else { return }
        try? PostgresTestCluster.run(pgCtl, ["-D", dataDirectory, "-m", "immediate", "-w", "stop"], as: runAs)
        try? FileManager.default.removeItem(atPath: (dataDirectory as NSString).deletingLastPathComponent)
    }
}
