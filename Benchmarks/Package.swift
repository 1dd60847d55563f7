// swift-tools-version: 6.2
import PackageDescription

/// Momentum's benchmarks, kept out of the main package so that its graph stays small.
///
/// Run with `swift run -c release --package-path Benchmarks momentum-benchmarks [--quick] [filter…]`.
let package = Package(
    name: "MomentumBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Momentum", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "momentum-benchmarks",
            dependencies: [
                .product(name: "MomentumCore", package: "Momentum"),
                .product(name: "MomentumTestSupport", package: "Momentum"),
            ],
            path: "Sources/MomentumBenchmarks",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .treatAllWarnings(as: .error),
            ]
        )
    ]
)
