import Foundation
import Testing

/// The layers keep to their places (ARCHITECTURE.md): the services know no HTTP, and a
/// controller knows neither the store nor the server's state.
struct LayeringTests {
    static let sources = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources")

    /// Every Swift file under `folder`, by its path from `Sources`, with its text.
    static func swiftFiles(in folder: String) throws -> [(path: String, text: String)] {
        let root = sources.appending(path: folder)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files.append(("\(folder)/\(url.lastPathComponent)", try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    @Test func theServicesImportNoHTTP() throws {
        let files = try Self.swiftFiles(in: "MomentumServices")
        #expect(files.count > 20)
        let forbidden =
            /^\s*(@\w+(\([^)]*\))?\s+)*import\s+(struct\s+|class\s+|enum\s+|protocol\s+|func\s+)?(Hummingbird\w*|HTTPTypes|NIO\w*|AsyncHTTPClient)\b/
            .anchorsMatchLineEndings()
        for (path, text) in files {
            #expect(text.firstMatch(of: forbidden) == nil, "\(path) imports an HTTP or NIO module")
        }
    }

    @Test func controllersHoldNeitherTheStoreNorTheServersState() throws {
        let files = try Self.swiftFiles(in: "MomentumServer/Controllers")
        #expect(files.count >= 10)
        for (path, text) in files {
            #expect(!text.contains("ServerState"), "\(path) names ServerState")
            #expect(text.firstMatch(of: /any\s+MomentumStore\b|\bstore\./) == nil, "\(path) reaches the store")
        }
    }
}
