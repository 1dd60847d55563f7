// swift-tools-version: 6.2
import PackageDescription

/// Every Momentum target is compiled in Swift 6 language mode with strict concurrency,
/// and every warning is an error.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
]

/// The platforms where the SDK talks through URLSession.
let apple: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]

let package = Package(
    name: "Momentum",
    // macOS 15: swift-configuration (the `momentum` command's settings) needs it; iOS apps embed
    // MomentumClient, which needs iOS 17.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "MomentumCore", targets: ["MomentumCore"]),
        .library(name: "MomentumStore", targets: ["MomentumStore"]),
        .library(name: "MomentumSQLite", targets: ["MomentumSQLite"]),
        .library(name: "MomentumPostgres", targets: ["MomentumPostgres"]),
        .library(name: "MomentumAPI", targets: ["MomentumAPI"]),
        .library(name: "MomentumClient", targets: ["MomentumClient"]),
        .library(name: "MomentumServices", targets: ["MomentumServices"]),
        .library(name: "MomentumWeb", targets: ["MomentumWeb"]),
        .library(name: "MomentumServer", targets: ["MomentumServer"]),
        .library(name: "MomentumTestSupport", targets: ["MomentumTestSupport"]),
        .executable(name: "momentum", targets: ["momentum"]),
        .executable(name: "momentum-benchmarks", targets: ["momentum-benchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(
            url: "https://github.com/apple/swift-configuration", from: "1.4.0",
            traits: [.defaults, "CommandLineArguments"]),
        // Tracing: the API (spans, W3C trace context) and, when `otlpEndpoint` is set, the OTLP
        // exporter; only its OTLP/HTTP trait, so that gRPC is not built.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Translations of the engine's texts, one file per language (Resources/Languages).
        .target(name: "MomentumCore", resources: [.copy("Resources")], swiftSettings: strict),
        .target(
            name: "MomentumStore",
            dependencies: [
                "MomentumCore", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict),
        // The HTTP contract: openapi.json and the code swift-openapi-generator made from it
        // (Scripts/generate-api; CI checks it is current), shared by the server and clients.
        .target(
            name: "MomentumAPI",
            dependencies: [
                "MomentumCore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            exclude: ["openapi-generator-config.yaml", "Generated/openapi.sha256"],
            resources: [.copy("openapi.json")],
            swiftSettings: strict
        ),
        // The offline-first client SDK: the user's log evaluated on the device, a durable
        // outbox in SQLite, push, pull and the change stream.
        .target(
            name: "MomentumClient",
            dependencies: [
                "MomentumCore", "MomentumAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // URLSession on Apple platforms, so that an app does not embed NIO and
                // BoringSSL through the SDK; AsyncHTTPClient on Linux, whose URLSession
                // buffers whole answers (the change stream never ends).
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession", condition: .when(platforms: apple)),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MomentumSQLite",
            dependencies: [
                "MomentumStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MomentumPostgres",
            dependencies: [
                "MomentumStore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CMomentumImage",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // The use cases, with no HTTP in them (no Hummingbird, HTTPTypes or NIO): each
        // receives the storage areas it uses (EventLog, AccountStore, …) and refuses with a
        // ServiceError, which the HTTP layer maps to a status in one table.
        .target(
            name: "MomentumServices",
            dependencies: [
                "MomentumCore", "MomentumAPI", "MomentumStore", "CMomentumImage",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The product's words in each language (Resources/locales): the web app's pages
            // and the notifications the services write.
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),
        // The web app: page controllers, view models, Mustache templates and the static files
        // (Resources), over the services; the server adds its routes to its router.
        .target(
            name: "MomentumWeb",
            dependencies: [
                "MomentumCore", "MomentumStore", "MomentumServices",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),
        .target(
            name: "MomentumServer",
            dependencies: [
                // The server knows storage only through the MomentumStore protocol; the
                // executable picks the backend.
                "MomentumCore", "MomentumAPI", "MomentumStore", "MomentumServices", "MomentumWeb", "CMomentumImage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),
        .target(
            name: "MomentumTestSupport",
            dependencies: [
                "MomentumCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "momentum",
            dependencies: [
                "MomentumCore", "MomentumStore", "MomentumSQLite", "MomentumPostgres", "MomentumServer",
                "MomentumServices", "MomentumClient", "MomentumAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            swiftSettings: strict
        ),
        // The benchmarks (BENCHMARKS.md): `swift run -c release momentum-benchmarks`. In the
        // main package so that the debug build CI makes anyway builds them for the smoke run.
        .executableTarget(
            name: "momentum-benchmarks",
            dependencies: [
                "MomentumCore", "MomentumTestSupport", "MomentumStore", "MomentumSQLite", "MomentumPostgres",
                "MomentumServices", "MomentumServer", "MomentumAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Benchmarks/Sources/MomentumBenchmarks",
            swiftSettings: strict
        ),
        .testTarget(
            name: "MomentumCoreTests",
            dependencies: [
                "MomentumCore", "MomentumAPI", "MomentumTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MomentumStoreTests",
            dependencies: [
                "MomentumStore", "MomentumSQLite", "MomentumPostgres", "MomentumTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MomentumServerTests",
            dependencies: [
                "MomentumServer", "MomentumServices", "MomentumWeb", "MomentumCore", "MomentumStore", "MomentumSQLite",
                "MomentumPostgres", "MomentumTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MomentumClientTests",
            dependencies: [
                "MomentumClient", "MomentumAPI", "MomentumCore", "MomentumServer", "MomentumServices", "MomentumStore",
                "MomentumSQLite",
                "MomentumPostgres", "MomentumTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Recorded answers and requests of a real server run (CompatibilityFixtureTests reads
            // them from the repository; MOMENTUM_RECORD_FIXTURES=1 writes them).
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MomentumCLITests",
            dependencies: ["momentum", "MomentumCore", "MomentumStore", "MomentumSQLite", "MomentumTestSupport"],
            swiftSettings: strict
        ),
    ]
)
