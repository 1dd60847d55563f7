import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(OpenAPIURLSession)
    import OpenAPIURLSession
#elseif canImport(OpenAPIAsyncHTTPClient)
    import OpenAPIAsyncHTTPClient
#endif

// What the client uses by default on each platform: the only place that says which.

extension MomentumClient {
    /// How requests travel by default: URLSession on Apple platforms (no NIO or BoringSSL
    /// in the app), AsyncHTTPClient's shared client on Linux. Either waits at most 30
    /// seconds for the next bytes of an answer.
    static func defaultTransport() -> any ClientTransport {
        #if canImport(OpenAPIURLSession)
            let configuration = URLSessionConfiguration.default
            configuration.timeoutIntervalForRequest = 30
            // Momentum's answers are per user and change with every check-in.
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            return URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
        #elseif canImport(OpenAPIAsyncHTTPClient)
            return AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(30)))
        #else
            return UnavailableTransport()
        #endif
    }

    /// Where the client keeps its secrets by default: the Keychain where there is one,
    /// else a 0600 file beside the database (`<databasePath>.secrets.json`).
    static func defaultTokenStore(databasePath: String) -> any TokenStore {
        #if canImport(Security)
            KeychainTokenStore()
        #else
            FileTokenStore(path: databasePath + ".secrets.json")
        #endif
    }
}

/// The transport of a platform with neither URLSession's transport nor AsyncHTTPClient
/// linked: every request fails until the app passes its own.
struct UnavailableTransport: ClientTransport {
    struct NoTransport: Error, CustomStringConvertible {
        var description: String { "no HTTP transport on this platform: pass one to MomentumClient" }
    }

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        throw NoTransport()
    }
}
