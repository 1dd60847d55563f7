import Foundation
import NIOCore
import NIOPosix

/// HTTP/1.1 over a plain socket, for what the test client hides: the exact header lines
/// of an answer, connections the server closes, requests sent at once from many sockets.
enum RawHTTP {
    /// An answer as it came over the wire.
    struct Answer: Sendable {
        let raw: String
        /// The status code of the first answer.
        var status: Int {
            raw.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        }
        /// The first answer's header lines, lowercased.
        var headerLines: [String] {
            let head = raw.components(separatedBy: "\r\n\r\n").first ?? ""
            return head.components(separatedBy: "\r\n").dropFirst().map { $0.lowercased() }
        }
        var body: String { raw.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n") }
    }

    /// Sends `request` on a new connection and collects what arrives until the server
    /// closes it (or `timeout` passes, then throws).
    static func exchange(port: Int, _ request: String, timeout: Duration = .seconds(30)) async throws -> Answer {
        let channel = try await connect(port: port)
        return try await withThrowingTaskGroup(of: Answer?.self) { group in
            group.addTask {
                var received = ""
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: request))
                    for try await chunk in inbound { received += String(buffer: chunk) }
                }
                return Answer(raw: received)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let answer = try await group.next() ?? nil else {
                try? await channel.channel.close()
                throw Timeout()
            }
            return answer
        }
    }

    /// A request with `Connection: close`, so the answer ends with the connection.
    static func send(
        port: Int, _ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil
    ) async throws -> Answer {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        if let json {
            lines.append("Content-Type: application/json")
            lines.append("Content-Length: \(json.utf8.count)")
        }
        return try await exchange(port: port, lines.joined(separator: "\r\n") + "\r\n\r\n" + (json ?? ""))
    }

    static func connect(port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    struct Timeout: Error {}
}
