import ArgumentParser

/// The `momentum` command: a thin shell over MomentumCore.
@main
struct Momentum: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "momentum",
        abstract: "Streaks, freezes and rewards derived from an event log.",
        discussion: """
            Momentum derives every streak, calendar, freeze and diamond from a JSONL event log. \
            See README.md for the event format.
            """,
        version: "0.1.0",
        subcommands: [
            Serve.self, SettingsCommand.self, Evaluate.self, Migrate.self, Export.self, Import.self, AppendStream.self,
            SignIn.self, Register.self, Today.self, AddHabit.self, CheckIn.self, Skip.self, Buy.self, Sync.self,
            SignOut.self, OperatorCommand.self,
        ]
    )
}
