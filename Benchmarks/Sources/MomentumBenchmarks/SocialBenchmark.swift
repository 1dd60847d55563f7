import Foundation
import MomentumCore
import MomentumPostgres
import MomentumSQLite
import MomentumStore
import MomentumTestSupport

/// Benchmark 12: the feed at scale (issue 27), on SQLite and PostgreSQL.
///
/// A reader with 500 friends and 100,000 posts among them (200 each, over a year, the
/// newest 5,000 with three reactions each). Momentum fans out on write: sharing copies the
/// post into each friend's `feed_entries`, so that reading a feed is one index range of the
/// reader's own rows.
///
/// - Feed read: a page of 20 (the first, and pages from random points), with names and
///   reaction counts, its p99 beside a plain indexed read of the same 20 rows.
/// - Fan-out: sharing one post with 500 friends and with 5,000 (10×), beside a plain insert
///   of the same number of rows in one statement.
/// - The road not taken: fan-out on read (a join of the friends' posts at read time) at 500
///   and 5,000 friends, beside the feed read.
enum SocialBenchmark {
    static func run(_ settings: Settings) -> [ResultRow] {
        blocking { await measure(settings) }
    }

    struct Shape {
        var friends: Int
        var bigFriends: Int
        var posts: Int
        var reads: Int
        var shares: Int
    }

    private static func measure(_ settings: Settings) async -> [ResultRow] {
        let shape =
            settings.quick
            ? Shape(friends: 50, bigFriends: 500, posts: 5_000, reads: 60, shares: 10)
            : Shape(friends: 500, bigFriends: 5_000, posts: 100_000, reads: 400, shares: 40)
        var rows: [ResultRow] = []
        let directory = FileManager.default.temporaryDirectory.appending(path: "momentum-social-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try SQLiteStore(path: directory.appending(path: "social.sqlite").path)
            try await store.migrate()
            rows += try await measure(store, name: "SQLite", shape: shape)
            await store.close()
        } catch {
            print("  SQLite: failed: \(error)")
        }
        do {
            let cluster = try PostgresTestCluster.shared
            try await cluster.withDatabase(prefix: "momentum_bench_social") { url in
                let store = try PostgresStore(url: url)
                do {
                    try await store.migrate()
                    rows += try await measure(store, name: "PostgreSQL", shape: shape)
                } catch {
                    print("  PostgreSQL: failed: \(error)")
                }
                await store.close()
            }
        } catch {
            print("  PostgreSQL: failed: \(error)")
        }
        return rows
    }

