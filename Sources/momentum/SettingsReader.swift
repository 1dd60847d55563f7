import Configuration
import Foundation

/// A setting refused at start: what is wrong, naming where the value came from.
struct SettingsError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Reads ``ServeSettings/table`` from three swift-configuration providers: the command
/// line (`CommandLineArgumentsProvider`), the environment (`EnvironmentVariablesProvider`,
/// every name prefixed `MOMENTUM_`) and a JSON file (`FileProvider<JSONSnapshot>`, named by
/// `--config` or `MOMENTUM_CONFIG`). Flags win over the environment, the environment over
/// the file, the file over the default. Every value found is checked, the ones that lose
/// too: a bad value anywhere is refused with its name, never ignored.
struct SettingsReader {
    /// Where a setting's value came from.
    enum Origin: String, Sendable {
        case flag, environment, file, `default`
    }

    /// The settings read, and where each came from (by key).
    struct Resolved: Sendable {
        var settings = ServeSettings()
        var origins: [String: Origin] = [:]
    }

    /// One provider, and how a setting is named in it.
    private struct Source {
        let origin: Origin
        let provider: any ConfigProvider
        let key: (Setting) -> AbsoluteConfigKey
        let name: (Setting) -> String
    }

    private let flags: [String]
    private let environment: [String: String]

    /// - Parameters:
    ///   - arguments: The command line after the subcommand (`--port 8080 --demo`).
    ///   - environment: The process's environment; empty values count as unset.
    init(arguments: [String], environment: [String: String]) {
        self.flags = arguments
        self.environment = environment.filter { !$0.value.isEmpty }
    }

    /// Reads every setting: flags, environment, then the config file if one is named.
    func resolve(table: [Setting] = ServeSettings.table) async throws(SettingsError) -> Resolved {
        try checkFlags(table)
        var sources = [flagSource(), environmentSource()]
        let bootstrap = try read(table.filter { $0.key == "config" }, from: sources)
        if let path = bootstrap.settings.config {
            sources.append(try await fileSource(path: path, table: table))
        }
        return try read(table, from: sources)
    }

    /// Reads the settings from the flags and the environment only (the commands other than
    /// `serve`, which read `--database` and `MOMENTUM_DATABASE`).
    func resolveWithoutFile(table: [Setting]) throws(SettingsError) -> Resolved {
        try read(table, from: [flagSource(), environmentSource()])
    }

    private func read(_ table: [Setting], from sources: [Source]) throws(SettingsError) -> Resolved {
        var resolved = Resolved()
        for setting in table {
            resolved.origins[setting.key] = .default
            // Lowest precedence first, so that the last value found wins.
            for source in sources.reversed() {
                guard let value = try value(of: setting, in: source) else { continue }
                do throws(Setting.Problem) {
                    try setting.write(&resolved.settings, try setting.check(value))
                } catch {
                    throw refusal(setting, source, error.message)
                }
                resolved.origins[setting.key] = source.origin
            }
        }
        return resolved
    }

    /// The value a source gives a setting, of the setting's kind; `nil` when it gives none.
    private func value(of setting: Setting, in source: Source) throws(SettingsError) -> Setting.Value? {
        let key = source.key(setting)
        let found: ConfigValue?
        do {
            // The command line splits values at commas; a text is read whole.
            let type: ConfigType =
                source.origin == .flag && setting.kind.configType == .string ? .stringArray : setting.kind.configType
            found = try source.provider.value(forKey: key, type: type).value
        } catch {
            let raw = try? source.provider.value(forKey: key, type: .string).value
            let shown = raw.flatMap { value -> String? in
                if case .string(let text) = value.content { return "'\(text)' " }
                return nil
            }
            throw refusal(setting, source, "\(shown ?? "the value ")\(setting.expected)")
        }
        guard let found else { return nil }
        switch found.content {
        case .string(let text): return .text(text)
        case .bool(let on): return .toggle(on)
        case .int(let number): return .integer(number)
        case .stringArray(let items):
            if case .list = setting.kind { return .list(items) }
            return .text(items.joined(separator: ","))
        default: throw refusal(setting, source, setting.expected)
        }
    }

    private func refusal(_ setting: Setting, _ source: Source, _ problem: String) -> SettingsError {
        SettingsError("\(source.name(setting)): \(problem) (setting \(setting.key): \(setting.names))")
    }

    /// Refuses an option no setting has, and an argument that is not an option's value.
    private func checkFlags(_ table: [Setting]) throws(SettingsError) {
        let known = Set(table.map(\.flag))
        for (index, argument) in flags.enumerated() {
            if argument.hasPrefix("--") {
                let name = String(argument.prefix { $0 != "=" })
                guard known.contains(name) else {
                    throw SettingsError("unknown option \(name); `momentum settings` lists them all")
                }
            } else if index == 0 {
                throw SettingsError("unexpected argument '\(argument)'; every setting is given as --name value")
            }
        }
    }

    private func flagSource() -> Source {
        Source(
            origin: .flag, provider: CommandLineArgumentsProvider(arguments: ["momentum"] + flags),
            key: { AbsoluteConfigKey([$0.key]) }, name: { $0.flag })
    }

    private func environmentSource() -> Source {
        Source(
            origin: .environment, provider: EnvironmentVariablesProvider(environmentVariables: environment),
            key: { AbsoluteConfigKey(["momentum", $0.key]) }, name: { $0.variable })
    }

    /// The JSON config file, after checking that every key in it is a setting's.
    private func fileSource(path: String, table: [Setting]) async throws(SettingsError) -> Source {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SettingsError("the config file '\(path)' cannot be read: \(error.localizedDescription)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SettingsError("the config file '\(path)' is not a JSON object of settings")
        }
        let known = Set(table.compactMap(\.fileKey))
        for key in object.keys.sorted() where !known.contains(key) {
            let near = known.sorted().first {
                $0.lowercased() == key.lowercased().replacingOccurrences(of: "-", with: "")
            }
            throw SettingsError(
                "the config file '\(path)': unknown key \"\(key)\"" + (near.map { " (did you mean \"\($0)\"?)" } ?? "")
                    + "; docs/configuration.md lists the keys")
        }
        let provider: FileProvider<JSONSnapshot>
        do {
            provider = try await FileProvider<JSONSnapshot>(
                config: ConfigReader(
                    provider: InMemoryProvider(values: ["filePath": ConfigValue(.string(path), isSecret: false)])))
        } catch {
            throw SettingsError("the config file '\(path)' cannot be read: \(error)")
        }
        return Source(
            origin: .file, provider: provider, key: { AbsoluteConfigKey([$0.key]) },
            name: { "\"\($0.key)\" in \(path)" })
    }
}
