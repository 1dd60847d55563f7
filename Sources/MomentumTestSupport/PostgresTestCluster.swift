import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests and benchmarks.
///
/// When `POSTGRES_URL` is set, that server is used. Otherwise ``shared`` runs the installed
/// `initdb` and `pg_ctl` to create a cluster in a temporary directory, listening on a free
/// loopback port, and stops and deletes it when the process exits. As root (PostgreSQL
/// refuses to run as root) the cluster runs as the `postgres` system user.
public final class PostgresTestCluster: Sendable {
    /// The server's base URL, without a database (`postgres://postgres@127.0.0.1:54321`).
    public let baseURL: String
    /// The data directory of a cluster this process started, if it started one.
    public let dataDirectory: String?
    let runAs: String?

    private init(baseURL: String, dataDirectory: String?, runAs: String?) {
        self.baseURL = baseURL
        self.dataDirectory = dataDirectory
        self.runAs = runAs
    }

    /// A URL for one database of the server.
    public func url(database: String) -> String { "\(baseURL)/\(database)?sslmode=disable" }

    /// The cluster every test of the process shares, started on first use.
    public static var shared: PostgresTestCluster {
        get throws { try sharedResult.get() }
    }

    private static let sharedResult: Result<PostgresTestCluster, any Error> = {
        do {
            let cluster = try start()
            atexit { PostgresTestCluster.stopShared() }
            return .success(cluster)
        } catch {
            return .failure(error)
        }
    }()

    private static func stopShared() {
        if case .success(let cluster) = sharedResult { cluster.stop() }
    }

    /// Uses `POSTGRES_URL`, or starts a new cluster.
    public static func start() throws -> PostgresTestCluster {
        if let url = ProcessInfo.processInfo.environment["POSTGRES_URL"], !url.isEmpty {
            var parts = URLComponents(string: url)
            parts?.path = ""
            parts?.query = nil
            let base = parts?.string ?? url
            return PostgresTestCluster(baseURL: base, dataDirectory: nil, runAs: nil)
        }
        let initdb = try tool("initdb")
        let pgCtl = try tool("pg_ctl")
        let runAs: String? = geteuid() == 0 ? "postgres" : nil
        let root = FileManager.default.temporaryDirectory.appending(path: "momentum-pg-\(UUID().uuidString)").path
        let data = root + "/data"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if let runAs {
            try FileManager.default.setAttributes([.ownerAccountName: runAs], ofItemAtPath: root)
        }
        try run(initdb, ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"], as: runAs)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try freePort()
            do {
                try run(
                    pgCtl,
                    [
                        "-D", data, "-l", root + "/server.log", "-w", "-t", "60", "start", "-o",
                        "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200",
                    ], as: runAs)
                return PostgresTestCluster(
                    baseURL: "postgres://postgres@127.0.0.1:\(port)", dataDirectory: data, runAs: runAs)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? ClusterError(message: "could not start PostgreSQL")
    }

    /// Stops the cluster (immediately) and deletes its files, if this process started it.
    public func stop() {
        guard let dataDirectory, let pgCtl = try? Self.tool("pg_ctl") else { return }
        try? Self.run(pgCtl, ["-D", dataDirectory, "-m", "immediate", "-w", "stop"], as: runAs)
        try? FileManager.default.removeItem(atPath: (dataDirectory as NSString).deletingLastPathComponent)
    }

    /// A failure to start the cluster, with the tool's output.
    public struct ClusterError: Error, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    static func tool(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var candidates = path.split(separator: ":").map { "\($0)/\(name)" }
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            candidates += versions.sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin/\(name)" }
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ClusterError(
                message: "\(name) not found: install PostgreSQL (apt-get install postgresql) or set POSTGRES_URL")
        }
        return found
    }

    static func run(_ tool: String, _ arguments: [String], as user: String?) throws {
        // posix_spawn and waitpid rather than Foundation's Process: the server that
        // `pg_ctl start` leaves running inherits the descriptors Process watches to notice
        // that its child exited, and Process would wait forever.
        let log = FileManager.default.temporaryDirectory.appending(path: "momentum-pg-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var words = [tool] + arguments
        if let user { words = ["/usr/sbin/runuser", "-u", user, "--"] + words }
        // The server must not inherit this process's other descriptors: a test running at
        // the same time may hold a pipe to a child, and a server keeping its write end open
        // would keep that child from ever seeing the end of its input. The shell closes
        // every descriptor above 2 before it starts the tool.
        let closeInherited =
            #"for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done 2>/dev/null; "#
        let command =
            closeInherited + words.map(quote).joined(separator: " ") + " < /dev/null > \(quote(log.path)) 2>&1"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] =
            ["/bin/bash", "-c", command].map { (word: String) in strdup(word) } + [nil]
        defer { for word in argv { free(word) } }
        let spawned = posix_spawn(&pid, "/bin/bash", nil, nil, argv, environ)
        guard spawned == 0 else { throw ClusterError(message: "cannot start \(tool): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw ClusterError(message: "\(tool) \(arguments.joined(separator: " ")) failed:\n\(text)")
        }
    }

    /// A TCP port on loopback that nothing listens on at the moment (the kernel picks it).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw ClusterError(message: "bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
