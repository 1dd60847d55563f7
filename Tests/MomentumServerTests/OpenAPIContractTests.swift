import Foundation
import MomentumCore
import MomentumSQLite
import Testing

@testable import MomentumServer

/// The routes and the OpenAPI document cannot drift: every route is documented, every
/// documented operation is a route, and the served copy is the repository's `openapi.json`.
@Suite struct OpenAPIContractTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationExists() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appending(path: "o.sqlite").path)
        var configuration = ServerConfiguration()
        configuration.bcryptCost = 4
        let router = buildRouter(ServerState(store: store, configuration: configuration))
        let allRoutes = Set(
            router.routes.map { route -> String in
                let path = route.path.description.split(separator: "/").map { part -> String in
                    if part.hasPrefix(":") { return "{\(part.dropFirst())}" }
                    if part == "**" { return "{path}" }
                    return String(part)
                }
                return "\(route.method.rawValue.lowercased()) /\(path.joined(separator: "/"))"
            })
        // The web app's HTML pages and files are not part of the JSON API's contract.
        let webPages: Set<String> = [
            "get /", "get /static/{file}", "get /signin", "post /signin", "get /signup", "post /signup",
            "post /signout", "get /today", "get /journey", "get /profile", "get /memories", "get /habits/{habit}",
            "get /memories/{memory}/share",
        ]
        #expect(webPages.subtracting(allRoutes).sorted() == [], "web pages listed here that are not routes")
        let routes = allRoutes.subtracting(webPages)
        let data = try Data(contentsOf: Self.repository.appending(path: "openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } })
        #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.json")
        #expect(documented.subtracting(routes).sorted() == [], "documented operations with no route")
        let served = try Data(
            contentsOf: Self.repository.appending(path: "Sources/MomentumServer/Resources/openapi.json"))
        #expect(served == data, "Sources/MomentumServer/Resources/openapi.json must equal openapi.json")
        await store.close()
    }

    /// The request body each convenience route documents is exactly what the route takes:
    /// its event's fields, less those its path gives, with `eventId`, `at` and `tz`; the
    /// route accepts every documented field and refuses any other.
    @Test func convenienceRoutesDocumentTheFieldsTheyTake() throws {
        let routes: [(path: String, method: String, type: String, fromPath: [String])] = [
            ("/v1/habits", "post", "habit.created", []),
            ("/v1/habits/{habit}", "patch", "habit.updated", ["habit"]),
            ("/v1/habits/{habit}/archive", "post", "habit.archived", ["habit"]),
            ("/v1/habits/{habit}/check-ins", "post", "completion", ["habit"]),
            ("/v1/habits/{habit}/skips", "post", "skip", ["habit"]),
            ("/v1/subjects", "post", "subject", []),
        ]
        let data = try Data(contentsOf: Self.repository.appending(path: "openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for route in routes {
            let operation = paths[route.path]?[route.method] as? [String: Any]
            let body = operation?["requestBody"] as? [String: Any]
            let content = (body?["content"] as? [String: Any])?["application/json"] as? [String: Any]
            let schema = try #require(content?["schema"] as? [String: Any], "\(route.method) \(route.path)")
            #expect(schema["additionalProperties"] as? Bool == false, "\(route.path)")
            let documented = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
            let taken = try #require(Event.fieldsByType[route.type]).subtracting(route.fromPath).union([
                "eventId", "at", "tz",
            ])
            #expect(documented == taken, "\(route.method) \(route.path)")
            let pathValues = Dictionary(uniqueKeysWithValues: route.fromPath.map { ($0, JSONValue.string("x")) })
            for field in documented {
                #expect(throws: Never.self, "\(route.path) \(field)") {
                    try Routes.checkFields([field: .string("x")], of: route.type, path: pathValues)
                }
            }
            #expect(throws: APIError.self, "\(route.path)") {
                try Routes.checkFields(["undocumented": .string("x")], of: route.type, path: pathValues)
            }
        }
    }

    /// The answer check catches what drift looks like: a field the document does not name,
    /// a missing required field, a wrong type.
    @Test func theAnswerCheckFindsUndocumentedMissingAndMistypedFields() throws {
        let contract = OpenAPIContract.shared
        let good = #"{"diamonds": 3, "freezes": 1}"#
        let wallet = #"{"wallet": \#(good), "ledger": []}"#
        #expect(contract.problems(method: "GET", uri: "/v1/wallet", status: 200, body: Data(wallet.utf8)) == [])
        let extra = #"{"wallet": {"diamonds": 3, "freezes": 1, "rubies": 2}, "ledger": []}"#
        let missing = #"{"ledger": []}"#
        let mistyped = #"{"wallet": {"diamonds": "three", "freezes": 1}, "ledger": []}"#
        for body in [extra, missing, mistyped] {
            #expect(
                contract.problems(method: "GET", uri: "/v1/wallet", status: 200, body: Data(body.utf8)).count == 1,
                "\(body)")
        }
        #expect(contract.problems(method: "GET", uri: "/v1/wallet", status: 418, body: Data("{}".utf8)).count == 1)
        #expect(
            contract.problems(method: "GET", uri: "/v1/undocumented", status: 200, body: Data("{}".utf8)).count == 1)
        #expect(contract.problems(method: "GET", uri: "/today", status: 200, body: Data("{}".utf8)) == [])
    }
}
