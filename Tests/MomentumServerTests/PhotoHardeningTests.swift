import CMomentumImage
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport
import NIOCore
import NIOPosix
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Issue 23, defect 3 and the image parts of defect 6: photos are checked by decoding them
/// and kept with a size-limited copy for cards; PNG share cards are drawn with a time
/// limit, a cap on how many at once, threads of their own and a cache; every answer says
/// `nosniff`.
@Suite struct PhotoHardeningTests {
    enum Backend: String, CaseIterable, Sendable {
        case sqlite, postgres
    }

    // MARK: Uploads

    @Test func aPhotoOverTheSizeLimitIsRefusedNamingTheLimit() async throws {
        // A 10000 × 10000 PNG is small in bytes (its rows compress to almost nothing).
        let huge = TestImages.encode(CMI_FORMAT_PNG, width: 10_000, height: 10_000, channels: 1)
        #expect(huge.count < 200_000)
        try await PhotoServer.with { _, client, token, memory in
            let answer = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: huge)
            #expect(answer.status == .unprocessableContent, "\(answer.text)")
            #expect(answer.errorCode == "photo_too_large")
            let message = try #require((answer.json["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("10000 × 10000 pixels"), "\(message)")
            #expect(message.contains("at most 8000 pixels on a side and 40 megapixels"), "\(message)")
        }
    }

    @Test func aJPEGHeaderFollowedByHTMLIsRefused() async throws {
        // A real JPEG's header, through its start-of-scan segment, then a web page.
        let jpeg = TestImages.encode(CMI_FORMAT_JPEG, width: 64, height: 48, channels: 3)
        let scan = try #require(TestImages.startOfScanEnd(jpeg))
        let fake = Array(jpeg[..<scan]) + Array("<html><script>alert(1)</script></html>".utf8)
        try await PhotoServer.with { _, client, token, memory in
            let answer = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: fake)
            #expect(answer.status == .unprocessableContent, "\(answer.text)")
            #expect(answer.errorCode == "invalid_photo")
        }
    }

    @Test func truncatedPhotosAreRefused() async throws {
        // A PNG whose chunks are whole but whose image data stops halfway, and a JPEG cut
        // in the middle of its image data.
        let png = TestImages.encode(CMI_FORMAT_PNG, width: 400, height: 300, channels: 3)
        let halfPNG = try #require(TestImages.halvingImageData(png))
        let jpeg = TestImages.encode(CMI_FORMAT_JPEG, width: 400, height: 300, channels: 3)
        let scan = try #require(TestImages.startOfScanEnd(jpeg))
        let halfJPEG = Array(jpeg.prefix(scan + (jpeg.count - scan) / 2))
        try await PhotoServer.with { _, client, token, memory in
            for bytes in [halfPNG, halfJPEG] {
                let answer = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: bytes)
                #expect(answer.status == .unprocessableContent, "\(answer.text)")
                #expect(answer.errorCode == "invalid_photo")
            }
            let whole = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: png)
            #expect(whole.status == .ok, "\(whole.text)")
        }
    }

    @Test(arguments: Backend.allCases)
    func aPhotoIsKeptWithACopyForCardsAndBothGoWhenItIsReplaced(_ backend: Backend) async throws {
        let photo = TestImages.encode(CMI_FORMAT_JPEG, width: 3_000, height: 2_000, channels: 3)
        try await PhotoServer.with(backend: backend) { state, client, token, memory in
            let uploaded = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: photo)
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            let paths = try #require(uploaded.json["photo"] as? [String: String])
            let original = try #require(paths["original"])
            let copy = try #require(paths["shareCopy"])

            let served = try await client.call(.get, "/v1/photos/\(original)", token: token)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/jpeg")
            let servedCopy = try await client.call(.get, "/v1/photos/\(copy)", token: token)
            #expect(servedCopy.status == .ok)
            // Decoded, the copy's longest side is the cards' limit; the original keeps its size.
            let unlimited = PhotoDecoder(limits: .init(maxSide: 100_000, maxPixels: .max, copySide: 0))
            let decodedCopy = try unlimited.decode(Array(servedCopy.body.readableBytesView))
            #expect(decodedCopy.width == state.configuration.shareCopySide)
            #expect(decodedCopy.height == 720)
            let decodedOriginal = try unlimited.decode(Array(served.body.readableBytesView))
            #expect(decodedOriginal.width == 3_000 && decodedOriginal.height == 2_000)

            // Replacing the photo deletes both files; so does removing it.
            let replaced = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: photo)
            #expect(replaced.status == .ok)
            for path in [original, copy] {
                #expect(try await client.call(.get, "/v1/photos/\(path)", token: token).status == .notFound)
            }
            let newPaths = try #require(replaced.json["photo"] as? [String: String])
            #expect(try await client.call(.delete, "/v1/memories/\(memory)/photo", token: token).status == .ok)
            for path in newPaths.values {
                #expect(try await client.call(.get, "/v1/photos/\(path)", token: token).status == .notFound)
            }
        }
    }

    // MARK: Share cards

    @Test func theCardOfALargeAllowedPhotoRendersFromItsCopy() async throws {
        let photo = TestImages.encode(CMI_FORMAT_PNG, width: 6_000, height: 4_000, channels: 3)
        try await PhotoServer.with { _, client, token, memory in
            let uploaded = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: photo)
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            let svg = try await client.call(.get, "/v1/memories/\(memory)/share-card?type=svg", token: token)
            // The card embeds the copy (a JPEG of at most 1080 pixels a side), not the original.
            #expect(svg.text.contains("data:image/jpeg;base64,"))
            #expect(svg.body.readableBytes < 1_000_000)
            let png = try await client.call(
                .get, "/v1/memories/\(memory)/share-card?format=story&type=png", token: token)
            #expect(png.status == .ok, "\(png.text.prefix(300))")
            let card = try PhotoDecoder(limits: .init(maxSide: 10_000, maxPixels: .max, copySide: 0))
                .decode(Array(png.body.readableBytesView))
            #expect(card.width == 1_080 && card.height == 1_920)
        }
    }

    @Test func aSecondIdenticalCardIsServedFromTheCache() async throws {
        try await PhotoServer.with { _, client, token, memory in
            let uri = "/v1/memories/\(memory)/share-card?format=square&type=png"
            let first = try await client.call(.get, uri, token: token)
            let second = try await client.call(.get, uri, token: token)
            #expect(first.status == .ok && second.status == .ok)
            #expect(first.body == second.body)
            let metrics = try await client.call(.get, "/metrics").text
            #expect(Self.counter("momentum_share_cards_rendered_total", in: metrics) == 1, "\(metrics)")
            #expect(Self.counter("momentum_share_card_cache_hits_total", in: metrics) == 1)
            // Another size is another card.
            let story = try await client.call(
                .get, "/v1/memories/\(memory)/share-card?format=story&type=png", token: token)
            #expect(story.status == .ok)
            let after = try await client.call(.get, "/metrics").text
            #expect(Self.counter("momentum_share_cards_rendered_total", in: after) == 2)
        }
    }

    @Test func cardsBeyondTheCapAreRefusedAtOnceWithRetryAfter() async throws {
        let rasterizer = try SlowRasterizer()
        defer { rasterizer.remove() }
        try await PhotoServer.with(
            configure: {
                $0.rasterizer = rasterizer.command
                $0.rasterizerConcurrency = 1
                $0.rasterizerQueueWait = .milliseconds(200)
                // Under a loaded CI machine the second request can take longer than the default
                // timeout to arrive; the held card must still hold its place until released.
                $0.rasterizerTimeout = .seconds(600)
            }
        ) { _, client, token, memory in
            async let held = client.call(
                .get, "/v1/memories/\(memory)/share-card?format=square&type=png", token: token)
            try await rasterizer.waitUntilStarted(1)
            // The one place is taken by a card that has not finished: the next is refused.
            let refused = try await client.call(
                .get, "/v1/memories/\(memory)/share-card?format=landscape&type=png", token: token)
            #expect(rasterizer.finished == 0)
            #expect(refused.status == .serviceUnavailable, "\(refused.text)")
            #expect(refused.errorCode == "rasterizer_busy")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            rasterizer.release()
            #expect(try await held.status == .ok)
            let metrics = try await client.call(.get, "/metrics").text
            #expect(Self.counter(#"momentum_share_cards_refused_total{reason="busy"}"#, in: metrics) == 1)
        }
    }

    @Test func aCardThatTakesTooLongIsStopped() async throws {
        let rasterizer = try SlowRasterizer()
        defer { rasterizer.remove() }
        try await PhotoServer.with(
            configure: {
                $0.rasterizer = rasterizer.command
                $0.rasterizerTimeout = .milliseconds(500)
            }
        ) { _, client, token, memory in
            let answer = try await client.call(
                .get, "/v1/memories/\(memory)/share-card?format=square&type=png", token: token)
            #expect(answer.status == .serviceUnavailable, "\(answer.text)")
            #expect(answer.errorCode == "rasterizer_timeout")
            // The rasterizer was killed, not left running.
            let pids = rasterizer.startedProcesses
            #expect(pids.count == 1)
            for pid in pids { #expect(kill(pid, 0) != 0, "process \(pid) is still running") }
            #expect(rasterizer.finished == 0)
        }
    }

    @Test func aSignInCompletesWhileCardsOccupyEveryRasterizerThread() async throws {
        // As many cards as NIOThreadPool.singleton has threads: drawn on that pool (where
        // bcrypt ran, and file work still runs) they would hold every thread of it.
        let cards = max(2, System.coreCount)
        let rasterizer = try SlowRasterizer()
        defer { rasterizer.remove() }
        try await PhotoServer.with(
            configure: {
                $0.rasterizer = rasterizer.command
                $0.rasterizerConcurrency = cards
                $0.rasterizerTimeout = .seconds(60)
            }
        ) { state, client, token, memory in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<cards {
                    group.addTask {
                        // One card: none is in the cache before it is drawn, so each takes a place.
                        let uri = "/v1/memories/\(memory)/share-card?format=square&type=png"
                        return try await client.call(.get, uri, token: token).status
                    }
                }
                try await rasterizer.waitUntilStarted(cards)
                let signIn = try await client.call(
                    .post, "/v1/sessions",
                    json: #"{"email": "photographer@example.com", "password": "correct horse", "deviceName": "laptop"}"#
                )
                // Signed in, and the shared pool free, while every card was still being drawn.
                #expect(signIn.status == .ok || signIn.status == .created, "\(signIn.text)")
                #expect(signIn.json["token"] is String)
                #expect(try await NIOThreadPool.singleton.runIfActive { 1 } == 1)
                #expect(rasterizer.finished == 0)
                #expect(state.services.rasterizer.work.threads > cards)
                rasterizer.release()
                for try await status in group { #expect(status == .ok) }
            }
        }
    }

    // MARK: nosniff

    @Test func everyKindOfAnswerSaysNoSniff() async throws {
        let photo = TestImages.encode(CMI_FORMAT_PNG, width: 40, height: 30, channels: 3)
        try await PhotoServer.with { _, client, token, memory in
            let uploaded = try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: photo)
            let original = try #require((uploaded.json["photo"] as? [String: Any])?["original"] as? String)
            let answers: [(String, JSONResponse)] = [
                ("JSON", try await client.call(.get, "/v1/memories", token: token)),
                ("photo", try await client.call(.get, "/v1/photos/\(original)", token: token)),
                ("share card", try await client.call(.get, "/v1/memories/\(memory)/share-card", token: token)),
                ("page", try await client.call(.get, "/signin")),
                ("static file", try await client.call(.get, "/static/app.css")),
                ("health", try await client.call(.get, "/healthz")),
                ("401", try await client.call(.get, "/v1/memories")),
                ("404", try await client.call(.get, "/no/such/address")),
                ("404 API", try await client.call(.get, "/v1/photos/memories/none.png", token: token)),
                ("422", try await client.call(.get, "/v1/memories?onThisDay=maybe", token: token)),
                ("415", try await client.call(.put, "/v1/memories/\(memory)/photo", token: token, bytes: [1, 2, 3])),
            ]
            for (kind, answer) in answers {
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(kind) (\(answer.status))")
            }
        }
    }

    // MARK: Helpers

    /// A counter's value in the Prometheus text, by its name and labels.
    static func counter(_ series: String, in metrics: String) -> Int? {
        for line in metrics.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Int(line.dropFirst(series.count + 1))
        }
        return nil
    }
}

