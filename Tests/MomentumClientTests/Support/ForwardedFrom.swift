import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Sends every request as if through a proxy from `address` (`X-Forwarded-For`), which the
/// test moves between sign-ins.
final class ForwardedFrom: ClientMiddleware, Sendable {
    let address: Mutex<String>

    init(_ address: String) { self.address = Mutex(address) }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[HTTPField.Name("X-Forwarded-For")!] = address.withLock { $0 }
        return try await next(request, body, baseURL)
    }
}
