import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumPostgres
import MomentumSQLite
@_spi(Testing) import MomentumServer
@_spi(Testing) import MomentumServices
import MomentumStore
import MomentumTestSupport
import NIOCore
import Testing

/// The API's names and the store's are independent (issue 24, item 4): the same session
/// run against a store that renames fields of every projection document answers byte for
/// byte as against today's store, also after a restart that reads every document back;
/// and answers that rename fields leave every stored byte as it was. Both backends.
@Suite(.serialized) struct StoredFormTests {
    enum Backend: String, CaseIterable, Sendable { case sqlite, postgres }

    /// A field renamed in each kind of projection document (several in a habit's state,
    /// one of them only under `calendar`, so a day's `state` and today's `state` differ).
    static let renamedStore = StoredForm(
        habitState: try! JSONKeyRenames(["best": "bestStreak", "calendar.state": "status", "definition.name": "title"]),
        ledgerEntry: try! JSONKeyRenames(["diamonds": "gems"]),
        subject: try! JSONKeyRenames(["name": "label"]),
        unlock: try! JSONKeyRenames(["title": "heading"]),
        memory: try! JSONKeyRenames(["caption": "captionText"]),
        progressionItem: try! JSONKeyRenames(["methodName": "method"]),
        celebrationPlanner: try! JSONKeyRenames(["pending": "waiting"]),
        preferences: try! JSONKeyRenames(["doNotDisturb": "quiet"]),
        notifications: try! JSONKeyRenames(["reminderHour": "hour"]))

    /// Answer fields renamed: a habit's `current` streak and a wallet's `diamonds`.
    static let renamedAnswers = try! JSONKeyRenames(["current": "streakNow", "diamonds": "gems"])

    @Test(arguments: Backend.allCases)
    func renamingStoredFieldsChangesNoAnswer(_ backend: Backend) async throws {
        let today = try await Self.session(backend, form: .current)
        let renamed = try await Self.session(backend, form: Self.renamedStore)
        #expect(today.answers.count == renamed.answers.count)
        #expect(today.answers.count > 40, "the session made too few requests to cover the answers")
        for (plain, other) in zip(today.answers, renamed.answers) {
            #expect(plain.label == other.label)
            #expect(plain.text == other.text, "\(plain.label)")
        }
        // The renamed store did store the new names, and not the old ones.
        let documents = renamed.documents
        for (table, new, old) in [
            ("habits", "bestStreak", "best"), ("habits", "status", "state"), ("habits", "title", "name"),
            ("ledger", "gems", "diamonds"), ("subjects", "label", "name"), ("unlocks", "heading", "title"),
            ("memories", "captionText", "caption"), ("celebration_planners", "waiting", "pending"),
            ("profiles", "hour", "reminderHour"), ("profiles", "quiet", "doNotDisturb"),
        ] {
            let stored = documents[table, default: ""]
            #expect(stored.contains("\"\(new)\":"), "\(table) has no \(new): \(stored.prefix(300))")
            if old != "state" && old != "name" {
                #expect(!stored.contains("\"\(old)\":"), "\(table) still has \(old): \(stored.prefix(300))")
            }
        }
        // And today's store stores the domain's names, which are the answers' names.
        #expect(today.documents["habits", default: ""].contains("\"best\":"))
        #expect(today.documents["memories", default: ""].contains("\"caption\":"))
    }

    @Test(arguments: Backend.allCases)
    func renamingAnswerFieldsChangesNoStoredByte(_ backend: Backend) async throws {
        let today = try await Self.session(backend, form: .current)
        let renamed = try await Self.session(backend, form: .current, answers: Self.renamedAnswers)
        #expect(today.documents.keys.sorted() == renamed.documents.keys.sorted())
        for (table, stored) in today.documents {
            #expect(renamed.documents[table] == stored, "\(table)")
        }
        // The answers did use the new names (the check-in's too, which then is not copied
        // from the store).
        let checkIn = try #require(renamed.answers.first { $0.label.hasPrefix("check-in") })
        #expect(checkIn.text.contains("\"streakNow\":") && !checkIn.text.contains("\"current\":"), "\(checkIn.text)")
        let wallet = try #require(renamed.answers.first { $0.label == "GET /v1/wallet" })
        #expect(wallet.text.contains("\"gems\":") && !wallet.text.contains("\"diamonds\":"), "\(wallet.text)")
        let plainWallet = try #require(today.answers.first { $0.label == "GET /v1/wallet" })
        #expect(plainWallet.text.contains("\"diamonds\":"))
    }

    // MARK: the session

    struct Answer: Sendable {
        var label: String
        var text: String
    }

    struct Outcome: Sendable {
        var answers: [Answer]
        /// Each projection table's documents, row by row, without user ids.
        var documents: [String: String]
    }

    /// The reads compared after the writes, and again after a restart.
    static let reads = [
        "/v1/today", "/v1/habits?days=30", "/v1/habits/read?days=30", "/v1/analytics", "/v1/stats", "/v1/wallet",
        "/v1/store", "/v1/freeze-offers", "/v1/achievements", "/v1/progression", "/v1/subjects", "/v1/memories",
        "/v1/profile", "/v1/celebrations/next",
    ]

