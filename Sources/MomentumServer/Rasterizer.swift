import Foundation
import NIOPosix

/// Turns share-card SVG into PNG with librsvg's `rsvg-convert` (Debian: `librsvg2-bin`).
struct Rasterizer {
    let command: String

    /// The PNG of `svg` at exactly `width` × `height` pixels.
    func png(fromSVG svg: String, width: Int, height: Int) async throws -> [UInt8] {
        let command = self.command
        return try await NIOThreadPool.singleton.runIfActive {
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-card-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let input = directory.appending(path: "card.svg")
            let output = directory.appending(path: "card.png")
            try Data(svg.utf8).write(to: input)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                command, "--width", String(width), "--height", String(height), "--format", "png", "--output",
                output.path, input.path,
            ]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            do {
                try process.run()
            } catch {
                throw APIError(
                    .serviceUnavailable, "rasterizer_unavailable",
                    "PNG share cards need \(command) (Debian package librsvg2-bin); the SVG is available")
            }
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let png = try? Data(contentsOf: output) else {
                let text = String(decoding: message, as: UTF8.self)
                throw APIError(
                    .serviceUnavailable, "rasterizer_unavailable",
                    process.terminationStatus == 127
                        ? "PNG share cards need \(command) (Debian package librsvg2-bin); the SVG is available"
                        : "the share card could not be rasterized: \(text.prefix(200))")
            }
            return Array(png)
        }
    }
}