/// A server whose first user ("photographer", pack `ollie`) has one memory.
enum PhotoServer {
    static func with(
        backend: PhotoHardeningTests.Backend = .sqlite,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (ServerState, any TestClientProtocol, String, String) async throws -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(
                path: "momentum-photo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(path: directory.appending(path: "server.sqlite").path)
            try await run(store, configure: configure, body)
        case .postgres:
            try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_photos") { url in
                let store = try PostgresStore(url: url)
                try await run(store, configure: configure, body)
            }
        }
    }

    private static func run(
        _ store: some MomentumStore, configure: (inout ServerConfiguration) -> Void,
        _ body: @escaping @Sendable (ServerState, any TestClientProtocol, String, String) async throws -> Void
    ) async throws {
        do {
            try await store.migrate()
            var configuration = ServerConfiguration()
            configuration.bcryptCost = 4
            configuration.userRequestsPerMinute = 0
            configuration.addressRequestsPerMinute = 0
            let start = Date(timeIntervalSince1970: 1_784_000_000)  // 2026-07-14T03:33:20Z
            configuration.clock = { start }
            configure(&configuration)
            let state = ServerState(store: store, configuration: configuration, logger: ServerHarness.quietLogger)
            try await Application(router: buildRouter(state)).test(.router) { client in
                let token = try await client.register("photographer", pack: "ollie")
                let memory = try await firstMemory(client, token: token, at: start)
                try await body(state, client, token, memory)
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Ollie's first outdoor potty, logged now: a milestone, so a memory.
    static func firstMemory(_ client: some TestClientProtocol, token: String, at now: Date) async throws -> String {
        let at = RFC3339.format(now.addingTimeInterval(60))
        let events = eventsJSON([
            #"{"id": "s1", "type": "subject", "at": "\#(at)", "tz": "Europe/Berlin", "subject": "ollie", "name": "Ollie", "kind": "puppy"}"#,
            #"{"id": "p1", "type": "log", "at": "\#(at)", "tz": "Europe/Berlin", "kind": "potty", "item": "outdoor", "subject": "ollie"}"#,
        ])
        let pushed = try await client.call(.post, "/v1/events", token: token, json: events)
        #expect(pushed.status == .ok, "\(pushed.text)")
        let listed = try await client.call(.get, "/v1/memories", token: token)
        let memories = try #require(listed.json["memories"] as? [[String: Any]], "\(listed.text)")
        let id = try #require(memories.first?["id"] as? String, "no memory: \(listed.text)")
        return id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
    }
}

/// A stand-in for `rsvg-convert` that waits until the test releases it (or 30 s pass),
/// then draws with the real one; it leaves a file per process started and finished.
struct SlowRasterizer: Sendable {
    let directory: URL
    var command: String { directory.appending(path: "slow-rsvg").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "momentum-slow-rsvg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            touch "\(directory.path)/started-$$"
            i=0
            while [ ! -e "\(directory.path)/release" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
            touch "\(directory.path)/finished-$$"
            exec rsvg-convert "$@"

            """
        try Data(script.utf8).write(to: directory.appending(path: "slow-rsvg"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: command)
    }

    private func files(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(prefix) }
    }

    /// The ids of the processes started so far.
    var startedProcesses: [pid_t] { files("started-").compactMap { pid_t($0.dropFirst("started-".count)) } }
    /// How many processes got to the end of their wait.
    var finished: Int { files("finished-").count }

    func waitUntilStarted(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while startedProcesses.count < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("only \(startedProcesses.count) of \(count) rasterizers started")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func release() {
        _ = FileManager.default.createFile(atPath: directory.appending(path: "release").path, contents: nil)
    }

    func remove() {
        release()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Images made here with libpng and libjpeg (no fixture files).
enum TestImages {
    private struct Shape {
        var width: Int
        var channels: Int
    }

    /// An image of horizontal stripes (each row one shade), encoded.
    static func encode(_ format: cmi_format, width: Int, height: Int, channels: Int) -> [UInt8] {
        var shape = Shape(width: width, channels: channels)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = withUnsafeMutablePointer(to: &shape) { pointer in
            cmi_encode(
                format, UInt32(width), UInt32(height), Int32(channels), 90,
                { context, y, row in
                    guard let shape = context?.assumingMemoryBound(to: Shape.self).pointee, let row else { return 1 }
                    row.update(repeating: UInt8(truncatingIfNeeded: y &* 7), count: shape.width * shape.channels)
                    return 0
                }, pointer, &output, &length, &message)
        }
        precondition(
            status == CMI_OK,
            "encoding failed: \(String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))"
        )
        defer { cmi_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// Where a JPEG's start-of-scan segment ends (where its entropy-coded data begins).
    static func startOfScanEnd(_ jpeg: [UInt8]) -> Int? {
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if jpeg[index + 1] == 0xDA { return index + 2 + length }
            index += 2 + length
        }
        return nil
    }

    /// The PNG with each `IDAT` chunk's data cut to its first half, each chunk still whole
    /// (its length and CRC right), so that only decoding can tell.
    static func halvingImageData(_ png: [UInt8]) -> [UInt8]? {
        var out = Array(png[0..<8])
        var index = 8
        while index + 12 <= png.count {
            let length = png[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = Array(png[(index + 4)..<(index + 8)])
            var data = Array(png[(index + 8)..<(index + 8 + length)])
            if type == Array("IDAT".utf8) { data = Array(data.prefix(data.count / 2)) }
            out += chunk(type, data)
            index += 12 + length
        }
        return out.count < png.count ? out : nil
    }

    private static func chunk(_ type: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in type + data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + type + data + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
