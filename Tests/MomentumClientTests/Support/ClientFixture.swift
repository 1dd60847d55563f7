import Foundation
import MomentumAPI
import MomentumClient
import MomentumCore
import OpenAPIRuntime

/// A client's database file in a directory of its own, removed with the directory.
final class ClientFiles: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "momentum-device-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appending(path: "\(name).sqlite").path }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

extension MomentumClient {
    /// A client of `server` on the test's clock, with its database in `files`.
    static func make(
        _ server: LiveServer, files: ClientFiles, device: String, zone: String = "Europe/Berlin",
        retry: RetryPolicy = .requests, middlewares: [any ClientMiddleware] = []
    ) throws -> MomentumClient {
        let clock = server.clock
        return try MomentumClient(
            server: server.url, databasePath: files.path(device), timeZone: zone, clock: { clock.now },
            retry: retry, middlewares: middlewares)
    }
}

extension Components.Schemas.RegisterRequest {
    /// A test account's registration.
    static func test(_ name: String, zone: String = "Europe/Berlin") -> Self {
        .init(
            deviceName: "phone", displayName: name.capitalized, email: "\(name)@example.com", password: "correct horse",
            timeZone: zone)
    }
}

/// A habit created on a device.
func habit(_ id: String, _ name: String) -> Event.Payload {
    .habitCreated(HabitDefinition(id: id, name: name))
}

/// A JSON answer's bytes without the line break the server ends every answer with.
func withoutFinalNewline(_ bytes: [UInt8]) -> [UInt8] {
    bytes.last == 0x0A ? Array(bytes.dropLast()) : bytes
}

/// Where two encodings first differ, with some context, for a failure message.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
    var index = 0
    while index < min(a.count, b.count), a[index] == b[index] { index += 1 }
    let from = max(0, index - 80)
    return "at byte \(index) of \(a.count)/\(b.count):\n  "
        + String(decoding: a[from..<min(a.count, index + 80)], as: UTF8.self) + "\n  "
        + String(decoding: b[from..<min(b.count, index + 80)], as: UTF8.self)
}
