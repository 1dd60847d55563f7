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
            "get /forgot-password", "post /forgot-password", "get /reset-password", "post /reset-password",
            "get /verify-email", "post /verify-email",
        ]
        #expect(webPages.subtracting(allRoutes).sorted() == [], "web pages listed here that are not routes")
        // Nor are the operator's console's (`/console…`, HTML for operators, docs/console.md).
        let routes = allRoutes.subtracting(webPages).filter { !$0.contains(" /console") }
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

    /// Every operation has its id and one tag the document describes, so a client generated
    /// in another language groups operations by area (`accounts`, `habits`, …).
    @Test func everyOperationHasAnIdAndADescribedTag() throws {
        let data = try Data(contentsOf: Self.repository.appending(path: "Sources/MomentumAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tags = try #require(document["tags"] as? [[String: Any]])
        let described = Set(
            tags.compactMap { tag in (tag["description"] as? String).flatMap { _ in tag["name"] as? String } })
        #expect(described.count == tags.count, "every tag has a description")
        var ids: Set<String> = []
        var used: Set<String> = []
        for (path, operations) in try #require(document["paths"] as? [String: [String: Any]]) {
            for (method, operation) in operations {
                let operation = operation as? [String: Any] ?? [:]
                let id = operation["operationId"] as? String ?? ""
                #expect(!id.isEmpty && ids.insert(id).inserted, "\(method) \(path): a unique operationId")
                let tagged = operation["tags"] as? [String] ?? []
                #expect(tagged.count == 1 && described.isSuperset(of: tagged), "\(method) \(path): \(tagged)")
                used.formUnion(tagged)
            }
        }
        #expect(described.subtracting(used).sorted() == [], "tags no operation has")
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
    /// a value outside an enumeration, a missing required field, a wrong type.
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
        // The document lets clients read fields and values it does not list; our server may
        // send neither.
        func family(role: String) -> Data {
            let family = #"{"owner": "u1", "ownerName": "Ann", "subject": "s1", "subjectName": "Rex", "members": 0"#
            return Data(#"{"families": [\#(family), "role": "\#(role)"}]}"#.utf8)
        }
        #expect(contract.problems(method: "GET", uri: "/v1/families", status: 200, body: family(role: "viewer")) == [])
        #expect(
            contract.problems(method: "GET", uri: "/v1/families", status: 200, body: family(role: "steward")).count == 1
        )
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

    /// Answers are open and requests closed (docs/api-versioning.md): no object an answer can
    /// hold refuses a field it does not know, and every enumeration in an answer takes any
    /// string beside its known values (`anyOf` the known values and `string`), so a client
    /// generated from today's document reads a newer server's answers. `Event`, which requests
    /// and answers share, follows the events' own rules (MomentumCore.Event reads it).
    @Test func everyAnswerObjectIsOpenAndEveryAnswerEnumerationTakesNewValues() throws {
        let data = try Data(contentsOf: Self.repository.appending(path: "Sources/MomentumAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        func names(in value: Any) throws -> Set<String> {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
            return Set(text.matches(of: /#\\?\/components\\?\/schemas\\?\/(\w+)/).map { String($0.1) })
        }
        func closure(_ start: Set<String>) throws -> Set<String> {
            var reached = start
            var pending = Array(start)
            while let name = pending.popLast() {
                for found in try names(in: schemas[name] ?? [:]) where reached.insert(found).inserted {
                    pending.append(found)
                }
            }
            return reached
        }
        var answerRoots: [(String, Any)] = []
        var requested: Set<String> = []
        for (name, response) in (document["components"] as? [String: Any])?["responses"] as? [String: Any] ?? [:] {
            answerRoots.append(("#/components/responses/\(name)", response))
        }
        for (path, operations) in paths {
            for (method, operation) in operations {
                let operation = operation as? [String: Any] ?? [:]
                answerRoots.append(("\(method) \(path)", operation["responses"] ?? [:]))
                requested.formUnion(try names(in: operation["requestBody"] ?? [:]))
            }
        }
        requested = try closure(requested)
        let answered = try closure(Set(try answerRoots.flatMap { try names(in: $0.1) }))
        #expect(answered.intersection(requested) == ["Event"], "schemas both answers and requests use")
        // The known-value enumerations that open enumerations refer to.
        let knownValues = Set(
            schemas.compactMap { name, schema in (schema as? [String: Any])?["enum"] != nil ? name : nil })
        var closed: [String] = []
        var closedEnumerations: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if object["additionalProperties"] as? Bool == false { closed.append(path) }
                if object["enum"] != nil { closedEnumerations.append(path) }
                if let options = object["anyOf"] as? [[String: Any]],
                    let reference = options.compactMap({ $0["$ref"] as? String }).first,
                    knownValues.contains(String(reference.split(separator: "/").last ?? "")),
                    options.count != 2
                        || !options.contains(where: {
                            $0.keys.sorted() == ["type"] && $0["type"] as? String == "string"
                        })
                {
                    closedEnumerations.append(path)
                }
                for (key, child) in object { walk(child, "\(path)/\(key)") }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, "\(path)[\(index)]") }
            }
        }
        for (path, root) in answerRoots { walk(root, path) }
        for name in answered.subtracting(requested).subtracting(knownValues) {
            walk(schemas[name] as Any, "#/components/schemas/\(name)")
        }
        #expect(answered.contains("APIError") && answered.contains("Habit") && knownValues.contains("NotificationKind"))
        #expect(closed.sorted() == [], "answer objects that refuse fields they do not know")
        #expect(closedEnumerations.sorted() == [], "answer enumerations that refuse values they do not know")
        // A known-value enumeration is only ever used open (in an answer), never closed.
        for name in knownValues where !requested.contains(name) {
            #expect(answered.contains(name), "\(name) is used by no answer")
        }
    }
}
