// swift-tools-version: 6.2
import PackageDescription

/// Builds swift-openapi-generator, which `Scripts/generate-api` runs to make the committed
/// code of `MomentumAPI` from its document. CI never builds this package: it only checks
/// that the committed code was generated from the committed document.
let package = Package(
    name: "APIGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
