import Foundation
import MomentumCore

/// Whether contract failures (an answer that does not encode, a document that does not read
/// back) count as findings, as traps do. On unless `MOMENTUM_FUZZ_CONTRACTS=0`.
private let contractsAreFindings = ProcessInfo.processInfo.environment["MOMENTUM_FUZZ_CONTRACTS"] != "0"

/// libFuzzer's entry point: one input, replayed through the whole read pipeline
/// (``FuzzReadPipeline``). A trap anywhere is a finding; so is a contract failure, reported
/// with `fatalError` so that libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: count == 0 ? nil : start, count: count)
    let outcome = FuzzReadPipeline.run(bytes)
    if contractsAreFindings, let failure = outcome.failures.first {
        fatalError("contract failure: \(failure)")
    }
    return 0
}

/// libFuzzer's driver (`-sanitize=fuzzer` links it): parses libFuzzer's flags and runs the
/// callback on every input.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's entry point. SwiftPM names an executable's `main` itself (it links
/// `main` to the module's entry point), so libFuzzer's own `main` cannot be used; this one
/// hands the command line to libFuzzer's driver instead.
@main
enum MomentumFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv) { fuzzOneInput($0, $1) })
    }
}
