import CoreMetrics
import Dispatch
import Foundation

/// Turns share-card SVG into PNG with librsvg's `rsvg-convert` (Debian: `librsvg2-bin`),
/// within bounds: each card has a time limit (the process is killed past it), at most
/// ``Limits/concurrency`` cards are drawn at once on the threads of ``ImageWork`` (never on
/// `NIOThreadPool.singleton`, where bcrypt runs), a card that finds no free place within
/// ``Limits/queueWait`` is answered `.unavailable` with a retry delay, and drawn cards are kept in a
/// ``ShareCardCache``.
public final class Rasterizer: Sendable {
    /// The bounds of the rasterizer.
    public struct Limits: Sendable {
        /// How long one card may take to draw.
        public var timeout: Duration
        /// How many cards may be drawn at once.
        public var concurrency: Int
        /// How long a card waits for a free place before it is refused.
        public var queueWait: Duration
        /// The bytes of drawn cards kept in memory.
        public var cacheBytes: Int
    }

    /// The rasterizer's executable.
    public let command: String
    let limits: Limits
    /// The threads cards are drawn on, which also decode uploaded photos.
    public let work: ImageWork
    private let slots: WorkSlots
    /// Photo decodes at once (one): an upload flood waits a bounded time, then gets a
    /// `.unavailable`, and never fills the image threads ahead of the cards.
    private let decodes = WorkSlots(count: 1)
    let cache: ShareCardCache
    private let rendered: CoreMetrics.Counter
    private let cacheHits: CoreMetrics.Counter
    private let busy: CoreMetrics.Counter
    private let timedOut: CoreMetrics.Counter

    /// Creates a rasterizer that draws on `work`'s threads and counts with `factory`.
    public init(command: String, limits: Limits, work: ImageWork, factory: any MetricsFactory) {
        self.command = command
        self.limits = limits
        self.work = work
        slots = WorkSlots(count: limits.concurrency)
        cache = ShareCardCache(capacity: limits.cacheBytes)
        rendered = Counter(label: "momentum_share_cards_rendered_total", factory: factory)
        cacheHits = Counter(label: "momentum_share_card_cache_hits_total", factory: factory)
        let refused = "momentum_share_cards_refused_total"
        busy = Counter(label: refused, dimensions: [("reason", "busy")], factory: factory)
        timedOut = Counter(label: refused, dimensions: [("reason", "timeout")], factory: factory)
    }

    /// Creates the rasterizer `configuration` describes, with threads of its own.
    public convenience init(configuration: ServerConfiguration, factory: any MetricsFactory) {
        self.init(
            command: configuration.rasterizer,
            limits: Limits(
                timeout: configuration.rasterizerTimeout, concurrency: configuration.rasterizerConcurrency,
                queueWait: configuration.rasterizerQueueWait, cacheBytes: configuration.shareCardCacheBytes),
            // A thread for each card that may be drawn at once, and one for decoding uploads.
            work: ImageWork(threads: configuration.rasterizerConcurrency + 1), factory: factory)
    }

    /// Runs a photo decode on the image threads, one at a time.
    ///
    /// - Throws: ``ServiceError`` `.unavailable` `photo_busy` (with a retry delay) when another decode
    ///   still runs after ``Limits/queueWait``.
    public func decodePhoto<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        guard await decodes.acquire(waitingAtMost: limits.queueWait) else {
            busy.increment()
            throw ServiceError(
                .unavailable(retryAfterSeconds: 2), "photo_busy",
                "the server is reading as many photos as it may at once; try again in 2 s")
        }
        defer { decodes.release() }
        return try await work.run(body)
    }

    /// The PNG of `svg` at exactly `width` × `height` pixels.
    ///
    /// - Throws: ``ServiceError`` `.unavailable`: `rasterizer_busy` (with a retry delay) when no place
    ///   came free in time, `rasterizer_timeout` when drawing took too long,
    ///   `rasterizer_unavailable` when the rasterizer is missing or failed.
    public func png(fromSVG svg: String, width: Int, height: Int) async throws -> [UInt8] {
        let key = ShareCardCache.Key(svg: svg, width: width, height: height)
        if let png = cache.card(for: key) {
            cacheHits.increment()
            return png
        }
        guard await slots.acquire(waitingAtMost: limits.queueWait) else {
            busy.increment()
            let retry = max(1, Int(limits.timeout.components.seconds / 2))
            throw ServiceError(
                .unavailable(retryAfterSeconds: retry), "rasterizer_busy",
                "the server is drawing as many share cards as it may at once; try again in \(retry) s "
                    + "(the SVG is available now)")
        }
        defer { slots.release() }
        // Another request may have drawn the same card while this one waited.
        if let png = cache.card(for: key) {
            cacheHits.increment()
            return png
        }
        let png = try await work.run { [self] in try render(svg: svg, width: width, height: height) }
        rendered.increment()
        cache.keep(png, for: key)
        return png
    }

    /// Runs the rasterizer once, on the calling thread, killing it past the time limit.
    private func render(svg: String, width: Int, height: Int) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appending(path: "card.svg")
        let output = directory.appending(path: "card.png")
        let errors = directory.appending(path: "errors.txt")
        try Data(svg.utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            command, "--width", String(width), "--height", String(height), "--format", "png", "--output",
            output.path, input.path,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errorFile = try FileHandle(forWritingTo: errors)
        defer { try? errorFile.close() }
        process.standardError = errorFile
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let missing = ServiceError(
            .unavailable(retryAfterSeconds: nil), "rasterizer_unavailable",
            "PNG share cards need \(command) (Debian package librsvg2-bin); the SVG is available")
        do {
            try process.run()
        } catch {
            throw missing
        }
        let (seconds, attoseconds) = limits.timeout.components
        let deadline =
            DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        if exited.wait(timeout: deadline) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            timedOut.increment()
            throw ServiceError(
                .unavailable(retryAfterSeconds: nil), "rasterizer_timeout",
                "the share card took longer than \(limits.timeout) to draw and was stopped; the SVG is available")
        }
        guard process.terminationStatus == 0, let png = try? Data(contentsOf: output) else {
            if process.terminationStatus == 127 { throw missing }
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ServiceError(
                .unavailable(retryAfterSeconds: nil), "rasterizer_unavailable",
                "the share card could not be rasterized: \(text.prefix(200))")
        }
        return Array(png)
    }
}
