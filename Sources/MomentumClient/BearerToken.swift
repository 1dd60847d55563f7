import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The device's bearer token, shared by the client and its requests.
final class BearerToken: @unchecked Sendable {  // every access holds the lock
    private let lock = NSLock()
    private var token: String?

    var value: String? {
        get { lock.withLock { token } }
        set { lock.withLock { token = newValue } }
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
        if let value = token.value, request.headerFields[.authorization] == nil {
            request.headerFields[.authorization] = "Bearer \(value)"
        }
        return try await next(request, body, baseURL)
    }
}
