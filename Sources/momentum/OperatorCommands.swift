import ArgumentParser
import Foundation
import MomentumServer
import MomentumServices
import MomentumStore

/// `momentum operator`: the operators of the admin API and the console, on the database
/// directly (whoever can open the database acts as `cli` in the audit log).
struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator",
        abstract: "Add, list and disable the operators of the admin API and the console.",
        subcommands: [OperatorAdd.self, OperatorList.self, OperatorDisable.self])
}

/// `momentum operator add`: a new operator, with a password from stdin or a generated one.
struct OperatorAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an operator.",
        discussion: """
            With --password-stdin the password is the first line of stdin (12 to 72 characters); \
            without it a random password is generated and printed once.
            """)

    @OptionGroup var store: StoreOptions
    @Option(name: .long, help: "The email they sign in with.") var email: String
    @Option(name: .long, help: "Their name.") var name: String
    @Option(name: .long, help: "owner, support or viewer.") var role: String
    @Flag(name: .long, help: "Read the password from the first line of stdin.") var passwordStdin = false

    func run() async throws {
        guard let role = OperatorRole(rawValue: role) else {
            throw fail(status: 64, "momentum: --role must be owner, support or viewer")
        }
        var generated: String?
        let password: String
        if passwordStdin {
            password = readLine(strippingNewline: true) ?? ""
        } else {
            var generator = SystemRandomNumberGenerator()
            password = Tokens.base64URL((0..<18).map { _ in UInt8.random(in: 0...255, using: &generator) })
            generated = password
        }
        try await withOperators(store) { operators in
            let added = try await operators.add(
                email: email, name: name, role: role, password: password, by: CommandLineOperators.actor)
            try await operators.record(
                CommandLineOperators.actor, action: "operator.added", user: nil,
                detail: "\(added.email) as \(added.role.rawValue)", outcome: .done)
            print("added \(added.email) (\(added.id)) as \(added.role.rawValue)")
            if let generated { print("password: \(generated)") }
        }
    }
}

/// `momentum operator list`: every operator, one a line.
struct OperatorList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the operators.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await withOperators(store) { operators in
            for view in try await operators.list() {
                print(
                    [view.id, view.email, view.role.rawValue, view.disabled ? "disabled" : "enabled", view.name]
                        .joined(separator: "\t"))
            }
        }
    }
}

/// `momentum operator disable`: disables an operator and ends their sessions.
struct OperatorDisable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Disable an operator: they cannot sign in, and their sessions end at once on every instance.")

    @OptionGroup var store: StoreOptions
    @Option(name: .long, help: "The operator's email.") var email: String

    func run() async throws {
        try await withOperators(store) { operators in
            guard let found = try await operators.find(email: email) else {
                throw ServiceError(.notFound, "operator_not_found", "no operator with the email '\(email)'")
            }
            let updated = try await operators.update(
                id: found.id, role: nil, disabled: true, by: CommandLineOperators.actor)
            try await operators.record(
                CommandLineOperators.actor, action: "operator.updated", user: nil, detail: "\(updated.email): disabled",
                outcome: .done)
            print("disabled \(updated.email) (\(updated.id))")
        }
    }
}

/// Opens the store of `--database`, runs `body` with the operators' use case, closes it;
/// a refusal is printed with its code and exits with a status of its kind.
private func withOperators(_ store: StoreOptions, _ body: (Operators) async throws -> Void) async throws {
    let opened: any MomentumStore
    do {
        opened = try await store.open()
    } catch {
        throw fail(error)
    }
    do {
        try await body(CommandLineOperators.make(store: opened))
        await opened.close()
    } catch let error as ServiceError {
        await opened.close()
        let status: Int32 =
            switch error.kind {
            case .invalid: 65
            case .notFound: 66
            case .conflict: 73
            default: 74
            }
        let fields = error.fields.map { "\n  \($0.field) \($0.issue)" }.joined()
        throw fail(status: status, "momentum: \(error.message) (\(error.code))\(fields)")
    } catch {
        await opened.close()
        throw fail(error)
    }
}