    /// Three weeks of check-ins with explicit event ids (so that every answer is the same
    /// from one database to the next), a subject, profile changes and a celebration
    /// session; every answer, then every read again after a restart on the same database.
    static func session(
        _ backend: Backend, form: StoredForm, answers renames: JSONKeyRenames = .none
    ) async throws -> Outcome {
        try await withLocation(backend) { open in
            let clock = TestClock()
            let first = try await open(form)
            let (written, token, user) = try await serve(first, clock: clock, renames: renames) { client in
                var answers: [Answer] = []
                clock.value.withLock { $0 -= 30 * 86_400 }
                let registered = try await call(
                    client, .post, "/v1/accounts",
                    json:
                        #"{"email": "form@example.com", "password": "correct horse", "displayName": "Form", "timeZone": "Europe/Berlin", "deviceName": "phone"}"#
                )
                #expect(registered.status == .created, "\(registered.text)")
                let session = try #require(
                    try JSONSerialization.jsonObject(with: Data(registered.text.utf8)) as? [String: Any])
                let token = try #require(session["token"] as? String)
                let user = try #require(session["userID"] as? String)
                func record(_ method: HTTPRequest.Method, _ path: String, _ json: String? = nil) async throws {
                    let answer = try await call(client, method, path, token: token, json: json)
                    #expect(answer.status.code < 300, "\(method) \(path): \(answer.text)")
                    answers.append(Answer(label: "\(method) \(path)", text: answer.text))
                }
                try await record(.post, "/v1/habits", #"{"eventId": "h_read", "habit": "read", "name": "Read"}"#)
                try await record(
                    .post, "/v1/subjects",
                    #"{"eventId": "s_ollie", "subject": "ollie", "name": "Ollie", "kind": "dog", "dates": {"born": "2026-01-02"}}"#
                )
                for day in 0..<21 where day != 9 {
                    clock.value.withLock { $0 += 86_400 }
                    let answer = try await call(
                        client, .post, "/v1/habits/read/check-ins", token: token,
                        json: #"{"eventId": "c_\#(day)", "note": "day \#(day)"}"#)
                    #expect(answer.status == .ok, "\(answer.text)")
                    answers.append(Answer(label: "check-in \(day)", text: answer.text))
                }
                try await record(
                    .patch, "/v1/profile",
                    #"{"doNotDisturb": true, "notifications": {"reminders": true, "reminderHour": 8}}"#)
                try await record(.post, "/v1/celebrations/sessions", #"{"session": "app-1"}"#)
                for path in reads { try await record(.get, path) }
                return (answers, token, user)
            }
            await first.close()
            // A restart: a new store on the same database reads every document back.
            let second = try await open(form)
            let reread = try await serve(second, clock: clock, renames: renames) { client in
                var answers: [Answer] = []
                for path in reads {
                    let answer = try await call(client, .get, path, token: token)
                    answers.append(Answer(label: "after a restart: GET \(path)", text: answer.text))
                }
                return answers
            }
            let documents = try await documents(of: second)
            await second.close()
            let masked = (written + reread).map {
                Answer(label: $0.label, text: $0.text.replacingOccurrences(of: user, with: "USER"))
            }
            return Outcome(answers: masked, documents: documents)
        }
    }

    /// Runs `body` with a function that opens a store on one fresh database.
    static func withLocation(
        _ backend: Backend,
        _ body: (@escaping @Sendable (StoredForm) async throws -> any SQLBackend) async throws -> Outcome
    ) async throws -> Outcome {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-form-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appending(path: "form.sqlite").path
            return try await body { form in
                let store = try SQLiteStore(path: path, storedForm: form)
                try await store.migrate()
                return store
            }
        case .postgres:
            return try await PostgresTestCluster.shared.withDatabase(prefix: "momentum_form") { url in
                try await body { form in
                    let store = try PostgresStore(url: url, storedForm: form)
                    try await store.migrate()
                    return store
                }
            }
        }
    }

    static func serve<R: Sendable>(
        _ store: any SQLBackend, clock: TestClock, renames: JSONKeyRenames,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> R
    ) async throws -> R {
        var configuration = ServerConfiguration()
        configuration.bcryptCost = 4
        configuration.userRequestsPerMinute = 0
        configuration.addressRequestsPerMinute = 0
        configuration.answerRenames = renames
        configuration.clock = { clock.value.withLock { $0 } }
        let state = ServerState(store: store, configuration: configuration, logger: ServerHarness.quietLogger)
        return try await Application(router: buildRouter(state)).test(.router) { client in try await body(client) }
    }

    /// A request, without the contract check of `call` (renamed answers are not the
    /// contract's).
    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, token: String? = nil,
        json: String? = nil
    ) async throws -> JSONResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            JSONResponse(status: response.status, headers: response.headers, body: response.body)
        }
    }

    /// The projection documents as stored, table by table.
    static func documents(of store: any SQLBackend) async throws -> [String: String] {
        let tables = [
            ("habits", "SELECT habit_id, state FROM habits ORDER BY habit_id"),
            ("ledger", "SELECT position, body FROM ledger ORDER BY position"),
            ("subjects", "SELECT subject_id, body FROM subjects ORDER BY subject_id"),
            ("unlocks", "SELECT unlock_id, body FROM unlocks ORDER BY unlock_id"),
            ("memories", "SELECT memory_id, body FROM memories ORDER BY memory_id"),
            ("progression", "SELECT method_id, position, body FROM progression ORDER BY method_id, position"),
            ("celebration_planners", "SELECT planner FROM celebration_planners"),
            ("profiles", "SELECT preferences, notifications FROM profiles"),
        ]
        let rows = try await store.run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query(tables.map { SQLStatement($0.1) }) { results throws(StoreError) in .done(results) }
            })
        var documents: [String: String] = [:]
        for ((table, _), result) in zip(tables, rows) {
            documents[table] = result.map { row in
                row.values.map { value in
                    switch value {
                    case .text(let text): text
                    default: "\(value)"
                    }
                }.joined(separator: " | ")
            }.joined(separator: "\n")
        }
        return documents
    }
}
