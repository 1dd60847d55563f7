import ArgumentParser
import Foundation

/// `momentum settings`: the table of the server's settings, or the values `momentum serve`
/// would run with, given the same flags and environment, and where each came from.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the server's settings: their table, or the values serve would use.",
        discussion: """
            With --markdown, prints docs/configuration.md. Otherwise reads the settings as \
            `momentum serve` would (the same flags, environment and config file), refuses a bad \
            one the same way, and prints each value and where it came from.
            """)

    @Flag(help: "Print the table of every setting as Markdown (docs/configuration.md).") var markdown = false

    @Argument(parsing: .allUnrecognized, help: "Settings, as `momentum serve` takes them.")
    var settings: [String] = []

    func run() async throws {
        if markdown {
            print(SettingsDocument.markdown, terminator: "")
            return
        }
        do {
            let resolved = try await SettingsReader(
                arguments: settings, environment: ProcessInfo.processInfo.environment
            ).resolve()
            _ = try resolved.settings.serverConfiguration()
            for setting in ServeSettings.table {
                let value = setting.read(resolved.settings).map(\.shown) ?? "none"
                let origin = resolved.origins[setting.key] ?? .default
                let shown = setting.secret && origin != .default ? "(set)" : value
                print("\(setting.key) = \(shown) (\(origin.rawValue))")
            }
        } catch {
            throw refuse(error)
        }
    }
}
