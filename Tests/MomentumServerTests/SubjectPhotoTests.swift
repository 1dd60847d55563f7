import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import MomentumServer
import MomentumServices
import Testing

/// The puppy's photo on its profile: `PUT`/`DELETE /v1/subjects/{subject}/photo`, and the
/// `photo` of `subject` events.
@Suite struct SubjectPhotoTests {
    static let png = MemoryAndOpsRouteTests.pngWithText

    /// Registers an ollie account with Ollie as its subject; returns the token.
    func ollieAccount(_ client: some TestClientProtocol) async throws -> String {
        let token = try await client.register("family", zone: "Europe/Berlin", pack: "ollie")
        let created = try await client.call(
            .post, "/v1/subjects", token: token,
            json: #"{"subject": "ollie", "name": "Ollie", "kind": "puppy", "dates": {"born": "2026-06-01"}}"#)
        #expect(created.status == .created, "\(created.text)")
        return token
    }

    func subject(_ client: some TestClientProtocol, token: String) async throws -> [String: Any] {
        let listed = try await client.call(.get, "/v1/subjects", token: token)
        return try #require((listed.json["subjects"] as? [[String: Any]])?.first { $0["id"] as? String == "ollie" })
    }

    @Test func aPhotoIsStoredWithoutMetadataKeptAcrossEditsReplacedAndRemoved() async throws {
        try await ServerHarness.with { harness, client in
            let token = try await ollieAccount(client)
            #expect(try await subject(client, token: token)["photo"] == nil)

            let uploaded = try await client.call(.put, "/v1/subjects/ollie/photo", token: token, bytes: Self.png)
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            #expect(uploaded.json["name"] as? String == "Ollie")
            let first = try #require(uploaded.json["photo"] as? String)
            #expect(first.hasPrefix("subjects/") && first.hasSuffix(".png"))
            let served = try await client.call(.get, "/v1/photos/\(first)", token: token)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/png")
            #expect(!String(decoding: Array(served.body.readableBytesView), as: UTF8.self).contains("52.52N"))
            #expect(try await subject(client, token: token)["photo"] as? String == first)

            // An edit of the name and dates (the web's form, another device) keeps the photo.
            harness.clock.value.withLock { $0 += 60 }
            let renamed = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    #"{"id": "rename", "type": "subject", "at": "\#(RFC3339.format(harness.now))", "tz": "Europe/Berlin", "subject": "ollie", "name": "Ollie B.", "kind": "puppy", "dates": {"born": "2026-06-01", "gotcha": "2026-08-01"}}"#
                ]))
            #expect(renamed.status == .ok)
            let edited = try await subject(client, token: token)
            #expect(edited["name"] as? String == "Ollie B.")
            #expect(edited["photo"] as? String == first)

            // A new photo replaces the old one, whose file is gone from the server. (Each
            // change is an event at the clock's time; the test's clock moves on between them.)
            harness.clock.value.withLock { $0 += 60 }
            let replaced = try await client.call(.put, "/v1/subjects/ollie/photo", token: token, bytes: Self.png)
            let second = try #require(replaced.json["photo"] as? String)
            #expect(second != first)
            #expect(replaced.json["name"] as? String == "Ollie B.")
            #expect(try await client.call(.get, "/v1/photos/\(first)", token: token).status == .notFound)
            #expect(try await client.call(.get, "/v1/photos/\(second)", token: token).status == .ok)

            // Removed: the subject has none, the file is gone, and removing again is harmless.
            harness.clock.value.withLock { $0 += 60 }
            let removed = try await client.call(.delete, "/v1/subjects/ollie/photo", token: token)
            #expect(removed.status == .ok)
            #expect(removed.json["photo"] == nil)
            #expect(removed.json["name"] as? String == "Ollie B.")
            #expect(try await client.call(.get, "/v1/photos/\(second)", token: token).status == .notFound)
            #expect(try await subject(client, token: token)["photo"] == nil)
            #expect(try await client.call(.delete, "/v1/subjects/ollie/photo", token: token).status == .ok)