    private static func measure(_ store: some SQLBackend, name: String, shape: Shape) async throws -> [ResultRow] {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let loading = Stopwatch.now()
        // Accounts with profiles (names are joined into the feed): the reader, the friends,
        // and a popular author whose 5,000 friends include the reader's 500.
        for user in ["reader", "popular"] + (0..<shape.bigFriends).map(friend) {
            try await store.createAccount(
                Account(id: user, email: "\(user)@example.com", passwordHash: "x", createdAt: start),
                profile: Profile(displayName: "Friend \(user)", timeZone: "UTC", pack: "habits", updatedAt: start))
        }
        var pairs: [(String, String)] = []
        for index in 0..<shape.friends { pairs += [("reader", friend(index)), (friend(index), "reader")] }
        for index in 0..<shape.bigFriends { pairs += [("popular", friend(index)), (friend(index), "popular")] }
        try await insert(
            store, "friendships (user_id, friend_id, since)", width: 3,
            rows: pairs.map { [.text($0.0), .text($0.1), .date(start)] })

        // One real share gives the stored form of a post; the rest are copies of it.
        let template = try await store.share(post("f0000000", "p_template", at: start))
        let body = try await postBody(store)
        _ = try await store.deletePost(template.post.id, of: "f0000000")

        var posts: [[SQLValue]] = []
        var entries: [[SQLValue]] = []
        for index in 0..<shape.posts {
            let author = friend(index % shape.friends)
            let id = String(format: "p_%08d", index)
            let at = start.addingTimeInterval(Double(index) * 365 * 86_400 / Double(shape.posts))
            let text = body.replacingOccurrences(of: "f0000000", with: author)
                .replacingOccurrences(of: "p_template", with: id)
            posts.append([.text(author), .text(id), .text("u-\(id)"), .date(at), .int(0), .text(text)])
            entries.append([.text("reader"), .text(author), .text(id), .date(at), .text(text)])
            entries.append([.text(author), .text(author), .text(id), .date(at), .text(text)])
        }
        try await insert(store, "posts (user_id, post_id, unlock_id, created_at, held, body)", width: 6, rows: posts)
        try await insert(store, "feed_entries (user_id, author_id, post_id, added_at, body)", width: 5, rows: entries)
        var reactions: [[SQLValue]] = []
        for index in max(0, shape.posts - 5_000)..<shape.posts {
            let author = friend(index % shape.friends)
            for offset in 1...3 {
                let reactor = friend((index + offset) % shape.friends)
                guard reactor != author else { continue }
                reactions.append([
                    .text(author), .text(String(format: "p_%08d", index)), .text(reactor),
                    .text(["clap", "fire", "party"][offset - 1]), .date(start),
                ])
            }
        }
        try await insert(
            store, "reactions (user_id, post_id, reactor_id, reaction, created_at)", width: 5, rows: reactions)
        if name == "PostgreSQL" { _ = try await store.writeAlone(SQLStatement("ANALYZE")) }
        print(
            "  \(name): \(Format.grouped(shape.posts)) posts of \(shape.friends) friends, "
                + "\(Format.grouped(entries.count)) feed entries, \(Format.grouped(reactions.count)) reactions "
                + "loaded in \(Format.duration(Double(Stopwatch.now() &- loading)))")

        // Feed reads: the first page, then pages from random points, each beside the plain read.
        var generator = SplitMix64(seed: 0x5EED_F00D)
        var feedTimes: [UInt64] = []
        var plainTimes: [UInt64] = []
        var readTimes500: [UInt64] = []
        var checksum = 0
        for round in 0..<shape.reads {
            let cursor: FeedCursor? =
                round % 4 == 0
                ? nil
                : {
                    let index = Int(generator.next() % UInt64(shape.posts))
                    return FeedCursor(
                        addedAt: start.addingTimeInterval(Double(index) * 365 * 86_400 / Double(shape.posts)),
                        author: friend(index % shape.friends), post: String(format: "p_%08d", index))
                }()
            let (page, feedTime) = try await timed { try await store.feed(of: "reader", before: cursor, limit: 20) }
            checksum &+= page.count
            feedTimes.append(feedTime)
            let (plain, plainTime) = try await timed { try await plainRead(store, cursor) }
            checksum &+= plain
            plainTimes.append(plainTime)
            if round < shape.reads / 4 {
                let (merged, mergeTime) = try await timed { try await readTimeMerge(store, reader: "reader", cursor) }
                checksum &+= merged
                readTimes500.append(mergeTime)
            }
        }
        // Fan-out on read for the popular author's view: 5,000 friends' posts merged at read time.
        var readTimesBig: [UInt64] = []
        for _ in 0..<max(4, shape.reads / 8) {
            let (merged, mergeTime) = try await timed { try await readTimeMerge(store, reader: "popular", nil) }
            checksum &+= merged
            readTimesBig.append(mergeTime)
        }

        // Fan-out: the reader (500 friends) and the popular author (5,000) share posts.
        var share500: [UInt64] = []
        var shareBig: [UInt64] = []
        var insert500: [UInt64] = []
        var insertBig: [UInt64] = []
        for round in 0..<shape.shares {
            let at = start.addingTimeInterval(400 * 86_400 + Double(round))
            let (shared, time) = try await timed { try await store.share(post("reader", "p_r\(round)", at: at)) }
            checksum &+= shared.readers.count
            share500.append(time)
            let (big, bigTime) = try await timed { try await store.share(post("popular", "p_b\(round)", at: at)) }
            checksum &+= big.readers.count
            shareBig.append(bigTime)
            insert500.append(try await plainInsert(store, rows: shape.friends + 1, round: round, at: at, body: body))
            insertBig.append(
                try await plainInsert(store, rows: shape.bigFriends + 1, round: round + 1_000_000, at: at, body: body))
        }
        print("  \(name): checksum \(checksum)")
        let feed = Percentiles(feedTimes)
        let plain = Percentiles(plainTimes)
        let merge500 = Percentiles(readTimes500)
        let mergeBig = Percentiles(readTimesBig)
        let s500 = Percentiles(share500)
        let sBig = Percentiles(shareBig)
        let i500 = Percentiles(insert500)
        let iBig = Percentiles(insertBig)
        print(
            "  \(name): feed page p50 \(Format.duration(feed.median)) p99 \(Format.duration(feed.value(at: 99))); "
                + "plain read p50 \(Format.duration(plain.median)) p99 \(Format.duration(plain.value(at: 99)))")
        print(
            "  \(name): fan-out on read p50 \(Format.duration(merge500.median)) at \(shape.friends) friends, "
                + "\(Format.duration(mergeBig.median)) at \(Format.grouped(shape.bigFriends))")
        print(
            "  \(name): share p50 \(Format.duration(s500.median)) to \(shape.friends) friends "
                + "(plain insert \(Format.duration(i500.median))), \(Format.duration(sBig.median)) to "
                + "\(Format.grouped(shape.bigFriends)) (plain insert \(Format.duration(iBig.median)))")
        let feedP99 = feed.value(at: 99)
        return [
            ResultRow(
                benchmark: "social",
                metric:
                    "\(name): feed page of 20 among \(Format.grouped(shape.posts)) posts of \(shape.friends) friends, p99",
                measured: Format.duration(feedP99), baseline: Format.duration(plain.value(at: 99)) + " (plain read)",
                ratio: Format.ratio(feedP99 / max(plain.value(at: 99), 1)), target: "≤ 5× the plain read",
                met: feedP99 <= 5 * plain.value(at: 99)),
            ResultRow(
                benchmark: "social", metric: "\(name): share to \(shape.friends) friends (fan-out on write), p50",
                measured: Format.duration(s500.median), baseline: Format.duration(i500.median) + " (plain insert)",
                ratio: Format.ratio(s500.median / max(i500.median, 1)), target: "≤ 3× the plain insert",
                met: s500.median <= 3 * i500.median),
            ResultRow(
                benchmark: "social",
                metric: "\(name): share to \(Format.grouped(shape.bigFriends)) friends (10×), p50",
                measured: Format.duration(sBig.median), baseline: Format.duration(iBig.median) + " (plain insert)",
                ratio: Format.ratio(sBig.median / max(iBig.median, 1))),
            ResultRow(
                benchmark: "social", metric: "\(name): fan-out on read instead, \(shape.friends) friends, p50",
                measured: Format.duration(merge500.median), baseline: Format.duration(feed.median) + " (feed read)",
                ratio: Format.ratio(merge500.median / max(feed.median, 1))),
            ResultRow(
                benchmark: "social",
                metric: "\(name): fan-out on read instead, \(Format.grouped(shape.bigFriends)) friends, p50",
                measured: Format.duration(mergeBig.median), baseline: Format.duration(feed.median) + " (feed read)",
                ratio: Format.ratio(mergeBig.median / max(feed.median, 1))),
        ]
    }

