import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PgBouncer in transaction mode in front of a ``PostgresTestCluster``, for
/// tests of a store behind a pooler.
///
/// It runs Debian's `pgbouncer` with an ini file of its own in a temporary directory,
/// listening on a free loopback port, with `auth_type = trust` and the cluster's one user;
/// every database of the cluster is reachable through it by the same name. As root it runs
/// as the cluster's system user (PgBouncer refuses to run as root).
public final class PgBouncerTestPooler: Sendable {
    /// The pooler's base URL, without a database (`postgres://postgres@127.0.0.1:6432`).
    public let baseURL: String
    private let directory: String
    private let runAs: String?

    private init(baseURL: String, directory: String, runAs: String?) {
        self.baseURL = baseURL
        self.directory = directory
        self.runAs = runAs
    }

    /// A URL for one database through the pooler.
    public func url(database: String) -> String { "\(baseURL)/\(database)?sslmode=disable" }

    /// Starts PgBouncer in transaction mode in front of `cluster`, with at most
    /// `serverConnections` server connections per database (few, so that consecutive
    /// transactions of one client run on different server connections).
    public static func start(
        forwardingTo cluster: PostgresTestCluster, serverConnections: Int = 4
    ) throws
        -> PgBouncerTestPooler
    {
        guard let server = URLComponents(string: cluster.baseURL), let serverPort = server.port else {
            throw PostgresTestCluster.ClusterError(message: "not a URL: \(cluster.baseURL)")
        }
        let user = server.user ?? "postgres"
        let pgbouncer = try PostgresTestCluster.tool("pgbouncer")
        let runAs = geteuid() == 0 ? "postgres" : nil
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "momentum-pgbouncer-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let runAs { try FileManager.default.setAttributes([.ownerAccountName: runAs], ofItemAtPath: directory) }
        try Data("\"\(user)\" \"\"\n".utf8).write(to: URL(fileURLWithPath: directory + "/userlist.txt"))
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try PostgresTestCluster.freePort()
            let ini = """
                [databases]
                * = host=\(server.host ?? "127.0.0.1") port=\(serverPort)

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = \(port)
                unix_socket_dir =
                auth_type = trust
                auth_file = \(directory)/userlist.txt
                pool_mode = transaction
                default_pool_size = \(serverConnections)
                max_client_conn = 1000
                ignore_startup_parameters = extra_float_digits,options
                logfile = \(directory)/pgbouncer.log
                pidfile = \(directory)/pgbouncer.pid

                """
            try Data(ini.utf8).write(to: URL(fileURLWithPath: directory + "/pgbouncer.ini"))
            do {
                try PostgresTestCluster.run(pgbouncer, ["-d", "-q", directory + "/pgbouncer.ini"], as: runAs)
                let pooler = PgBouncerTestPooler(
                    baseURL: "postgres://\(user)@127.0.0.1:\(port)", directory: directory, runAs: runAs)
                try pooler.waitUntilListening(port: port)
                return pooler
            } catch {
                lastError = error
            }
        }
        throw lastError ?? PostgresTestCluster.ClusterError(message: "could not start PgBouncer")
    }

    /// Waits (up to 10 s) until something accepts connections on the port.
    private func waitUntilListening(port: Int) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return }
            usleep(50_000)
        }
        let log = (try? String(contentsOfFile: directory + "/pgbouncer.log", encoding: .utf8)) ?? ""
        throw PostgresTestCluster.ClusterError(message: "PgBouncer did not listen on \(port):\n\(log)")
    }

    /// Stops PgBouncer and deletes its files.
    public func stop() {
        if let text = try? String(contentsOfFile: directory + "/pgbouncer.pid", encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            // PgBouncer 1.18 may wait for its clients after SIGTERM; a test's pooler holds no
            // data, so one still running after 2 s is killed (it was left running before).
            kill(pid, SIGTERM)
            var deadline = Date().addingTimeInterval(2)
            while kill(pid, 0) == 0, Date() < deadline { usleep(20_000) }
            if kill(pid, 0) == 0 {
                kill(pid, SIGKILL)
                deadline = Date().addingTimeInterval(2)
                while kill(pid, 0) == 0, Date() < deadline { usleep(20_000) }
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