            // The history says when the photo changed: each change is a subject event.
            let pulled = try await client.call(.get, "/v1/events?after=0", token: token)
            let photos = (pulled.json["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? [String: Any] }
                .filter { $0["type"] as? String == "subject" }.compactMap { $0["photo"] as? String }
            #expect(photos == [first, second, ""])
        }
    }

    @Test func badUploadsAndOtherPeoplesSubjectsAreRefusedAndChangeNothing() async throws {
        try await ServerHarness.with { _, client in
            let token = try await ollieAccount(client)
            let stranger = try await client.register("stranger", zone: "Europe/Berlin", pack: "ollie")

            let unknown = try await client.call(.put, "/v1/subjects/rex/photo", token: token, bytes: Self.png)
            #expect(unknown.status == .notFound)
            let theirs = try await client.call(.put, "/v1/subjects/ollie/photo", token: stranger, bytes: Self.png)
            #expect(theirs.status == .notFound)
            #expect(try await client.call(.delete, "/v1/subjects/ollie/photo", token: stranger).status == .notFound)
            let anonymous = try await client.call(.put, "/v1/subjects/ollie/photo", bytes: Self.png)
            #expect(anonymous.status == .unauthorized)

            let text = try await client.call(
                .put, "/v1/subjects/ollie/photo", token: token, bytes: Array("not a photo".utf8))
            #expect(text.status == .unsupportedMediaType)
            #expect(text.errorCode == "unsupported_photo_type")
            var truncated = Self.png
            truncated.removeLast(30)
            let broken = try await client.call(.put, "/v1/subjects/ollie/photo", token: token, bytes: truncated)
            #expect(broken.status == .unprocessableContent)
            let huge = try await client.call(
                .put, "/v1/subjects/ollie/photo", token: token, bytes: [UInt8](repeating: 0xFF, count: (8 << 20) + 1))
            #expect(huge.status == .contentTooLarge)
            #expect(try await subject(client, token: token)["photo"] == nil)

            // The stranger's photo is not Ollie's to take.
            _ = try await client.call(
                .post, "/v1/subjects", token: stranger, json: #"{"subject": "rex", "name": "Rex", "kind": "puppy"}"#)
            let strangers = try await client.call(.put, "/v1/subjects/rex/photo", token: stranger, bytes: Self.png)
            let strangersPath = try #require(strangers.json["photo"] as? String)
            #expect(try await client.call(.get, "/v1/photos/\(strangersPath)", token: token).status == .notFound)
        }
    }

    @Test(arguments: [
        ("subjects/p_never-uploaded.jpg", "is not a photo of yours"),
        ("memories/a.jpg", "must be a file under 'subjects/'"),
        ("/etc/passwd", "must be relative"),
        ("subjects/../x.jpg", "must not contain '..'"),
        ("subjects/" + String(repeating: "a", count: 300), "at most 256 bytes"),
    ])
    func anEventMayNameOnlyAnUploadedPhoto(path: String, reason: String) async throws {
        try await ServerHarness.with { harness, client in
            let token = try await ollieAccount(client)
            let pushed = try await client.call(
                .post, "/v1/events", token: token,
                json: eventsJSON([
                    #"{"id": "sneaky", "type": "subject", "at": "\#(RFC3339.format(harness.now))", "tz": "Europe/Berlin", "subject": "ollie", "name": "Ollie", "kind": "puppy", "photo": "\#(path)"}"#
                ]))
            let result = try #require((pushed.json["results"] as? [[String: Any]])?.first)
            #expect(result["status"] as? String == "invalid", "\(pushed.text)")
            let error = try #require(result["error"] as? [String: Any])
            #expect(error["field"] as? String == "photo")
            #expect((error["message"] as? String)?.contains(reason) == true, "\(error)")
            #expect(try await subject(client, token: token)["photo"] == nil)
        }
    }
}
