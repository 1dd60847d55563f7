import Foundation
import NIOCore
import NIOPosix

/// A lean HTTP/1.1 load generator, in the manner of `wrk`: each connection sends a request,
/// waits for the whole response, records its latency and sends the next (closed loop, keep
/// alive). Requests are encoded once, before the run; a response is parsed only as far as
/// its status code and length. Everything runs in a channel handler on NIO's event loops,
/// with no task hops, so the generator takes as little as it can of the two cores it shares
/// with the server.
enum LoadGenerator {
    /// What one run measured: every latency in nanoseconds and the count of non-2xx answers.
    struct Result: Sendable {
        var latencies: [UInt64] = []
        var ends: [UInt64] = []
        var errors = 0
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs one closed-loop connection per element of `requests` until `deadline`
    /// (a `Stopwatch` instant); connection *i* cycles through `requests[i]`, whole encoded
    /// HTTP/1.1 requests, at most `limit` times when given (1: each request once).
    static func run(
        port: Int, requests: [[ByteBuffer]], until deadline: UInt64, limit: Int? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Result.self) { tasks in
            for own in requests where !own.isEmpty {
                let most = limit.map { $0 * own.count } ?? Int.max
                tasks.addTask {
                    let loop = group.next()
                    let done = loop.makePromise(of: Result.self)
                    let channel = try await ClientBootstrap(group: loop)
                        .channelOption(.socketOption(.tcp_nodelay), value: 1)
                        .channelInitializer { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    Handler(requests: own, deadline: deadline, most: most, done: done))
                            }
                        }
                        .connect(host: "127.0.0.1", port: port).get()
                    let result = try await done.futureResult.get()
                    try? await channel.close()
                    return result
                }
            }
            var total = Result()
            for try await part in tasks {
                total.latencies += part.latencies
                total.ends += part.ends
                total.errors += part.errors
            }
            return total
        }
    }

    /// Encodes a request with the given method, path and headers (and an empty body).
    static func request(_ method: String, _ path: String, headers: [(String, String)] = []) -> ByteBuffer {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if method == "POST" || method == "PUT" || method == "PATCH" { text += "Content-Length: 0\r\n" }
        text += "\r\n"
        return ByteBuffer(string: text)
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let requests: [ByteBuffer]
        private let deadline: UInt64
        /// The most requests to send.
        private let most: Int
        private let done: EventLoopPromise<Result>
        private var next = 0
        private var sentAt: UInt64 = 0
        private var pending: ByteBuffer?
        private var result = Result()
        private var finished = false

        init(requests: [ByteBuffer], deadline: UInt64, most: Int, done: EventLoopPromise<Result>) {
            self.requests = requests
            self.deadline = deadline
            self.most = most
            self.done = done
            result.latencies.reserveCapacity(4_096)
        }

        func channelActive(context: ChannelHandlerContext) {
            send(context: context)
        }

        private func send(context: ChannelHandlerContext) {
            let request = requests[next % requests.count]
            next += 1
            sentAt = Stopwatch.now()
            context.writeAndFlush(wrapOutboundOut(request), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var incoming = unwrapInboundIn(data)
            if pending == nil {
                pending = incoming
            } else {
                pending!.writeBuffer(&incoming)
            }
            while let status = takeResponse() {
                let end = Stopwatch.now()
                result.latencies.append(end &- sentAt)
                result.ends.append(end)
                if !(200..<300).contains(status) { result.errors += 1 }
                if next < most, Stopwatch.now() < deadline {
                    send(context: context)
                } else {
                    finish(.success(result))
                    context.close(promise: nil)
                    return
                }
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failure(Failure(description: "the server closed a connection during the run")))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            finish(.failure(error))
            context.close(promise: nil)
        }

        private func finish(_ outcome: Swift.Result<Result, any Error>) {
            guard !finished else { return }
            finished = true
            done.completeWith(outcome)
        }

        /// Removes one whole response from the front of `pending` and returns its status
        /// code, or `nil` while it is incomplete. Responses must carry `Content-Length`.
        private func takeResponse() -> Int? {
            guard var buffer = pending else { return nil }
            let view = buffer.readableBytesView
            guard let headerEnd = Self.headerEnd(view) else { return nil }
            let head = String(decoding: view[view.startIndex..<headerEnd], as: UTF8.self)
            let lines = head.split(separator: "\r\n")
            guard let statusLine = lines.first, statusLine.count >= 12,
                let status = Int(statusLine.dropFirst(9).prefix(3))
            else {
                finish(.failure(Failure(description: "malformed status line: \(lines.first ?? "")")))
                return nil
            }
            var length: Int?
            for line in lines.dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "content-length" {
                    length = Int(parts[1].trimmingCharacters(in: .whitespaces))
                }
            }
            guard let length else {
                finish(.failure(Failure(description: "a response without Content-Length: \(head)")))
                return nil
            }
            let total = headerEnd + 4 - view.startIndex + length
            guard buffer.readableBytes >= total else { return nil }
            buffer.moveReaderIndex(forwardBy: total)
            pending = buffer.readableBytes == 0 ? nil : buffer
            return status
        }

        /// Where the first `\r\n\r\n` (the end of a response's head) starts, if it is there.
        private static func headerEnd(_ bytes: ByteBufferView) -> ByteBufferView.Index? {
            guard bytes.count >= 4 else { return nil }
            var index = bytes.startIndex
            while index <= bytes.endIndex - 4 {
                if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                    return index
                }
                index += 1
            }
            return nil
        }
    }
}
