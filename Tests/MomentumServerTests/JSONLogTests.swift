import Foundation
import Logging
import MomentumServer
import Synchronization
import Testing

/// The `json` log format (`logFormat`): one JSON object per line, whatever the message and
/// metadata hold.
struct JSONLogTests {
    /// The lines a logger of the JSON format writes while `body` logs.
    static func lines(_ body: (Logger) -> Void) -> [String] {
        let written = Mutex<[String]>([])
        let logger = Logger(label: "momentum") { label in
            MomentumLogHandler(
                label: label, level: .debug, format: .json, now: { Date(timeIntervalSince1970: 1_795_000_000.25) }
            ) { line in written.withLock { $0.append(line) } }
        }
        body(logger)
        return written.withLock { $0 }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test func eachLineIsOneJSONObjectWithTimeLevelLabelMessageAndTheMetadataAtTheTop() throws {
        let lines = Self.lines { logger in
            logger.info("GET /v1/today 200", metadata: ["status": "200", "request_id": "r_1"])
        }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasSuffix("}\n"))
        #expect(line.dropLast().contains("\n") == false)
        let object = try Self.object(line)
        #expect(object["time"] as? String == "2026-11-18T11:06:40.250Z")
        #expect(object["level"] as? String == "info")
        #expect(object["label"] as? String == "momentum")
        #expect(object["message"] as? String == "GET /v1/today 200")
        #expect(object["status"] as? String == "200")
        #expect(object["request_id"] as? String == "r_1")
    }

    @Test func quotesNewlinesBackslashesAndControlCharactersAreEscapedOnOneLine() throws {
        let nasty = "say \"hi\"\nthen\r\n\ttab \\ bell\u{07} nul\u{00} esc\u{1B} del\u{7F} sep\u{2028} ünï 🎉"
        let lines = Self.lines { logger in
            logger.error("\(nasty)", metadata: [nasty: .string(nasty)])
        }
        let line = try #require(lines.first)
        // One line: the only newline is the last character; no raw control character.
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(!line.dropLast().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        let object = try Self.object(line)
        #expect(object["message"] as? String == nasty)
        #expect(object[nasty] as? String == nasty)
        #expect(line.contains(#"\"hi\""#) && line.contains(#"\u0007"#) && line.contains(#"\u0000"#))
    }

    @Test func nestedMetadataStaysNestedAndReservedKeysAreMovedAside() throws {
        let lines = Self.lines { logger in
            logger.warning(
                "nested",
                metadata: [
                    "request": ["method": "POST", "headers": ["accept": "json", "tries": .stringConvertible(3)]],
                    "ids": ["a", ["b", "c"], ["k": "v"]],
                    "message": "from metadata", "level": "not the level",
                ])
        }
        let object = try Self.object(try #require(lines.first))
        #expect(object["message"] as? String == "nested")
        #expect(object["level"] as? String == "warning")
        #expect(object["metadata.message"] as? String == "from metadata")
        #expect(object["metadata.level"] as? String == "not the level")
        let request = try #require(object["request"] as? [String: Any])
        #expect(request["method"] as? String == "POST")
        #expect((request["headers"] as? [String: Any])?["tries"] as? String == "3")
        let ids = try #require(object["ids"] as? [Any])
        #expect(ids.count == 3)
        #expect(ids[0] as? String == "a")
        #expect(ids[1] as? [String] == ["b", "c"])
        #expect((ids[2] as? [String: String]) == ["k": "v"])
    }

    @Test func theDefaultFormatIsStillLogfmt() {
        let written = Mutex<[String]>([])
        let logger = Logger(label: "momentum") { label in
            MomentumLogHandler(label: label, now: { Date(timeIntervalSince1970: 0) }) { line in
                written.withLock { $0.append(line) }
            }
        }
        logger.info("hello", metadata: ["a": "b"])
        #expect(written.withLock { $0 } == ["1970-01-01T00:00:00Z info momentum: hello a=b\n"])
    }

    @Test func traceAndSpanIdsAreReadFromATraceparent() throws {
        let ids = try #require(
            TraceLogMetadata.ids(inTraceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        #expect(ids.trace == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(ids.span == "00f067aa0ba902b7")
        #expect(TraceLogMetadata.ids(inTraceparent: "00-00000000000000000000000000000000-00f067aa0ba902b7-01") == nil)
        #expect(TraceLogMetadata.ids(inTraceparent: "00-4bf92f35-00f067aa0ba902b7-01") == nil)
        #expect(TraceLogMetadata.ids(inTraceparent: "garbage") == nil)
    }
}
