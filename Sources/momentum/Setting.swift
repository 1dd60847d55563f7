import Configuration
import Foundation

/// One setting of `momentum serve`, defined once: its key, type, bounds, help, and where its
/// value goes. Its flag, environment variable and config-file key all derive from the key,
/// the way swift-configuration's providers encode it: `userRequestsPerMinute` is
/// `--user-requests-per-minute`, `MOMENTUM_USER_REQUESTS_PER_MINUTE` and
/// `"userRequestsPerMinute"`.
struct Setting: Sendable {
    /// What a setting's value is, and the bounds it is checked against.
    enum Kind: Sendable {
        /// Any text.
        case text
        /// On or off: a flag without a value, `true`/`false` in the file, `1`/`0`,
        /// `true`/`false` or `yes`/`no` in the environment.
        case toggle
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// Several texts: comma-separated on the command line and in the environment, an
        /// array of strings in the file.
        case list
        /// One of these words.
        case choice([String])

        /// The library's type the providers are asked for.
        var configType: ConfigType {
            switch self {
            case .text, .choice: .string
            case .toggle: .bool
            case .integer: .int
            case .list: .stringArray
            }
        }

        /// The type, as the table of settings shows it.
        var name: String {
            switch self {
            case .text: "text"
            case .toggle: "on/off"
            case .integer(let range): "integer, \(range.lowerBound) to \(range.upperBound)"
            case .list: "list"
            case .choice(let words): words.joined(separator: " \\| ")
            }
        }
    }

    /// A value read from a source, already of the setting's kind.
    enum Value: Sendable, Equatable {
        case text(String)
        case toggle(Bool)
        case integer(Int)
        case list([String])

        /// The value as the table and `momentum settings` show it.
        var shown: String {
            switch self {
            case .text(let text): text
            case .toggle(let on): on ? "on" : "off"
            case .integer(let number): "\(number)"
            case .list(let items): items.isEmpty ? "none" : items.joined(separator: ",")
            }
        }
    }

    /// What is wrong with a value, in words that follow its name.
    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The key, in camel case.
    let key: String
    /// The kind of value, with its bounds.
    let kind: Kind
    /// What the setting does, for `--help` and the table.
    let help: String
    /// Whether the config file may set it (not `config` itself).
    var inFile = true
    /// Whether its value is kept out of `momentum settings`' output.
    var secret = false
    /// The current value, or `nil` when unset; of a fresh ``ServeSettings``, the default.
    let read: @Sendable (ServeSettings) -> Value?
    /// Stores a checked value.
    let write: @Sendable (inout ServeSettings, Value) throws(Problem) -> Void

    /// `--user-requests-per-minute`.
    var flag: String { "--" + words.joined(separator: "-") }
    /// `MOMENTUM_USER_REQUESTS_PER_MINUTE`.
    var variable: String { (["MOMENTUM"] + words.map { $0.uppercased() }).joined(separator: "_") }
    /// The key the config file names it by (`userRequestsPerMinute`).
    var fileKey: String? { inFile ? key : nil }
    /// Every name it goes by, for messages.
    var names: String {
        "flag \(flag), environment \(variable)" + (fileKey.map { ", file key \"\($0)\"" } ?? "")
    }
    /// The default, as the table shows it.
    var defaultShown: String { read(ServeSettings()).map(\.shown) ?? "none" }

    /// The key's words, in lower case: `userRequestsPerMinute` → user, requests, per, minute.
    private var words: [String] {
        var words: [String] = []
        var current = ""
        for character in key {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(Character(character.lowercased()))
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Checks a value of the setting's kind against its bounds.
    func check(_ value: Value) throws(Problem) -> Value {
        switch (kind, value) {
        case (.integer(let range), .integer(let number)):
            guard range.contains(number) else {
                throw Problem("\(number) is out of range: it must be \(range.lowerBound) to \(range.upperBound)")
            }
        case (.choice(let words), .text(let text)):
            let word = text.lowercased()
            guard words.contains(word) else {
                throw Problem("'\(text)' is not one of \(words.joined(separator: ", "))")
            }
            return .text(word)
        case (.list, .list(let items)):
            return .list(items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        default: break
        }
        return value
    }

    /// What a value of this kind must be, for a value the provider could not convert.
    var expected: String {
        switch kind {
        case .text, .choice: "must be a string"
        case .toggle: "must be on or off (true/false, 1/0, yes/no; true or false in the file)"
        case .integer(let range): "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .list: "must be a comma-separated list (an array of strings in the file)"
        }
    }
}

extension Setting {
    /// A text setting stored at `path`; `check` returns what is wrong with a value.
    static func text(
        _ key: String, _ path: WritableKeyPath<ServeSettings, String> & Sendable, help: String,
        check: @escaping @Sendable (String) -> String? = { _ in nil }
    ) -> Setting {
        Setting(
            key: key, kind: .text, help: help, read: { .text($0[keyPath: path]) },
            write: { settings, value throws(Problem) in
                guard case .text(let text) = value else { return }
                if let problem = check(text) { throw Problem(problem) }
                settings[keyPath: path] = text
            })
    }

    /// A text setting that may be unset.
    static func optionalText(
        _ key: String, _ path: WritableKeyPath<ServeSettings, String?> & Sendable, help: String, secret: Bool = false
    ) -> Setting {
        Setting(
            key: key, kind: .text, help: help, secret: secret, read: { $0[keyPath: path].map(Value.text) },
            write: { settings, value in
                if case .text(let text) = value { settings[keyPath: path] = text }
            })
    }

    /// An on/off setting.
    static func toggle(
        _ key: String, _ path: WritableKeyPath<ServeSettings, Bool> & Sendable, help: String
    )
        -> Setting
    {
        Setting(
            key: key, kind: .toggle, help: help, read: { .toggle($0[keyPath: path]) },
            write: { settings, value in
                if case .toggle(let on) = value { settings[keyPath: path] = on }
            })
    }

    /// A whole-number setting, read and written through `get` and `set` (for the settings kept
    /// in other units, such as megabytes kept as bytes).
    static func integer(
        _ key: String, _ range: ClosedRange<Int>, help: String, get: @escaping @Sendable (ServeSettings) -> Int,
        set: @escaping @Sendable (inout ServeSettings, Int) -> Void
    ) -> Setting {
        Setting(
            key: key, kind: .integer(range), help: help, read: { .integer(get($0)) },
            write: { settings, value in
                if case .integer(let number) = value { set(&settings, number) }
            })
    }

    /// A whole-number setting stored at `path`.
    static func integer(
        _ key: String, _ range: ClosedRange<Int>, _ path: WritableKeyPath<ServeSettings, Int> & Sendable,
        help: String
    ) -> Setting {
        integer(key, range, help: help, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    /// A setting of whole seconds kept as a `Duration`.
    static func seconds(
        _ key: String, _ range: ClosedRange<Int>, _ path: WritableKeyPath<ServeSettings, Duration> & Sendable,
        help: String
    ) -> Setting {
        integer(
            key, range, help: help, get: { Int($0[keyPath: path].components.seconds) },
            set: { $0[keyPath: path] = .seconds($1) })
    }

    /// A list setting.
    static func list(
        _ key: String, _ path: WritableKeyPath<ServeSettings, [String]> & Sendable, help: String
    )
        -> Setting
    {
        Setting(
            key: key, kind: .list, help: help, read: { .list($0[keyPath: path]) },
            write: { settings, value in
                if case .list(let items) = value { settings[keyPath: path] = items }
            })
    }
}
