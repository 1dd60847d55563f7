import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

/// An account archive as one tar file: the web app's "Download everything" and the
/// operator's import. It reads what GNU tar writes, GNU tar reads what it writes, and a file
/// that is not a good archive is refused with its reasons, never a trap.
struct ArchiveTarTests {
    /// A photo path longer than a tar header's 100-byte name field (it goes in the prefix).
    static let longPhoto = "memories/" + String(repeating: "a", count: 90) + "/park-at-dusk.jpg"

    static func archive() throws -> AccountArchive {
        let events = [
            try Fixtures.createHabit("read", at: 1), try Fixtures.completion("c1", day: 1),
            try Fixtures.completion("c2", day: 2),
        ]
        return AccountArchive(
            account: Fixtures.account("ada"), profile: Fixtures.profile(),
            events: events.enumerated().map {
                StoredEvent(seq: Int64($0.offset + 1), event: $0.element, receivedAt: $0.element.at, device: "phone")
            },
            memories: [],
            photos: [
                StoredPhoto(
                    path: longPhoto, contentType: "image/jpeg", bytes: (0..<1_500).map { UInt8($0 % 251) },
                    createdAt: Fixtures.day(2))
            ], celebrations: nil)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "momentum-tar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func aTarFileReadsBackAsTheSameArchiveAndTheSameBytes() throws {
        let archive = try Self.archive()
        let tar = try archive.tar()
        #expect(tar.count % 512 == 0)
        let read = try AccountArchive.read(tar: tar)
        #expect(read == archive)
        #expect(try read.tar() == tar)
    }

    /// GNU tar lists and extracts the file (the long path whole), and the extracted folder is
    /// the archive `momentum import` reads; packed again by GNU tar (with its `./` names and
    /// folder entries) it reads back the same.
    @Test func gnuTarReadsItAndWritesWhatItReads() throws {
        let archive = try Self.archive()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try archive.tar().write(to: directory.appending(path: "a.tar"))
        let listed = try Self.run(["tar", "-tf", "a.tar"], in: directory)
        #expect(listed.status == 0, "\(listed.output)")
        #expect(
            listed.output.split(separator: "\n").map(String.init) == [
                "momentum-archive/account.jsonl", "momentum-archive/memories.jsonl",
                "momentum-archive/\(Self.longPhoto)",
            ])
        let extracted = try Self.run(["tar", "-xf", "a.tar"], in: directory)
        #expect(extracted.status == 0, "\(extracted.output)")
        let folder = directory.appending(path: AccountArchive.tarFolder)
        #expect(try AccountArchive.read(from: folder) == archive)

        let packed = try Self.run(["tar", "-C", folder.path, "-cf", "b.tar", "."], in: directory)
        #expect(packed.status == 0, "\(packed.output)")
        #expect(try AccountArchive.read(tar: Data(contentsOf: directory.appending(path: "b.tar"))) == archive)
        let named = try Self.run(["tar", "-cf", "c.tar", AccountArchive.tarFolder], in: directory)
        #expect(named.status == 0, "\(named.output)")
        #expect(try AccountArchive.read(tar: Data(contentsOf: directory.appending(path: "c.tar"))) == archive)
    }

    @Test func aFileThatIsNotAGoodTarIsRefusedWithItsReason() throws {
        let tar = try Self.archive().tar()
        func reason(_ data: Data) -> String {
            do {
                _ = try AccountArchive.read(tar: data)
                return "read"
            } catch {
                #expect(error.code == .invalidArchive)
                return error.message
            }
        }
        #expect(reason(Data()).contains("shorter than one tar header"))
        #expect(reason(Data(repeating: 0, count: 1_024)).contains("holds no files"))
        #expect(reason(tar.prefix(1_000)).contains("cut short"))
        var flipped = tar
        flipped[3] ^= 0x20
        #expect(reason(flipped).contains("wrong checksum"))
        #expect(reason(Data("account.jsonl is not a tar file at all".utf8)).contains("shorter than one tar header"))
        #expect(reason(Data(repeating: 0x41, count: 2_048)).contains("no checksum"))
    }

    /// A tar file whose account.jsonl has a bad line: the problem names the file and line,
    /// as a directory's would.
    @Test func aBadLineInsideTheTarIsNamedByFileAndLine() throws {
        var files = try Self.archive().files()
        let index = try #require(files.firstIndex { $0.path == AccountArchive.accountFile })
        var lines = String(decoding: files[index].bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        lines[3] = #"{"type": "event", "seq": 2}"#
        files[index].bytes = Data((lines.joined(separator: "\n") + "\n").utf8)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, bytes) in files {
            let url = directory.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }
        let packed = try Self.run(
            ["tar", "-cf", "bad.tar", "account.jsonl", "memories.jsonl", "memories"], in: directory)
        #expect(packed.status == 0, "\(packed.output)")
        let data = try Data(contentsOf: directory.appending(path: "bad.tar"))
        do {
            _ = try AccountArchive.read(tar: data)
            Issue.record("a bad archive was read")
        } catch {
            #expect(error.code == .invalidArchive)
            #expect(error.problems.contains { $0.file == "account.jsonl" && $0.line == 4 }, "\(error.problems)")
        }
    }

    /// Random damage to a good tar file (bytes changed, cut, grown): every result is an
    /// archive or an error, never a trap.
    @Test func damagedTarFilesNeverTrap() throws {
        let tar = [UInt8](try Self.archive().tar())
        var random = SplitMix64(seed: 0x7A2)
        var refused = 0
        for _ in 0..<2_000 {
            var bytes = tar
            switch random.next() % 4 {
            case 0:
                for _ in 0..<(1 + random.next() % 8) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            case 1:
                bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            case 2:
                // Header fields with extreme numbers: sizes, checksums, types.
                let fields = [124, 136, 148, 156, 512 + 124]
                let fills: [UInt8] = [0x37, 0xFF, 0x20, 0x00, 0x39]
                let field = fields[Int(random.next() % 5)]
                let fill = fills[Int(random.next() % 5)]
                for i in field..<min(bytes.count, field + 12) { bytes[i] = fill }
            default:
                bytes += (0..<Int(random.next() % 2_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            do {
                _ = try AccountArchive.read(tar: Data(bytes))
            } catch {
                refused += 1
            }
        }
        #expect(refused > 600)
    }
}
