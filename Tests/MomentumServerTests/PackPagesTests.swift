import Foundation
import HTTPTypes
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer
@testable import MomentumServices
@testable import MomentumWeb

/// Accounts that track several packs, and the pages rendered from the packs' forms.
struct PackPagesTests {
    static let web: HTTPFields = [HTTPField.Name("X-Momentum-Client")!: "web"]

    @Test func anAccountChoosesWhatItTracksAndChangesItLater() async throws {
        try await ServerHarness.with { _, client in
            let created = try await client.call(
                .post, "/v1/accounts",
                json:
                    #"{"email": "kim@example.com", "password": "correct horse", "displayName": "Kim", "packs": ["savings", "ollie"]}"#
            )
            #expect(created.status == .created, "\(created.text)")
            let token = try #require(created.json["token"] as? String)
            let profile = try await client.call(.get, "/v1/profile", token: token)
            #expect(profile.json["pack"] as? String == "ollie+savings")
            #expect(profile.json["packs"] as? [String] == ["ollie", "savings"])

            let changed = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"packs": ["growth", "habits", "ollie"]}"#)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(changed.json["packs"] as? [String] == ["habits", "ollie", "growth"])
            // One string works too, in any order.
            let single = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"pack": "savings+habits"}"#)
            #expect(single.json["pack"] as? String == "habits+savings")

