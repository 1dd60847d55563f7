// swift-tools-version: 6.2
import PackageDescription

/// A coverage-guided fuzzer (libFuzzer) over Momentum's core pipeline, kept out of the main
/// package so that its instrumented build never touches the main build directory.
///
/// Build and run with `Fuzz/run <seconds>` (see docs/fuzzing.md).
let package = Package(
    name: "MomentumFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Momentum", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "momentum-fuzz",
            dependencies: [.product(name: "MomentumCore", package: "Momentum")],
            path: "Sources/momentum-fuzz",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .treatAllWarnings(as: .error),
            ]
        )
    ]
)
