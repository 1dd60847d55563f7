import Foundation
import MomentumCore
import Testing

/// The fuzzer's findings and seeds (`Fuzz/`), replayed through the same read pipeline it
/// runs (``FuzzReadPipeline``): decode, append, then every read the server makes. None may
/// trap (a trap ends the whole server), and every answer must encode and every stored
/// document read back. Findings are listed in `/work/notes/fuzz-crashes.md`.
struct FuzzRegressionTests {
    /// The fuzz package's directory.
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Fuzz")

    /// The seed corpus's file names.
    static let seeds: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: fuzz.appending(path: "corpus").path)) ?? []).sorted()

    /// Issue 23 defect 1, as the fuzzer's seed `defect-1-coaching` found it, minimized: an
    /// `atLeast` target of 4e19 on a strict habit with two breaks in 60 days made coaching
    /// convert half the target (and the target) to `Int`, which trapped on every analytics
    /// read (`Coaching.swift`, `String(Int(lower))` and `format`).
    static let hugeAtLeastTarget = """
        h{"id":"h","type":"habit.created","at":"2026-06-01T07:00:00Z","tz":"UTC","habit":"w","name":"Water","policy":"strict","target":{"atLeast":4e19,"unit":"glasses"}}
        {"id":"c1","type":"completion","at":"2026-06-01T08:00:00Z","tz":"UTC","habit":"w","value":1e19}
        {"id":"c2","type":"completion","at":"2026-06-02T08:00:00Z","tz":"UTC","habit":"w","value":4e19}
        {"id":"c4","type":"completion","at":"2026-06-04T08:00:00Z","tz":"UTC","habit":"w","value":4e19}
        {"id":"c5","type":"completion","at":"2026-06-05T08:00:00Z","tz":"UTC","habit":"w","value":4e19}
        {"id":"c7","type":"completion","at":"2026-06-07T08:00:00Z","tz":"UTC","habit":"w","value":4e19}

        """

    @Test func coachingAfterBreaksOfAHabitWithAHugeTargetDoesNotTrap() {
        // Refused when decoded (bounded numbers) or coached without a trap: either way, no
        // read traps and every answer encodes.
        let outcome = FuzzReadPipeline.run(Array(Self.hugeAtLeastTarget.utf8))
        #expect(outcome.failures == [])
    }

    @Test func theSeedCorpusIsThere() {
        #expect(Self.seeds.count >= 20)
    }

    @Test(arguments: seeds)
    func everySeedReplaysWithoutAContractFailure(_ seed: String) throws {
        let bytes = try Data(contentsOf: Self.fuzz.appending(path: "corpus").appending(path: seed))
        let outcome = FuzzReadPipeline.run(Array(bytes))
        #expect(outcome.failures == [])
    }

    @Test func theExampleSeedsReachUnlocksMemoriesAndShareCards() throws {
        for seed in ["habits-1", "ollie-1", "streak-40-days"] {
            let bytes = try Data(contentsOf: Self.fuzz.appending(path: "corpus").appending(path: seed))
            let outcome = FuzzReadPipeline.run(Array(bytes))
            #expect(outcome.applied > 0, "\(seed)")
            #expect(outcome.unlocks > 0, "\(seed)")
            #expect(outcome.memories > 0, "\(seed)")
            #expect(outcome.cards > 0, "\(seed)")
        }
    }
}