            // Refusals name the field; nothing changes.
            let both = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"pack": "habits", "packs": ["ollie"]}"#)
            #expect(both.status == .badRequest || both.status == .unprocessableContent, "\(both.text)")
            #expect(both.text.contains("packs"))
            let unknown = try await client.call(.patch, "/v1/profile", token: token, json: #"{"packs": ["cats"]}"#)
            #expect(unknown.errorCode == "unknown_pack", "\(unknown.text)")
            let twice = try await client.call(
                .patch, "/v1/profile", token: token, json: #"{"packs": ["ollie", "ollie"]}"#)
            #expect(twice.errorCode == "unknown_pack", "\(twice.text)")
            let none = try await client.call(
                .post, "/v1/accounts",
                json: #"{"email": "lu@example.com", "password": "correct horse", "displayName": "Lu", "packs": []}"#)
            #expect(none.status == .unprocessableContent, "\(none.text)")
            #expect(none.errorFields.contains("packs"))
            let after = try await client.call(.get, "/v1/profile", token: token)
            #expect(after.json["pack"] as? String == "habits+savings")
        }
    }

    @Test func signUpWithAPuppyAndSavingsShowsTheirSectionsAndPages() async throws {
        try await ServerHarness.with { harness, client in
            let created = try await client.call(
                .post, "/signup",
                bytes: Array(
                    "displayName=Kim&email=kim%40example.com&password=correct+horse&timeZone=UTC&packs=ollie&packs=savings"
                        .utf8),
                headers: WebRouteTests.form)
            #expect(created.status == .seeOther, "\(created.text)")
            let cookie = try #require(WebRouteTests.cookie(created))
            var headers = Self.web
            headers[.cookie] = cookie

            let today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            #expect(today.status == .ok)
            // No habits pack and no habits: no habit list, the two packs' sections instead.
            #expect(!today.text.contains("New habit"))
            #expect(today.text.contains(#"data-pack="ollie""#))
            #expect(today.text.contains(#"data-pack="savings""#))
            #expect(!today.text.contains(#"data-pack="growth""#))
            #expect(today.text.contains(#"data-value="outdoor""#), "one-tap potty on Today")
            #expect(today.text.contains(#"href="/packs/ollie""#))
            #expect(today.text.contains("Create a goal first"))

            // The puppy's page renders every form of the pack; a pack not tracked is not found.
            let journal = try await client.call(.get, "/packs/ollie", headers: [.cookie: cookie])
            #expect(journal.status == .ok)
            for form in RulePack.ollie.forms {
                #expect(journal.text.contains(#"id="form-ollie-\#(form.id)""#), "\(form.id)")
            }
            #expect(journal.text.contains("0 of 30 checked off"))
            #expect(try await client.call(.get, "/packs/growth", headers: [.cookie: cookie]).status == .notFound)
            #expect(try await client.call(.get, "/packs/habits", headers: [.cookie: cookie]).status == .notFound)

            // What the forms send, through the push route: a puppy, a goal, a potty break, a
            // bus ride and a contribution.
            let at = RFC3339.format(harness.now)
            func event(_ id: String, _ fields: String) -> String {
                #"{"id": "\#(id)", "at": "\#(at)", "tz": "UTC", \#(fields)}"#
            }
            let pushed = try await client.call(
                .post, "/v1/events",
                json: eventsJSON([
                    event(
                        "p1",
                        #""type": "subject", "kind": "puppy", "subject": "ollie-1a2b3c", "name": "Ollie", "dates": {"born": "2026-05-01"}"#
                    ),
                    event(
                        "g1",
                        #""type": "goal", "goal": "bali-9f8e7d", "name": "Bali", "category": "vacation", "target": 3000"#
                    ),
                    event("l1", #""type": "log", "kind": "potty", "item": "outdoor""#),
                    event("l2", #""type": "log", "kind": "social", "item": "bus", "group": "vehicles""#),
                    event("c1", #""type": "contribution", "goal": "bali-9f8e7d", "amount": 1250.5"#),
                ]), headers: headers)
            #expect(pushed.status == .ok, "\(pushed.text)")
            let statuses = (pushed.json["results"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
            #expect(statuses == Array(repeating: "applied", count: 5), "\(pushed.text)")

            let page = try await client.call(.get, "/packs/ollie", headers: [.cookie: cookie])
            #expect(page.text.contains("Ollie’s journal"))
            #expect(page.text.contains("10 weeks old"), "born 2026-05-01, today 2026-07-14")
            #expect(page.text.contains("Potty break: Outside: <strong>1</strong> day in a row"))
            #expect(page.text.contains("1 of 30 checked off"))
            #expect(page.text.contains(#"data-value="bus" data-group="vehicles" aria-pressed="true" disabled"#))
            // The puppy form edits Ollie rather than adding a second puppy.
            #expect(page.text.contains(#""subject":"ollie-1a2b3c""#) || page.text.contains("ollie-1a2b3c"))
            #expect(page.text.contains(#"value="Ollie""#))
            // Ollie's card offers a photo, then shows the one given.
            #expect(page.text.contains("Add a photo of Ollie"))
            #expect(page.text.contains(#"data-action="upload-subject-photo" data-subject="ollie-1a2b3c""#))
            #expect(!page.text.contains(#"<img class="subject-photo""#))
            let photo = try await client.call(
                .put, "/v1/subjects/ollie-1a2b3c/photo", bytes: MemoryAndOpsRouteTests.pngWithText, headers: headers)
            let path = try #require(photo.json["photo"] as? String, "\(photo.text)")
            let withPhoto = try await client.call(.get, "/packs/ollie", headers: [.cookie: cookie])
            #expect(withPhoto.text.contains(#"<img class="subject-photo" src="/v1/photos/\#(path)" alt="Ollie">"#))
            #expect(withPhoto.text.contains("Change photo"))
            #expect(withPhoto.text.contains(#"data-action="remove-subject-photo""#))
            let served = try await client.call(.get, "/v1/photos/\(path)", headers: [.cookie: cookie])
            #expect(served.status == .ok, "the page's image loads with the session cookie")

            let savings = try await client.call(.get, "/packs/savings", headers: [.cookie: cookie])
            #expect(savings.text.contains("Saved in all: <strong>$1,250.50</strong>"))
            #expect(savings.text.contains("$1,250.50 of $3,000 · 41%"))
            #expect(savings.text.contains("$1,250.50 to Bali"), "a contribution names its goal, not its id")
            #expect(savings.text.contains(#"<li class="rung tier-small reached">$1,000"#))
            #expect(savings.text.contains(#"<li class="rung tier-medium next">$5,000"#))
            // With one goal open, the contribution form has it chosen.
            #expect(savings.text.contains(#"<option value="bali-9f8e7d" selected>Bali</option>"#))
        }
    }

    /// Today's contribution form lists each goal once: a choice field without stage groups
    /// does not borrow Today's habit groups (a Mustache section with no key of its own looks
    /// it up in the enclosing context), which once listed every goal again under an
    /// `<optgroup>` named after each group of habits.
    @Test func todaysGoalChoiceListsEachGoalOnce() async throws {
        try await ServerHarness.with { harness, client in
            let created = try await client.call(
                .post, "/signup",
                bytes: Array(
                    "displayName=Kim&email=kim%40example.com&password=correct+horse&timeZone=UTC&packs=habits&packs=savings"
                        .utf8),
                headers: WebRouteTests.form)
            #expect(created.status == .seeOther, "\(created.text)")
            let cookie = try #require(WebRouteTests.cookie(created))
            var headers = Self.web
            headers[.cookie] = cookie
            let at = RFC3339.format(harness.now)
            let pushed = try await client.call(
                .post, "/v1/events",
                json: eventsJSON([
                    #"{"id": "h1", "at": "\#(at)", "tz": "UTC", "type": "habit.created", "habit": "read", "name": "Read", "group": "Evening"}"#,
                    #"{"id": "h2", "at": "\#(at)", "tz": "UTC", "type": "habit.created", "habit": "walk", "name": "Walk", "group": "Morning"}"#,
                    #"{"id": "g1", "at": "\#(at)", "tz": "UTC", "type": "goal", "goal": "bali-9f8e7d", "name": "Bali", "target": 3000}"#,
                ]), headers: headers)
            #expect(pushed.status == .ok, "\(pushed.text)")

            let today = try await client.call(.get, "/today", headers: [.cookie: cookie])
            #expect(today.status == .ok)
            let select = try #require(
                today.text.firstMatch(
                    of: /<select id="f-savings-contribution-goal"[^>]*>(?<options>.*?)<\/select>/.dotMatchesNewlines()),
                "Today has the contribution form")
            let options = String(select.output.options)
            #expect(options.components(separatedBy: #"value="bali-9f8e7d""#).count - 1 == 1, "\(options)")
            #expect(!options.contains("<optgroup"), "\(options)")
        }
    }

    /// A client that is not written in Swift gets the forms from the API.
    @Test func thePackDocumentServesEveryMembersForms() async throws {
        try await ServerHarness.with { _, client in
            let token = try await client.register("kim", pack: "savings+ollie")
            let document = try await client.call(.get, "/v1/pack", token: token)
            #expect(document.status == .ok, "\(document.text)")
            #expect(document.json["name"] as? String == "ollie+savings")
            let members = document.json["members"] as? [[String: Any]] ?? []
            #expect(members.compactMap { $0["name"] as? String } == ["ollie", "savings"])
            #expect(members.first?["backfillDays"] == nil, "the journal has no limit")
            #expect(members.last?["backfillDays"] as? Int == 31)
            let forms = members.first?["forms"] as? [[String: Any]] ?? []
            #expect(forms.compactMap { $0["id"] as? String } == RulePack.ollie.forms.map(\.id))
            let potty = try #require(forms.first { $0["id"] as? String == "potty" })
            #expect(potty["today"] as? Bool == true)
            let field = (potty["fields"] as? [[String: Any]])?.first
            #expect(field?["input"] as? String == "buttons")
            #expect(
                (field?["options"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["outdoor", "indoor"])
            #expect(try await client.call(.get, "/v1/pack").status == .unauthorized)
        }
    }

    @Test func aMoneyAmountAndAnAgeReadAsPeopleWriteThem() {
        #expect(WebViews.money(0) == "$0")
        #expect(WebViews.money(1_234_567.891) == "$1,234,567.89")
        #expect(WebViews.money(50) == "$50")
        #expect(WebViews.money(-12.5) == "-$12.50")
        #expect(WebViews.money(.infinity) == "$0")
        #expect(WebViews.money(1e300).hasPrefix("$"))
        let born = LocalDay(year: 2026, month: 1, day: 31)!
        #expect(WebViews.age(from: born, to: born) == "0 days")
        #expect(WebViews.age(from: born, to: born.advanced(by: 10)) == "1 week")
        #expect(WebViews.age(from: born, to: born.advanced(by: 15 * 7)) == "15 weeks")
        #expect(WebViews.age(from: born, to: LocalDay(year: 2026, month: 6, day: 30)!) == "4 months")
        #expect(WebViews.age(from: born, to: LocalDay(year: 2027, month: 1, day: 31)!) == "1 year")
        #expect(WebViews.age(from: born, to: LocalDay(year: 2028, month: 4, day: 1)!) == "2 years, 2 months")
        #expect(WebViews.age(from: born, to: born.advanced(by: -3)) == "not born yet")
        #expect(WebViews.number(8) == "8")
        #expect(WebViews.number(8.5) == "8.5")
        #expect(WebViews.number(8.25) == "8.25")
    }
}
