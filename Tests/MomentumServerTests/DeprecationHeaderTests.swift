import Foundation
import HTTPTypes
import MomentumAPI
@_spi(Testing) import MomentumServices
import Testing

@_spi(Testing) @testable import MomentumServer

/// The deprecation policy of docs/api-versioning.md is kept by the server, not just written:
/// an operation openapi.json marks `deprecated: true` answers with `Deprecation` (RFC 9745)
/// and `Sunset` (RFC 8594), and no other does.
@Suite struct DeprecationHeaderTests {
    /// openapi.json with `GET /v1/wallet` deprecated on 2026-12-01 and going on 2027-06-01,
    /// as a later release would mark it.
    static func documentDeprecatingTheWallet() throws -> Data {
        var document = try #require(try JSONSerialization.jsonObject(with: APIDocument.data) as? [String: Any])
        var paths = try #require(document["paths"] as? [String: Any])
        var wallet = try #require(paths["/v1/wallet"] as? [String: Any])
        var get = try #require(wallet["get"] as? [String: Any])
        get["deprecated"] = true
        get["x-deprecated-at"] = "2026-12-01"
        get["x-sunset"] = "2027-06-01"
        wallet["get"] = get
        paths["/v1/wallet"] = wallet
        document["paths"] = paths
        return try JSONSerialization.data(withJSONObject: document)
    }

    @Test func aDeprecatedOperationSaysSoAndWhenItGoes() async throws {
        let document = try Self.documentDeprecatingTheWallet()
        try await ServerHarness.with(configure: { $0.apiDocument = document }) { _, client in
            let token = try await client.register("ada")
            let wallet = try await client.call(.get, "/v1/wallet", token: token)
            #expect(wallet.status == .ok)
            #expect(wallet.headers[.deprecation] == "@1796083200")
            #expect(wallet.headers[.sunset] == "Tue, 01 Jun 2027 00:00:00 GMT")
            // A refusal of a deprecated operation says so too.
            let refused = try await client.call(.get, "/v1/wallet")
            #expect(refused.status == .unauthorized && refused.headers[.deprecation] == "@1796083200")
            // Other operations, and the same path with another method, do not.
            let stats = try await client.call(.get, "/v1/stats", token: token)
            #expect(stats.status == .ok && stats.headers[.deprecation] == nil && stats.headers[.sunset] == nil)
        }
    }

    /// Today's document deprecates nothing (so no answer carries the headers), and every
    /// operation it ever deprecates says since when, which the headers need.
    @Test func everyDeprecatedOperationOfTheDocumentSaysSinceWhen() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: APIDocument.data) as? [String: Any])
        var deprecated = 0
        for (path, operations) in try #require(document["paths"] as? [String: [String: Any]]) {
            for (method, operation) in operations {
                let operation = operation as? [String: Any] ?? [:]
                guard operation["deprecated"] as? Bool == true else { continue }
                deprecated += 1
                let since = operation["x-deprecated-at"] as? String
                #expect(since.flatMap(DeprecationMiddleware.day) != nil, "\(method) \(path): x-deprecated-at")
            }
        }
        #expect(DeprecationMiddleware(document: APIDocument.data).notices.count == deprecated)
        let marked = DeprecationMiddleware(document: try Self.documentDeprecatingTheWallet()).notices
        #expect(marked.map(\.pattern) == [["v1", "wallet"]] && marked.first?.method == .get)
    }
}
