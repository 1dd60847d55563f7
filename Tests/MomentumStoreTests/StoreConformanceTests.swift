import Foundation
import MomentumCore
import MomentumStore
import MomentumTestSupport
import Testing

/// One suite, run unchanged against every backend.
@Suite(.serialized)
struct StoreConformanceTests {
    @Test(arguments: Backend.allCases)
    func migratesFromAnEmptyDatabaseAndAgainIsANoOp(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            #expect(try await store.appliedMigrations() == Schema.migrations.map(\.version))
            try await store.migrate()
            #expect(try await store.appliedMigrations() == Schema.migrations.map(\.version))
            // The migrations (frozen SQL) build exactly the tables the schema describes:
            // every column with its type and nullability, and no other table or column.
            let dialect = store.dialect
            for table in Schema.tables {
                let query =
                    dialect == .sqlite
                    ? SQLStatement(
                        "SELECT name, type, \"notnull\" FROM pragma_table_info(?) ORDER BY cid", [.text(table.name)])
                    : SQLStatement(
                        """
                        SELECT column_name, upper(data_type), CASE is_nullable WHEN 'NO' THEN 1::bigint ELSE 0::bigint END
                        FROM information_schema.columns
                        WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                        """, [.text(table.name)])
                let found = try await store.run(
                    StoreProgram(writes: false) { () throws(StoreError) in
                        .query([query]) { results throws(StoreError) in
                            .done(
                                results[0].map { row in
                                    "\(row[0].string ?? "?") \(row[1].string ?? "?") \(row[2].int64 ?? -1)"
                                })
                        }
                    })
                let described = table.columns.map {
                    "\($0.name) \(dialect.type(of: $0.kind)) \($0.nullable ? 0 : 1)"
                }
                #expect(found == described, "\(table.name) on \(backend)")
            }
            let tableQuery =
                dialect == .sqlite
                ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                : "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name"
            let tables = try await store.run(
                StoreProgram(writes: false) { () throws(StoreError) in
                    .query([SQLStatement(tableQuery)]) { results throws(StoreError) in
                        .done(results[0].map { row in row[0].string ?? "?" })
                    }
                })
            #expect(Set(tables) == Set(Schema.tables.map(\.name) + [Schema.migrationsTable]))
        }
    }

    @Test(arguments: Backend.allCases)
    func upgradesAnOlderSchemaKeepingItsData(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend, migrate: false) { store in
            // Given a database at version 1 holding an account, …
            try await store.migrate(upTo: 1)
            #expect(try await store.appliedMigrations() == [1])
            _ = try await store.run(
                StoreProgram(writes: true) { () throws(StoreError) in
                    .execute([
                        SQLStatement(
                            "INSERT INTO accounts (user_id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
                            [.text("ada"), .text("ada@example.com"), .text("hash"), .real(0)])
                    ]) { _ in .done(true) }
                })
            // … migrating to the latest version keeps it.
            try await store.migrate()
            #expect(try await store.appliedMigrations() == Schema.migrations.map(\.version))
            #expect(try await store.account(id: "ada")?.email == "ada@example.com")
        }
    }

    @Test(arguments: Backend.allCases)
    func upgradingDropsTheReceiverAnswersThatWebhookErrorsOnceQuoted(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend, migrate: false) { store in
            // Given a webhook whose last error quoted its receiver's answer (before version 10), …
            try await store.migrate(upTo: 9)
            _ = try await store.run(
                StoreProgram(writes: true) { () throws(StoreError) in
                    .execute([
                        SQLStatement(
                            """
                            INSERT INTO webhooks (webhook_id, url, secret, kinds, created_at, consecutive_failures,
                              last_error, last_failure_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?)
                            """,
                            [
                                .text("wh_1"), .text("https://hooks.example.com/in"), .text("s3cret"), .real(0),
                                .integer(2), .text("HTTP 500: {\"internal\": \"metadata\"}"), .real(60),
                            ])
                    ]) { _ in .done(true) }
                })
            // … the upgrade keeps the webhook and its failures, not the quote.
            try await store.migrate()
            let webhook = try #require(try await store.webhooks().first { $0.id == "wh_1" })
            #expect(webhook.lastError == nil)
            #expect(webhook.consecutiveFailures == 2)
            #expect(webhook.lastFailureAt == Date(timeIntervalSince1970: 60))
        }
    }

    @Test(arguments: Backend.allCases)
    func accountsAreUniqueByIdAndCaseInsensitiveEmail(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(
                Fixtures.account("ada", email: "Ada@Example.com"), profile: Fixtures.profile())
            #expect(try await store.account(email: "ADA@example.COM")?.id == "ada")
            await #expect(throws: StoreError.self) {
                try await store.createAccount(
                    Fixtures.account("bob", email: "ada@example.com"), profile: Fixtures.profile())
            }
            do {
                try await store.createAccount(
                    Fixtures.account("bob", email: "ada@example.com"), profile: Fixtures.profile())
            } catch let error as StoreError {
                #expect(error.code == .emailTaken)
            }
            do {
                try await store.createAccount(
                    Fixtures.account("ada", email: "other@example.com"), profile: Fixtures.profile())
            } catch let error as StoreError {
                #expect(error.code == .userExists)
            }
            // The failed sign-ups left nothing behind: the email is still free for another id.
            #expect(try await store.account(id: "bob") == nil)
            try await store.createAccount(
                Fixtures.account("bob", email: "bob@example.com"), profile: Fixtures.profile())
            do {
                try await store.createAccount(Fixtures.account("", email: "x@example.com"), profile: Fixtures.profile())
                Issue.record("an empty id was accepted")
            } catch let error as StoreError {
                #expect(error.code == .invalidInput)
            }
            do {
                var profile = Fixtures.profile()
                profile.pack = "nope"
                try await store.createAccount(Fixtures.account("cy"), profile: profile)
                Issue.record("an unknown pack was accepted")
            } catch let error as StoreError {
                #expect(error.code == .unknownPack)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func deletingAnAccountRemovesEveryRowOfItsUser(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            _ = try await store.append(
                [try Fixtures.createHabit()], for: "ada", receivedAt: Fixtures.day(1), device: nil)
            try await store.saveSession(
                DeviceSession(userID: "ada", tokenHash: "h1", deviceName: "phone", createdAt: Fixtures.start))
            #expect(try await store.deleteAccount(id: "ada"))
            #expect(try await store.account(id: "ada") == nil)
            #expect(try await store.account(email: "ada@example.com") == nil)
            #expect(try await store.events(of: "ada", after: 0, limit: 10).isEmpty)
            #expect(try await store.sessions(of: "ada").isEmpty)
            #expect(try await store.deleteAccount(id: "ada") == false)
            // The email can be used again.
            try await store.createAccount(
                Fixtures.account("ada2", email: "ada@example.com"), profile: Fixtures.profile())
        }
    }

    @Test(arguments: Backend.allCases)
    func sessionsAreStoredByTokenHashAndCanBeRevoked(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            let session = DeviceSession(
                userID: "ada", tokenHash: "abc", deviceName: "Ada's phone", createdAt: Fixtures.start,
                expiresAt: Fixtures.day(30))
            try await store.saveSession(session)
            try await store.saveSession(
                DeviceSession(userID: "ada", tokenHash: "def", deviceName: "laptop", createdAt: Fixtures.day(2)))
            #expect(try await store.session(of: "ada", tokenHash: "abc") == session)
            #expect(try await store.session(of: "bob", tokenHash: "abc") == nil)
            try await store.touchSession(of: "ada", tokenHash: "abc", at: Fixtures.day(3))
            #expect(try await store.session(of: "ada", tokenHash: "abc")?.lastSeenAt == Fixtures.day(3))
            #expect(try await store.sessions(of: "ada").map(\.tokenHash) == ["def", "abc"])
            #expect(try await store.deleteSession(of: "ada", tokenHash: "abc"))
            #expect(try await store.deleteSession(of: "ada", tokenHash: "abc") == false)
            do {
                try await store.saveSession(
                    DeviceSession(userID: "ghost", tokenHash: "x", deviceName: "d", createdAt: Fixtures.start))
                Issue.record("a session for a missing account was stored")
            } catch let error as StoreError {
                #expect(error.code == .notFound)
            }
        }
    }

    /// A password change replaces the hash and, when asked, ends every session but the one
    /// kept, naming those it ended; another account's sessions stay.
    @Test(arguments: Backend.allCases)
    func aPasswordChangeReplacesTheHashAndEndsTheOtherSessions(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            try await store.createAccount(Fixtures.account("bob"), profile: Fixtures.profile())
            for (user, hash) in [("ada", "phone"), ("ada", "laptop"), ("ada", "tablet"), ("bob", "phone")] {
                try await store.saveSession(
                    DeviceSession(userID: user, tokenHash: hash, deviceName: hash, createdAt: Fixtures.start))
            }
            #expect(try await store.changePassword(to: "$2b$04$first", of: "ada", keeping: nil) == [])
            #expect(try await store.account(id: "ada")?.passwordHash == "$2b$04$first")
            #expect(try await store.sessions(of: "ada").count == 3)
            let ended = try await store.changePassword(to: "$2b$04$second", of: "ada", keeping: "laptop")
            #expect(ended == ["phone", "tablet"])
            #expect(try await store.account(id: "ada")?.passwordHash == "$2b$04$second")
            #expect(try await store.sessions(of: "ada").map(\.tokenHash) == ["laptop"])
            #expect(try await store.sessions(of: "bob").map(\.tokenHash) == ["phone"])
            #expect(try await store.account(id: "bob")?.passwordHash == Fixtures.account("bob").passwordHash)
            #expect(try await store.changePassword(to: "$2b$04$x", of: "ghost", keeping: "phone") == nil)
            #expect(try await store.sessions(of: "bob").map(\.tokenHash) == ["phone"])
            await #expect(throws: StoreError.self) {
                try await store.changePassword(to: "", of: "ada", keeping: nil)
            }
        }
    }

    /// An append hands back the JSON of each habit row it wrote (cold, warm, and through
    /// the two-phase path): the stored state, and nothing for a habit it left alone.
    @Test(arguments: Backend.allCases)
    func anAppendReportsTheHabitStatesItWrote(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            let created = try await store.append(
                [try Fixtures.createHabit("read"), try Fixtures.createHabit("run")], for: "ada",
                receivedAt: Fixtures.day(1, hour: 9), device: nil)
            #expect(Set(created.habitJSON.keys) == ["read", "run"])
            for day in 1...9 {
                let now = Fixtures.day(day, hour: 21)
                let result = try await store.append(
                    [try Fixtures.completion("c\(day)", day: day)], for: "ada", receivedAt: now, device: nil)
                // A new day changes every habit's calendar, so both rows are written; on
                // the day they were created, only the habit checked in changed.
                #expect(Set(result.habitJSON.keys) == (day == 1 ? ["read"] : ["read", "run"]), "day \(day)")
                let stored = try await store.projection(of: "ada").habits
                let fresh = try await store.evaluate("ada") { engine, _ in
                    engine.state(at: now, calendarDays: UserProjection.calendarDays).habits
                }
                for (id, json) in result.habitJSON {
                    let reported = try MomentumJSON.decoder().decode(HabitState.self, from: Data(json.utf8))
                    #expect(reported == stored.first { $0.definition.id == id }, "day \(day), \(id)")
                    #expect(reported == fresh.first { $0.definition.id == id }, "day \(day), \(id)")
                }
            }
            // Later the same day: only the habit checked in changes.
            let later = try await store.append(
                [
                    try Fixtures.event(
                        """
                        {"id":"c9b","type":"completion","at":"\(RFC3339.format(Fixtures.day(9, hour: 21)))","tz":"UTC",
                         "habit":"read","note":"again"}
                        """)
                ], for: "ada", receivedAt: Fixtures.day(9, hour: 22), device: nil)
            #expect(later.appliedCount == 1, "\(later.outcomes)")
            #expect(Array(later.habitJSON.keys) == ["read"])
            let again = try await store.append(
                [try Fixtures.completion("c9", day: 9)], for: "ada", receivedAt: Fixtures.day(9, hour: 22), device: nil)
            #expect(again.habitJSON.isEmpty, "a duplicate writes nothing")
        }
    }

    @Test(arguments: Backend.allCases)
    func anEventStoredBeforeTodaysLimitsCountsForNothingAndTheAccountStaysReadable(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            // Given the event that crashed every read before numbers were bounded (a
            // completion value of 1e19), stored by an older server …
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            _ = try await store.append(
                [try Fixtures.createHabit(), try Fixtures.completion("c1", day: 1)], for: "ada",
                receivedAt: Fixtures.day(1, hour: 21), device: "phone")
            let old =
                #"{"id":"huge","type":"completion","at":"2026-01-02T20:00:00Z","tz":"UTC","habit":"read","value":1e19}"#
            _ = try await store.run(
                StoreProgram(writes: true) { () throws(StoreError) in
                    .execute([
                        SQLStatement(
                            """
                            INSERT INTO events (user_id, seq, event_id, type, at, time_zone, body, received_at, device)
                            VALUES (?, 3, 'huge', 'completion', ?, 'UTC', ?, ?, NULL)
                            """,
                            [
                                .text("ada"), .real(Fixtures.day(2, hour: 20).timeIntervalSince1970), .text(old),
                                .real(Fixtures.day(2, hour: 21).timeIntervalSince1970),
                            ]),
                        SQLStatement(
                            "UPDATE user_heads SET head_seq = 3, version = version + 1 WHERE user_id = ?",
                            [.text("ada")]),
                    ]) { _ in .done(true) }
                })
            // … the account reads: the event counts for nothing, the others as before.
            let events = try await store.events(of: "ada", after: 0, limit: 100)
            #expect(events.map(\.event.id) == ["create-read", "c1"])
            let count = try await store.evaluate("ada") { user, _ in user.streaks.events.count }
            #expect(count == 2)
            let next = try await store.append(
                [try Fixtures.completion("c3", day: 3)], for: "ada", receivedAt: Fixtures.day(3, hour: 21), device: nil)
            #expect(next.outcomes.map(\.status) == [.applied(seq: 4)])
        }
    }

    @Test(arguments: Backend.allCases)
    func theSameCompletionSentTwiceIsStoredOnce(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            let create = try Fixtures.createHabit()
            let done = try Fixtures.completion("c1", day: 1)
            let first = try await store.append(
                [create, done], for: "ada", receivedAt: Fixtures.day(1, hour: 21), device: "phone")
            #expect(first.outcomes.map(\.status) == [.applied(seq: 1), .applied(seq: 2)])
            let again = try await store.append(
                [done], for: "ada", receivedAt: Fixtures.day(1, hour: 22), device: "tablet")
            #expect(again.outcomes.map(\.status) == [.duplicate])
            #expect(again.headSeq == 2)
            let events = try await store.events(of: "ada", after: 0, limit: 100)
            #expect(events.map(\.event.id) == ["create-read", "c1"])
            #expect(events.map(\.seq) == [1, 2])
            #expect(events[1].device == "phone")
            #expect(try await store.events(of: "ada", after: 1, limit: 100).map(\.seq) == [2])
            // The same id for a different event is refused, and not stored.
            let reused = try Fixtures.completion("c1", day: 1, hour: 9)
            let conflict = try await store.append(
                [reused], for: "ada", receivedAt: Fixtures.day(1, hour: 22), device: nil)
            guard case .invalid(let error) = conflict.outcomes[0].status else {
                Issue.record("expected an invalid outcome, got \(conflict.outcomes)")
                return
            }
            #expect(error.code == .conflictingEventID)
            #expect(try await store.events(of: "ada", after: 0, limit: 100).count == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func appendingForAMissingAccountIsNotFound(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            do {
                _ = try await store.append(
                    [try Fixtures.createHabit()], for: "ghost", receivedAt: Fixtures.day(1), device: nil)
                Issue.record("append for a missing account succeeded")
            } catch let error as StoreError {
                #expect(error.code == .notFound)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func projectionsEqualAFreshEvaluationWarmOrCold(_ backend: Backend) async throws {
        // Given a generated year of events for three habits, appended in chunks, …
        var options = LogGenerator.Options()
        options.days = 120
        options.habits = 3
        options.seed = 7
        options.timeZone = "Europe/Berlin"
        options.purchaseRate = 0.05
        options.backfillRate = 0.1
        let events = LogGenerator(options).events()
        for capacity in [2_000, 0] {
            try await StoreFixture.withStore(backend, cacheCapacity: capacity) { store in
                try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
                var index = 0
                var applied: [Event] = []
                while index < events.count {
                    let chunk = Array(events[index..<min(events.count, index + 7)])
                    let now = chunk.map(\.at).max()!.addingTimeInterval(60)
                    let result = try await store.append(chunk, for: "ada", receivedAt: now, device: nil)
                    for (event, outcome) in zip(chunk, result.outcomes) where outcome.isStored { applied.append(event) }
                    index += 7
                }
                // … the projections equal what the engine computes from the stored log.
                let now = events.map(\.at).max()!.addingTimeInterval(60)
                let projection = try await store.projection(of: "ada")
                var engine = MomentumUser(pack: .habits)
                for stored in try await store.events(of: "ada", after: 0, limit: 100_000) {
                    _ = try engine.append(stored.event, detectedAt: stored.receivedAt)
                }
                let state = engine.state(at: now, calendarDays: UserProjection.calendarDays)
                #expect(projection.wallet == state.wallet)
                #expect(projection.ledger == state.ledger)
                #expect(projection.habits.map(\.definition.id) == state.habits.map(\.definition.id))
                #expect(projection.habits.map(\.current) == state.habits.map(\.current))
                #expect(projection.habits.map(\.best) == state.habits.map(\.best))
                #expect(projection.habits.map(\.calendar) == state.habits.map(\.calendar))
                #expect(projection.habits.allSatisfy { $0.calendar.count == UserProjection.calendarDays })
                #expect(projection.headSeq == Int64(applied.count))
                #expect(Set(projection.unlocks.map(\.id)) == Set(engine.unlocks.map(\.id)))
            }
        }
    }

    /// A read after the cache was emptied rebuilds the engine and offers it to the cache;
    /// the next append takes it and must rewrite the projection, not diff against nothing
    /// (which inserted ledger rows at positions already stored).
    @Test(arguments: Backend.allCases)
    func anAppendAfterAReadRebuiltTheEngineKeepsTheProjectionWhole(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            var events = [try Fixtures.createHabit()]
            for day in 1...30 { events.append(try Fixtures.completion("c\(day)", day: day)) }
            _ = try await store.append(events, for: "ada", receivedAt: Fixtures.day(30, hour: 21), device: nil)
            #expect(try await store.projection(of: "ada").ledger.isEmpty == false)
            // A celebration write drops the cached engine; a read rebuilds and offers it.
            _ = try await store.updateCelebrations(of: "ada", now: Fixtures.day(30, hour: 21)) { planner in
                planner.pending.count
            }
            _ = try await store.evaluate("ada") { engine, _ in engine.streaks.events.count }
            let bought = try await store.append(
                [try Fixtures.purchase("buy", item: "freeze-5", day: 30)], for: "ada",
                receivedAt: Fixtures.day(30, hour: 22), device: nil)
            #expect(bought.outcomes.map(\.isStored) == [true])
            let stored = try await store.projection(of: "ada")
            let fresh = try await store.evaluate("ada") { engine, _ in
                engine.state(at: Fixtures.day(30, hour: 22), calendarDays: 1).ledger
            }
            #expect(stored.ledger == fresh)
            #expect(stored.ledger.last?.source == .purchase)
        }
    }

    /// Reading "after" an append answers with at least that append's state: the append's
    /// own state while nothing else was written, the newest once another append followed.
    @Test(arguments: Backend.allCases)
    func evaluatingAfterAnAppendIsNeverOlderThanTheAppend(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            let created = try await store.append(
                [try Fixtures.createHabit()], for: "ada", receivedAt: Fixtures.day(1, hour: 8), device: nil)
            let first = try await store.append(
                [try Fixtures.completion("c1", day: 1, hour: 9)], for: "ada", receivedAt: Fixtures.day(1, hour: 10),
                device: nil)
            #expect(first.version > created.version)
            let count: @Sendable (inout MomentumUser, Profile) throws(StoreError) -> Int = { engine, _ in
                engine.streaks.events.count
            }
            #expect(try await store.evaluate("ada", after: first.version, count) == 2)
            #expect(first.appliedCount == 1)
            let second = try await store.append(
                [try Fixtures.completion("c2", day: 2, hour: 9)], for: "ada", receivedAt: Fixtures.day(2, hour: 10),
                device: nil)
            #expect(second.version > first.version)
            // An older version is no longer cached: the read goes to the database.
            #expect(try await store.evaluate("ada", after: first.version, count) == 3)
            #expect(try await store.evaluate("ada", after: created.version, count) == 3)
            // A celebration write moves the version on (a cached engine holds the planner).
            _ = try await store.updateCelebrations(of: "ada", now: Fixtures.day(2, hour: 10)) { $0.pending.count }
            #expect(try await store.projection(of: "ada").version > second.version)
            #expect(try await store.evaluate("ada", after: second.version, count) == 3)
            #expect(try await store.evaluate("ada", after: second.version, count) == 3)
            // A duplicate changes nothing and reports the version it found.
            let again = try await store.append(
                [try Fixtures.completion("c2", day: 2, hour: 9)], for: "ada", receivedAt: Fixtures.day(2, hour: 11),
                device: nil)
            #expect(again.appliedCount == 0)
            let stored = try await store.projection(of: "ada").version
            #expect(again.version == stored || again.version == -1)
            #expect(try await store.evaluate("ada", after: again.version, count) == 3)
            await #expect(throws: StoreError.self) {
                try await store.evaluate("nobody", after: 0, count)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func twoDevicesRacingToBuyFreezesBuyOnlyWhatTheWalletHolds(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            var events = [try Fixtures.createHabit()]
            for day in 1...30 { events.append(try Fixtures.completion("c\(day)", day: day)) }
            _ = try await store.append(events, for: "ada", receivedAt: Fixtures.day(30, hour: 21), device: nil)
            let before = try await store.projection(of: "ada").wallet
            // Enough for one freeze-5 (50 💎), not for two.
            #expect(before.diamonds >= 50 && before.diamonds < 100)
            async let phone = store.append(
                [try Fixtures.purchase("buy-phone", item: "freeze-5", day: 30)], for: "ada",
                receivedAt: Fixtures.day(30, hour: 22), device: "phone")
            async let tablet = store.append(
                [try Fixtures.purchase("buy-tablet", item: "freeze-5", day: 30)], for: "ada",
                receivedAt: Fixtures.day(30, hour: 22), device: "tablet")
            let results = try await [phone, tablet]
            let applied = results.filter { $0.outcomes[0].isStored }
            #expect(applied.count == 1)
            for result in results where !result.outcomes[0].isStored {
                guard case .rejected(let error) = result.outcomes[0].status else {
                    Issue.record("expected a rejection, got \(result.outcomes[0].status)")
                    continue
                }
                #expect(error.code == .insufficientDiamonds)
            }
            let after = try await store.projection(of: "ada")
            #expect(after.wallet.diamonds == before.diamonds - 50)
            #expect(after.wallet.diamonds >= 0)
            #expect(after.ledger.allSatisfy { $0.diamondBalance >= 0 })
            #expect(after.ledger.filter { $0.source == .purchase }.count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func fiftyConcurrentAppendsCrossingARewardThresholdGrantItOnce(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            var events = [try Fixtures.createHabit()]
            for day in 1...9 { events.append(try Fixtures.completion("c\(day)", day: day)) }
            _ = try await store.append(events, for: "ada", receivedAt: Fixtures.day(9, hour: 21), device: nil)
            #expect(try await store.projection(of: "ada").wallet.diamonds == 0)
            // 50 devices complete day 10 at once: the 10-day reward of +20 💎 is due.
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for device in 0..<50 {
                    let event = try Fixtures.completion("d10-\(device)", day: 10, hour: 18)
                    group.addTask {
                        try await store.append(
                            [event], for: "ada", receivedAt: Fixtures.day(10, hour: 19), device: "d\(device)")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 50)
            #expect(results.allSatisfy { $0.outcomes[0].isStored })
            let projection = try await store.projection(of: "ada")
            let rewards = projection.ledger.filter { $0.source == .reward }
            #expect(rewards.count == 1)
            #expect(rewards.first?.diamonds == 20)
            #expect(projection.wallet.diamonds == 20)
            #expect(projection.headSeq == 60)
            let seqs = try await store.events(of: "ada", after: 0, limit: 1_000).map(\.seq)
            #expect(seqs == Array(1...60))
        }
    }

    @Test(arguments: Backend.allCases)
    func unlocksBecomeMemoriesAndCelebrationsOnce(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            var events = [try Fixtures.createHabit()]
            for day in 1...7 { events.append(try Fixtures.completion("c\(day)", day: day)) }
            let result = try await store.append(events, for: "ada", receivedAt: Fixtures.day(7, hour: 21), device: nil)
            #expect(result.unlocks.contains { $0.rule == "streak-7" })
            let again = try await store.append(events, for: "ada", receivedAt: Fixtures.day(7, hour: 22), device: nil)
            #expect(again.unlocks.isEmpty)
            let projection = try await store.projection(of: "ada")
            let memory = try #require(projection.memories.first { $0.rule == "streak-7" })
            let queued = projection.celebrations?.pending.map(\.id) ?? []
            #expect(queued.contains(memory.unlockID))
            #expect(Set(queued).count == queued.count)

            // The user adds a note and a photo; later appends keep them.
            let photo = StoredPhoto(
                path: "memories/week.jpg", contentType: "image/jpeg", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3],
                createdAt: Fixtures.day(7))
            try await store.savePhoto(photo, for: "ada")
            let updated = try await store.updateMemory(
                of: "ada", id: memory.id, note: "First week!", photo: try MemoryPhoto(original: photo.path))
            #expect(updated.note == "First week!")
            _ = try await store.append(
                [try Fixtures.completion("c8", day: 8)], for: "ada", receivedAt: Fixtures.day(8, hour: 21), device: nil)
            let later = try await store.projection(of: "ada")
            #expect(later.memories.first { $0.id == memory.id }?.note == "First week!")
            #expect(try await store.photo(of: "ada", path: photo.path) == photo)
            #expect(try await store.photo(of: "bob", path: photo.path) == nil)
            // Only the owner's copy goes; a second removal finds nothing.
            #expect(try await store.deletePhoto(of: "bob", path: photo.path) == false)
            #expect(try await store.photo(of: "ada", path: photo.path) == photo)
            #expect(try await store.deletePhoto(of: "ada", path: photo.path))
            #expect(try await store.photo(of: "ada", path: photo.path) == nil)
            #expect(try await store.deletePhoto(of: "ada", path: photo.path) == false)
            try await store.savePhoto(photo, for: "ada")
            do {
                try await store.updateMemory(of: "ada", id: "memory:nope", note: nil, photo: nil)
                Issue.record("a missing memory was updated")
            } catch let error as StoreError {
                #expect(error.code == .notFound)
            }
            do {
                try await store.savePhoto(
                    StoredPhoto(
                        path: "../etc/passwd", contentType: "image/jpeg", bytes: [1], createdAt: Fixtures.day(7)),
                    for: "ada")
                Issue.record("a path outside memories/ was accepted")
            } catch let error as StoreError {
                #expect(error.code == .invalidInput)
            }

            // Delivering a celebration is one transaction on the planner.
            let delivered = try await store.updateCelebrations(of: "ada", now: Fixtures.day(8, hour: 22)) { planner in
                planner.pending.count
            }
            #expect(delivered == queued.count)
        }
    }

    @Test(arguments: Backend.allCases)
    func changingThePackRewritesTheProjections(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            var events = [try Fixtures.createHabit()]
            for day in 1...10 { events.append(try Fixtures.completion("c\(day)", day: day)) }
            _ = try await store.append(events, for: "ada", receivedAt: Fixtures.day(10, hour: 21), device: nil)
            #expect(try await store.projection(of: "ada").wallet.diamonds == 20)
            var profile = Fixtures.profile(pack: "growth")
            profile.updatedAt = Fixtures.day(10, hour: 22)
            try await store.updateProfile(profile, for: "ada")
            #expect(try await store.profile(of: "ada")?.pack == "growth")
            let growth = try await store.projection(of: "ada")
            var engine = MomentumUser(pack: .growth)
            for event in events { _ = try engine.append(event) }
            #expect(growth.wallet == engine.state(at: Fixtures.day(10, hour: 22)).wallet)
            #expect(growth.habits.first?.current == 10)
        }
    }

    @Test(arguments: Backend.allCases)
    func theProfilesLanguageIsStoredAndSpeaksThroughTheEngine(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            #expect(try await store.profile(of: "ada")?.language == nil)
            var events = [try Fixtures.createHabit()]
            for day in 1...7 { events.append(try Fixtures.completion("c\(day)", day: day)) }
            _ = try await store.append(events, for: "ada", receivedAt: Fixtures.day(7, hour: 21), device: nil)
            let english = try await store.evaluate("ada") { engine, _ in engine.unlocks.map { [$0.rule, $0.title] } }
            #expect(!english.isEmpty)

            var profile = Fixtures.profile()
            profile.language = "pt-BR"
            profile.updatedAt = Fixtures.day(7, hour: 22)
            try await store.updateProfile(profile, for: "ada")
            #expect(try await store.profile(of: "ada")?.language == "pt-BR")
            let portuguese = try await store.evaluate("ada") { engine, _ in engine.unlocks.map { [$0.rule, $0.title] } }
            // The same unlocks, their titles in Portuguese.
            #expect(portuguese.map(\.[0]) == english.map(\.[0]))
            #expect(portuguese.map(\.[1]).contains("Sequência de 7 dias: Read"))
            #expect(portuguese.map(\.[1]).contains("Primeiro check-in concluído: Read"))
            #expect(Set(portuguese.map(\.[1])).isDisjoint(with: english.map(\.[1])))

            profile.language = nil
            profile.updatedAt = Fixtures.day(7, hour: 23)
            try await store.updateProfile(profile, for: "ada")
            #expect(try await store.profile(of: "ada")?.language == nil)

            profile.language = "xx-YY"
            do {
                try await store.updateProfile(profile, for: "ada")
                Issue.record("a language Momentum does not speak was stored")
            } catch let error as StoreError {
                #expect(error.code == .invalidInput)
                #expect(error.message.contains("pt-BR"))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func idempotencyKeysReturnTheFirstResponseAndRefuseAnotherRequest(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("ada"), profile: Fixtures.profile())
            let record = IdempotencyRecord(
                key: "k1", requestHash: "h1", status: 201, response: Array("{\"ok\":true}".utf8),
                createdAt: Fixtures.day(1))
            #expect(try await store.saveIdempotencyRecord(record, for: "ada") == record)
            var retry = record
            retry.createdAt = Fixtures.day(2)
            #expect(try await store.saveIdempotencyRecord(retry, for: "ada") == record)
            var other = record
            other.requestHash = "h2"
            do {
                try await store.saveIdempotencyRecord(other, for: "ada")
                Issue.record("a key reused for another request was accepted")
            } catch let error as StoreError {
                #expect(error.code == .idempotencyConflict)
            }
            #expect(try await store.idempotencyRecord(of: "ada", key: "k1") == record)
            #expect(try await store.idempotencyRecord(of: "bob", key: "k1") == nil)
            #expect(try await store.deleteIdempotencyRecords(before: Fixtures.day(3)) == 1)
            #expect(try await store.idempotencyRecord(of: "ada", key: "k1") == nil)
        }
    }
}
