import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The device's bearer token, shared by the client and its requests, read from the
/// ``TokenStore`` when a request first needs it (not when the client opens: an app woken
/// in the background before the first unlock cannot read the Keychain yet).
final class BearerToken: @unchecked Sendable {  // every access holds the lock
    private enum State {
        /// Not read yet: the key to read, or `nil` when no account is signed in.
        case unread(TokenKey?)
        case known(String?)
    }

    private let lock = NSLock()
    private let store: any TokenStore
    private var state: State

    init(store: any TokenStore, key: TokenKey?) {
        self.store = store
        state = .unread(key)
    }

    /// The token, read from the store the first time.
    ///
    /// - Throws: When the store cannot be read (the request then fails as offline).
    func value() throws -> String? {
        try lock.withLock {
            switch state {
            case .known(let token): return token
            case .unread(let key):
                let token = try key.flatMap { try store.read($0) }
                state = .known(token)
                return token
            }
        }
    }

    /// Keeps a new session's token, in the store and here.
    func save(_ token: String, for key: TokenKey) throws {
        try lock.withLock {
            try store.save(token, for: key)
            state = .known(token)
        }
    }

    /// Forgets the session's token, here and in the store.
    func delete(_ key: TokenKey?) throws {
        try lock.withLock {
            state = .known(nil)
            if let key { try store.delete(key) }
        }
    }
}

/// Adds `Authorization: Bearer <token>` to every request while a device is signed in.
struct BearerTokenMiddleware: ClientMiddleware {
    let token: BearerToken

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.headerFields[.authorization] == nil, let value = try token.value() {
            request.headerFields[.authorization] = "Bearer \(value)"
        }
        return try await next(request, body, baseURL)
    }
}