    static func friend(_ index: Int) -> String { String(format: "f%07d", index) }

    static func post(_ owner: String, _ id: String, at: Date) -> Post {
        let day = DayClock(dayStartHour: 0).localDay(of: at, in: ZoneOffsetTable.named("UTC")!)
        return Post(
            owner: owner, id: id,
            unlock: Unlock(
                id: "u-\(id)", rule: "streak-30", title: "30-day streak: Read", category: "streaks", tier: .major,
                milestoneType: "streak", value: 30, achievedAt: at, achievedDay: day, detectedAt: at,
                retroactive: false,
                habit: "read", badge: "🏆", context: ["habit": "Read", "unit": "day", "value": "30"]),
            habitName: "Read", createdAt: at)
    }

    /// The stored body of the one post shared so far (the template).
    private static func postBody(_ store: some SQLBackend) async throws -> String {
        let rows = try await store.run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([SQLStatement("SELECT body FROM posts WHERE post_id = 'p_template'")]) {
                    rows throws(StoreError) in .done(rows[0])
                }
            })
        guard let body = rows.first?[0].string else { throw StoreError(.corrupt, "no template post") }
        return body
    }

    /// The same 20 rows the feed reads, by the same index, without names or reactions.
    private static func plainRead(_ store: some SQLBackend, _ cursor: FeedCursor?) async throws -> Int {
        var sql = "SELECT author_id, post_id, added_at, body FROM feed_entries WHERE user_id = ?"
        var arguments: [SQLValue] = [.text("reader")]
        if let cursor {
            sql += " AND (added_at, author_id, post_id) < (?, ?, ?)"
            arguments += [.date(cursor.addedAt), .text(cursor.author), .text(cursor.post)]
        }
        sql += " ORDER BY added_at DESC, author_id DESC, post_id DESC LIMIT 20"
        let statement = SQLStatement(sql, arguments)
        return try await store.run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0].count) }
            })
    }

    /// Fan-out on read: the page merged from every friend's posts at read time.
    private static func readTimeMerge(
        _ store: some SQLBackend, reader: String, _ cursor: FeedCursor?
    ) async throws -> Int {
        var sql = """
            SELECT p.user_id, p.post_id, p.created_at, p.body FROM friendships f
            JOIN posts p ON p.user_id = f.friend_id WHERE f.user_id = ?
            """
        var arguments: [SQLValue] = [.text(reader)]
        if let cursor {
            sql += " AND p.created_at < ?"
            arguments.append(.date(cursor.addedAt))
        }
        sql += " ORDER BY p.created_at DESC LIMIT 20"
        let statement = SQLStatement(sql, arguments)
        return try await store.run(
            StoreProgram(writes: false) { () throws(StoreError) in
                .query([statement]) { rows throws(StoreError) in .done(rows[0].count) }
            })
    }

    /// The floor of a fan-out: a plain insert of the same rows (one per reader, the same
    /// body) into the same table with its indexes, in one statement per 1,200 rows.
    private static func plainInsert(
        _ store: some SQLBackend, rows: Int, round: Int, at: Date, body: String
    ) async throws -> UInt64 {
        var values: [[SQLValue]] = []
        for index in 0..<rows {
            let reader = index == rows - 1 ? "popular" : friend(index)
            values.append([.text(reader), .text("plain\(round)"), .text("p_plain"), .date(at), .text(body)])
        }
        let start = Stopwatch.now()
        try await insert(store, "feed_entries (user_id, author_id, post_id, added_at, body)", width: 5, rows: values)
        return Stopwatch.now() &- start
    }

    /// Inserts rows in statements of at most 500 rows (1,000 parameters on SQLite's side).
    private static func insert(
        _ store: some SQLBackend, _ table: String, width: Int, rows: [[SQLValue]]
    ) async throws {
        var index = 0
        let chunk = max(1, 6_000 / width)
        let marks = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        while index < rows.count {
            let slice = rows[index..<min(rows.count, index + chunk)]
            _ = try await store.writeAlone(
                SQLStatement(
                    "INSERT INTO \(table) VALUES "
                        + Array(repeating: marks, count: slice.count).joined(separator: ", "),
                    slice.flatMap { $0 }))
            index += slice.count
        }
    }

    static func timed<T>(_ body: () async throws -> T) async throws -> (T, UInt64) {
        let start = Stopwatch.now()
        let value = try await body()
        return (value, Stopwatch.now() &- start)
    }
}
