// swift-tools-version: 6.2
import PackageDescription

/// Momentum's benchmarks, kept out of the main package so that its graph stays small.
///
/// Run with `swift run -c release --package-path Benchmarks momentum-benchmarks [--quick] [filter…]`.
let package = Package(
    name: "MomentumBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Momentum", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "momentum-benchmarks",
            dependencies: [
                .product(name: "MomentumCore", package: "Momentum"),
                .product(name: "MomentumTestSupport", package: "Momentum"),
                .product(name: "MomentumStore", package: "Momentum"),
                .product(name: "MomentumSQLite", package: "Momentum"),
                .product(name: "MomentumPostgres", package: "Momentum"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "MomentumServer", package: "Momentum"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/MomentumBenchmarks",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .treatAllWarnings(as: .error),
            ]
        )
    ]
)
