import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumServer
import MomentumServices
import Testing

@Suite struct MemoryAndOpsRouteTests {
    static let journal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/ollie.jsonl")

    /// A 2×2 PNG with a tEXt chunk holding a location.
    static let pngWithText: [UInt8] = {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let length = UInt32(data.count)
            var bytes = [
                UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            ]
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            bytes += body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
            return bytes
        }
        let header: [UInt8] = [0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]
        // zlib stream of two rows of (filter 0 + 2 RGB pixels), stored uncompressed.
        let raw: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]
        var adlerA: UInt32 = 1
        var adlerB: UInt32 = 0
        for byte in raw {
            adlerA = (adlerA + UInt32(byte)) % 65_521
            adlerB = (adlerB + adlerA) % 65_521
        }
        let adler = adlerB << 16 | adlerA
        let zlib: [UInt8] =
            [0x78, 0x01, 0x01, UInt8(raw.count), 0, ~UInt8(raw.count), 0xFF] + raw
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("tEXt", Array("Location\u{0}52.52N 13.40E".utf8)) + chunk("IDAT", zlib) + chunk("IEND", [])
    }()

    /// Registers `name` on the ollie pack before Ollie's journal begins, then sends the
    /// journal as the family's phone would have: each week's events within that week
    /// (a client may not send events older than its account or its pack's offline
    /// window). The clock ends where it started.
    func journalAccount(
        _ name: String, harness: ServerHarness, client: some TestClientProtocol
    ) async throws -> String {
        let lines = try String(contentsOf: Self.journal, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
        let dated = try lines.map { line -> (Date, String) in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (try #require(RFC3339.parse(object["at"] as? String ?? "")), line)
        }.sorted { $0.0 < $1.0 }
        let end = harness.now
        let first = try #require(dated.first?.0)
        harness.clock.value.withLock { $0 = first.addingTimeInterval(-86_400) }
        let token = try await client.register(name, zone: "Europe/Berlin", pack: "ollie")
        var index = 0
        while index < dated.count {
            let weekStart = dated[index].0
            var chunk: [String] = []
            while index < dated.count, dated[index].0 < weekStart.addingTimeInterval(7 * 86_400), chunk.count < 500 {
                chunk.append(dated[index].1)
                index += 1
            }
            let last = dated[index - 1].0
            harness.clock.value.withLock { $0 = last.addingTimeInterval(60) }
            let response = try await client.call(.post, "/v1/events", token: token, json: eventsJSON(chunk))
            #expect(response.status == .ok)
            let statuses = (response.json["results"] as? [[String: Any]] ?? []).map { $0["status"] as? String }
            #expect(statuses.allSatisfy { $0 == "applied" }, "\(response.text.prefix(400))")
        }
        harness.clock.value.withLock { $0 = end }
        return token
    }

    @Test func memoriesNotesPhotosAndShareCards() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await journalAccount("ollie", harness: harness, client: client)
            let listed = try await client.call(.get, "/v1/memories", token: token)
            let memories = try #require(listed.json["memories"] as? [[String: Any]])
            #expect(memories.count > 10)
            let potty = try await client.call(.get, "/v1/memories?category=potty", token: token)
            #expect(
                (potty.json["memories"] as? [[String: Any]])?.allSatisfy { $0["category"] as? String == "potty" }
                    == true)
            let notOnThisDay = try await client.call(.get, "/v1/memories?onThisDay=0", token: token)
            #expect((notOnThisDay.json["memories"] as? [Any])?.count == memories.count)
            let onThisDay = try await client.call(.get, "/v1/memories?onThisDay=true", token: token)
            #expect(((onThisDay.json["memories"] as? [Any])?.count ?? .max) < memories.count)
            let unclear = try await client.call(.get, "/v1/memories?onThisDay=maybe", token: token)
            #expect(unclear.status == .unprocessableContent)
            #expect(unclear.errorFields == ["onThisDay"])
            let id = try #require(memories.first?["id"] as? String)
            let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id

            let noted = try await client.call(
                .patch, "/v1/memories/\(escaped)", token: token, json: #"{"note": "Best day"}"#)
            #expect(noted.status == .ok, "\(noted.text) \(id) \(escaped)")
            #expect(noted.json["note"] as? String == "Best day")

            let uploaded = try await client.call(
                .put, "/v1/memories/\(escaped)/photo", token: token, bytes: Self.pngWithText)
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            let path = try #require((uploaded.json["photo"] as? [String: Any])?["original"] as? String)
            let photo = try await client.call(.get, "/v1/photos/\(path)", token: token)
            #expect(photo.status == .ok)
            #expect(photo.headers[.contentType] == "image/png")
            let stored = Array(photo.body.readableBytesView)
            #expect(stored.count < Self.pngWithText.count)
            #expect(!String(decoding: stored, as: UTF8.self).contains("52.52N"))
            #expect(stored.starts(with: [0x89, 0x50, 0x4E, 0x47]))

            let text = try await client.call(
                .put, "/v1/memories/\(escaped)/photo", token: token, bytes: Array("not a photo".utf8))
            #expect(text.status == .unsupportedMediaType)
            let huge = try await client.call(
                .put, "/v1/memories/\(escaped)/photo", token: token, bytes: [UInt8](repeating: 0, count: (8 << 20) + 1))
            #expect(huge.status == .contentTooLarge)
            #expect((huge.json["error"] as? [String: Any])?["message"] as? String == "a photo may be at most 8 MB")

            for format in ShareCardFormat.allCases {
                let svg = try await client.call(
                    .get, "/v1/memories/\(escaped)/share-card?format=\(format.rawValue)&type=svg", token: token)
                #expect(svg.status == .ok)
                #expect(svg.text.contains(#"width="\#(format.width)""#))
                let png = try await client.call(
                    .get, "/v1/memories/\(escaped)/share-card?format=\(format.rawValue)&type=png", token: token)
                #expect(png.status == .ok, "\(png.text.prefix(200))")
                let bytes = Array(png.body.readableBytesView)
                let width = bytes[16...19].reduce(0) { $0 << 8 | Int($1) }
                let height = bytes[20...23].reduce(0) { $0 << 8 | Int($1) }
                #expect(width == format.width && height == format.height)
            }
            let badFormat = try await client.call(
                .get, "/v1/memories/\(escaped)/share-card?format=poster", token: token)
            #expect(badFormat.errorFields == ["format"])

            let achievements = try await client.call(.get, "/v1/achievements", token: token)
            #expect((achievements.json["unlocked"] as? [Any])?.isEmpty == false)
            let progression = try await client.call(.get, "/v1/progression", token: token)
            #expect(progression.status == .ok)
            let next = try await client.call(.get, "/v1/celebrations/next", token: token)
            let celebration = try #require(next.json["celebration"] as? [String: Any])
            let celebrationID = try #require(celebration["id"] as? String)
            let encoded =
                celebrationID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
                ?? celebrationID
            #expect(
                try await client.call(.post, "/v1/celebrations/\(encoded)/shown", token: token).status == .noContent)
            #expect(try await client.call(.post, "/v1/celebrations/nope/dismissed", token: token).status == .notFound)
            #expect(try await client.call(.get, "/v1/stats", token: token).status == .ok)
            #expect(try await client.call(.get, "/v1/subjects", token: token).json["subjects"] is [Any])
        }
    }

    @Test func aTimeZoneHopIsFlaggedForReviewAndTheDataIsKept() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await harness.register("hopper", zone: "America/Los_Angeles", daysAgo: 1, client: client)
            let now = harness.now
            _ = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    habitCreated("walk", at: now.addingTimeInterval(-3_600), zone: "America/Los_Angeles"),
                    completion("la", habit: "walk", at: now.addingTimeInterval(-1_800), zone: "America/Los_Angeles"),
                ]))
            let hop = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([completion("tokyo", habit: "walk", at: now, zone: "Asia/Tokyo")]))
            #expect((hop.json["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")

            #expect(try await client.call(.get, "/v1/admin/review-flags").status == .unauthorized)
            let flags = try await client.call(
                .get, "/v1/admin/review-flags", headers: [.authorization: "Bearer mop_harness-owner"])
            let list = try #require(flags.json["flags"] as? [[String: Any]])
            #expect(list.count == 1)
            #expect(list.first?["kind"] as? String == "time_zone_hop")
            let pulled = try await client.call(.get, "/v1/events", token: token)
            #expect((pulled.json["events"] as? [Any])?.count == 3)
        }
    }

    @Test(.enabled(if: ServerHarness.instances == 1, "counts one SQLite instance's requests and appends"))
    func healthReadinessMetricsAndTheDocument() async throws {
        try await ServerHarness.with { _, client in
            #expect(try await client.call(.get, "/healthz").json["status"] as? String == "ok")
            #expect(try await client.call(.get, "/readyz").json["status"] as? String == "ready")
            let token = try await client.register("metric")
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"name": "Walk", "habit": "walk"}"#)
            #expect(created.status == .created)
            let metrics = try await client.call(.get, "/metrics")
            #expect(metrics.text.contains(#"http_requests_total{method="POST",route="/v1/accounts",status="201"}"#))

            // How the store wrote appends (SQLite: each in a checked transaction), carried
            // into counters at each scrape.
            func appends(_ path: String, in text: String) -> Int? {
                let prefix = #"momentum_store_appends_total{path=""# + path + #""} "#
                return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap {
                    Int($0.dropFirst(prefix.count))
                }
            }
            let before = try #require(appends("checked_transaction", in: metrics.text), "\(metrics.text)")
            #expect(before >= 1)
            #expect(appends("fell_back", in: metrics.text) == 0)
            // PostgreSQL's series are not there on SQLite, rather than 0 forever.
            #expect(appends("one_statement", in: metrics.text) == nil)
            #expect(!metrics.text.contains("momentum_store_append_statements_total"))
            #expect(!metrics.text.contains("momentum_store_append_batches_failed_total"))
            let checkIn = try await client.call(.post, "/v1/habits/walk/check-ins", token: token, json: "{}")
            #expect(checkIn.status == .ok)
            let after = try await client.call(.get, "/metrics")
            #expect(appends("checked_transaction", in: after.text) == before + 1)
            let document = try await client.call(.get, "/openapi.json")
            #expect(document.json["openapi"] as? String == "3.1.0")
        }
    }

    /// `/metrics` says what the engine cache holds and how it served: a user's first load
    /// replays their log, the next ones find the engine cached.
    @Test(.enabled(if: ServerHarness.instances == 1, "reads one instance's engine cache"))
    func theEngineCacheAndResidentMemoryAreMetrics() async throws {
        try await ServerHarness.with { _, client in
            func value(_ name: String, in text: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
                    Double($0.dropFirst(name.count + 1))
                }
            }
            let token = try await client.register("cache")
            _ = try await client.call(.post, "/v1/habits", token: token, json: #"{"name": "Walk", "habit": "walk"}"#)
            let first = try await client.call(.get, "/metrics").text
            let replays = try #require(value("momentum_engine_cache_replays_total", in: first), "\(first)")
            let hits = try #require(value("momentum_engine_cache_hits_total", in: first), "\(first)")
            #expect(replays >= 1)
            for _ in 0..<3 { #expect(try await client.call(.get, "/v1/today", token: token).status == .ok) }
            let after = try await client.call(.get, "/metrics").text
            #expect(value("momentum_engine_cache_hits_total", in: after) ?? 0 >= hits + 3, "\(after)")
            #expect(value("momentum_engine_cache_replays_total", in: after) == replays)
            #expect(value("momentum_engine_cache_users", in: after) ?? 0 >= 1)
            #expect(value("momentum_engine_cache_bytes", in: after) ?? 0 > 1_000)
            #expect(value("momentum_engine_cache_budget_bytes", in: after) == 0)
            #expect(value("momentum_engine_cache_evictions_total", in: after) == 0)
            #if os(Linux)
                // Read from /proc/self/statm, which Linux has.
                #expect(value("process_resident_memory_bytes", in: after) ?? 0 > 1_000_000)
            #endif
        }
    }
}
