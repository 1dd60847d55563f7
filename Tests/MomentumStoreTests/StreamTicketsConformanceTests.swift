import Foundation
import MomentumCore
import MomentumStore
import Testing

/// Stream tickets: kept by hash per user, taken once, the user's expired ones swept when
/// another is stored, gone with the account. One suite, run unchanged against every backend.
@Suite(.serialized)
struct StreamTicketsConformanceTests {
    static func ticket(_ hash: String, user: String = "sam", expiresIn seconds: Double = 60) -> StreamTicket {
        StreamTicket(
            userID: user, ticketHash: hash, tokenHash: "token-\(user)",
            expiresAt: Fixtures.start.addingTimeInterval(seconds))
    }

    @Test(arguments: Backend.allCases)
    func aTicketIsTakenOnceByItsUserOnly(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            for user in ["sam", "kim"] {
                try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            }
            try await store.storeStreamTicket(Self.ticket("h1"), now: Fixtures.start)
            // Another user's id with the hash finds nothing, and leaves the ticket in place.
            #expect(try await store.takeStreamTicket(of: "kim", ticketHash: "h1") == nil)
            #expect(try await store.takeStreamTicket(of: "sam", ticketHash: "h1") == Self.ticket("h1"))
            #expect(try await store.takeStreamTicket(of: "sam", ticketHash: "h1") == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func twoTakesAtOnceGetTheTicketOnce(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            try await store.createAccount(Fixtures.account("sam"), profile: Fixtures.profile())
            try await store.storeStreamTicket(Self.ticket("h1"), now: Fixtures.start)
            let taken = try await withThrowingTaskGroup(of: StreamTicket?.self) { group in
                for _ in 0..<8 { group.addTask { try await store.takeStreamTicket(of: "sam", ticketHash: "h1") } }
                var found: [StreamTicket] = []
                for try await ticket in group { if let ticket { found.append(ticket) } }
                return found
            }
            #expect(taken.count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func storingATicketSweepsTheUsersExpiredOnesAndAnAccountTakesItsTicketsAlong(_ backend: Backend) async throws {
        try await StoreFixture.withStore(backend) { store in
            for user in ["sam", "kim"] {
                try await store.createAccount(Fixtures.account(user), profile: Fixtures.profile())
            }
            try await store.storeStreamTicket(Self.ticket("old", expiresIn: 10), now: Fixtures.start)
            try await store.storeStreamTicket(Self.ticket("kims", user: "kim", expiresIn: 10), now: Fixtures.start)
            // A minute later Sam asks again: his expired ticket is swept, Kim's is not his to sweep.
            try await store.storeStreamTicket(Self.ticket("new", expiresIn: 120), now: Fixtures.start + 60)
            #expect(try await store.takeStreamTicket(of: "sam", ticketHash: "old") == nil)
            #expect(try await store.takeStreamTicket(of: "kim", ticketHash: "kims") != nil)
            // A ticket that expired without being swept is still handed over: its caller judges it.
            try await store.storeStreamTicket(Self.ticket("late", expiresIn: 70), now: Fixtures.start + 60)
            #expect(try await store.takeStreamTicket(of: "sam", ticketHash: "late")?.expiresAt == Fixtures.start + 70)
            #expect(try await store.deleteAccount(id: "sam"))
            #expect(try await store.takeStreamTicket(of: "sam", ticketHash: "new") == nil)
        }
    }
}
