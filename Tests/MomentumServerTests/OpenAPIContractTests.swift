import Foundation
import HTTPTypes
import MomentumAPI
import MomentumCore
import MomentumSQLite
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// The routes and the OpenAPI document cannot drift: every route is documented, every
/// documented operation is a route, and the served document is `MomentumAPI`'s `openapi.json`.
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
        let router = buildRouter(
            ServerState(store: store, configuration: configuration, logger: ServerHarness.quietLogger))
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
            "get /sw.js",
            "get /", "get /static/{file}", "get /signin", "post /signin", "get /signup", "post /signup",
            "post /signout", "get /today", "get /journey", "get /profile", "get /memories", "get /habits/{habit}",
            "get /packs/{pack}", "get /notifications",
            "get /memories/{memory}/share", "get /memories/{memory}/illustration.svg", "get /friends", "get /feed",
            "get /friends/{friend}",
            "get /invitations/{code}", "get /families/{owner}/{subject}",
        ]
        #expect(webPages.subtracting(allRoutes).sorted() == [], "web pages listed here that are not routes")
        let routes = allRoutes.subtracting(webPages)
        let data = try Data(contentsOf: Self.repository.appending(path: "Sources/MomentumAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } })
        #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.json")
        #expect(documented.subtracting(routes).sorted() == [], "documented operations with no route")
        #expect(APIDocument.data == data, "the served document must be Sources/MomentumAPI/openapi.json")
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
            ("/v1/milestones/{milestone}", "put", "milestone", ["milestone"]),
        ]
        let data = try Data(contentsOf: Self.repository.appending(path: "Sources/MomentumAPI/openapi.json"))
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
            let path = Dictionary(uniqueKeysWithValues: route.fromPath.map { ($0, "x") })
            let taking = EventRequest.Route(type: route.type, path: path)
            #expect(Set(taking.fields) == documented.subtracting(route.fromPath), "\(route.path)")
            let error = try #require(throws: APIError.self, "\(route.path)") {
                try JSONIO.decodeBody(
                    EventRequest.self, from: Data(#"{"undocumented": "x"}"#.utf8),
                    userInfo: [EventRequest.routeKey: taking])
            }
            #expect(error.details.map(\.field) == ["undocumented"])
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
        let fractional = #"{"wallet": {"diamonds": 1.5, "freezes": 1}, "ledger": []}"#
        for body in [extra, missing, mistyped, fractional] {
            #expect(
                contract.problems(method: "GET", uri: "/v1/wallet", status: 200, body: Data(body.utf8)).count == 1,
                "\(body)")
        }
        #expect(contract.problems(method: "GET", uri: "/v1/wallet", status: 418, body: Data("{}".utf8)).count == 1)
        #expect(
            contract.problems(method: "GET", uri: "/v1/undocumented", status: 200, body: Data("{}".utf8)).count == 1)
        #expect(contract.problems(method: "GET", uri: "/today", status: 200, body: Data("{}".utf8)) == [])
    }

    /// Answers of a new account with nothing due (where optional fields are absent), and of
    /// a medium habit (weight 1.5, so weighted counts are fractional), match the document:
    /// every required field present, every integer integral, no undocumented field.
    @Test func emptyStateAndWeightedAnswersMatchTheDocument() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("contract")
            let reads = [
                "/v1/analytics", "/v1/stats", "/v1/today", "/v1/habits", "/v1/achievements", "/v1/progression",
                "/v1/wallet", "/v1/store", "/v1/freeze-offers", "/v1/subjects", "/v1/events", "/v1/profile",
                "/v1/devices", "/v1/memories", "/v1/celebrations/next", "/v1/milestones",
            ]
            var problems: [String] = []
            func check(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil) async throws {
                let response = try await client.call(method, uri, token: token, json: json)
                #expect((200..<300).contains(response.status.code), "\(method) \(uri): \(response.text)")
                problems += OpenAPIContract.shared.problems(
                    method: method.rawValue, uri: uri, status: response.status.code, body: Data(buffer: response.body))
            }
            for uri in reads { try await check(.get, uri) }
            try await check(.post, "/v1/celebrations/sessions", json: #"{"session": "s1"}"#)
            #expect(problems == [], "a new account's answers")

            problems = []
            let created = try await client.call(
                .post, "/v1/habits", token: token, json: #"{"habit": "read", "name": "Read", "difficulty": "medium"}"#)
            #expect(created.status == .created, "\(created.text)")
            let habit = "read"
            try await check(.post, "/v1/habits/\(habit)/check-ins")
            for uri in reads + ["/v1/habits/\(habit)"] { try await check(.get, uri) }
            #expect(problems == [], "answers with a medium habit")
            let stats = try await client.call(.get, "/v1/stats", token: token)
            let consistency = try #require(stats.json["consistency"] as? [String: Any])
            #expect(consistency["done"] as? Double == 1.5, "the case this test is about: a fractional weighted count")
            #expect(consistency["score"] as? Int == 100)
        }
    }

    /// Answers every JSON route gives before it looks at the request (too large, not JSON)
    /// are documented, as schemathesis and any generated client expect.
    @Test func bodyFramingErrorsAreDocumentedAnswers() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("framing")
            let large = #"{"note": "\#(String(repeating: "x", count: 20_000))"}"#
            let patch = try await client.call(.patch, "/v1/memories/m_1", token: token, json: large)
            #expect(patch.status == .contentTooLarge, "\(patch.text)")
            #expect(
                OpenAPIContract.shared.problems(
                    method: "PATCH", uri: "/v1/memories/m_1", status: 413, body: Data(buffer: patch.body)) == [])
            let text = try await client.call(
                .post, "/v1/celebrations/sessions", token: token, bytes: Array(#"{"session": "s"}"#.utf8),
                headers: [.contentType: "text/plain"])
            #expect(text.status == .unsupportedMediaType)
            #expect(
                OpenAPIContract.shared.problems(
                    method: "POST", uri: "/v1/celebrations/sessions", status: 415, body: Data(buffer: text.body)) == [])
        }
        let data = try Data(contentsOf: Self.repository.appending(path: "Sources/MomentumAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for (path, operations) in paths {
            for (method, operation) in operations {
                let operation = operation as? [String: Any] ?? [:]
                let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                guard content?["application/json"] != nil else { continue }
                let documented = Set((operation["responses"] as? [String: Any] ?? [:]).keys)
                #expect(
                    Set(["400", "413", "415", "422"]).subtracting(documented).sorted() == [], "\(method) \(path)")
            }
        }
    }

    /// Every object an answer can hold says which fields it has: either closed
    /// (`additionalProperties: false`) or a map whose values have a schema.
    @Test func everyAnswerObjectIsClosed() throws {
        let data = try Data(contentsOf: Self.repository.appending(path: "Sources/MomentumAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var open: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if object["properties"] != nil, object["additionalProperties"] == nil { open.append(path) }
                for (key, child) in object { walk(child, "\(path)/\(key)") }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, "\(path)[\(index)]") }
            }
        }
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var referenced: Set<String> = []
        // Answers shared by operations (every error is the Error response).
        let shared = (document["components"] as? [String: Any])?["responses"] as? [String: Any] ?? [:]
        for (name, response) in shared {
            walk(response, "#/components/responses/\(name)")
            let text = String(decoding: try JSONSerialization.data(withJSONObject: response), as: UTF8.self)
            for match in text.matches(of: /#\\?\/components\\?\/schemas\\?\/(\w+)/) {
                referenced.insert(String(match.1))
            }
        }
        for (path, operations) in paths {
            for (method, operation) in operations {
                let responses = (operation as? [String: Any])?["responses"] ?? [:]
                walk(responses, "\(method) \(path)")
                let text = String(decoding: try JSONSerialization.data(withJSONObject: responses), as: UTF8.self)
                for match in text.matches(of: /#\\?\/components\\?\/schemas\\?\/(\w+)/) {
                    referenced.insert(String(match.1))
                }
            }
        }
        // Components an answer refers to, and those they refer to.
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        var pending = Array(referenced)
        while let name = pending.popLast() {
            guard let schema = schemas[name] else { continue }
            walk(schema, "#/components/schemas/\(name)")
            let text = String(decoding: try JSONSerialization.data(withJSONObject: schema), as: UTF8.self)
            for match in text.matches(of: /#\\?\/components\\?\/schemas\\?\/(\w+)/)
            where referenced.insert(String(match.1)).inserted {
                pending.append(String(match.1))
            }
        }
        #expect(referenced.contains("APIError") && referenced.contains("Habit"))
        #expect(open.sorted() == [], "answer objects that do not say which fields they have")
    }
}
