import Foundation
import HTTPTypes
import OpenAPIRuntime

extension HTTPField.Name {
    /// The header under which the server remembers a write and answers its retries
    /// with the first answer (`IdempotencyMiddleware` on the server).
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// The seconds the server asks a client to wait.
    static let retryAfter = HTTPField.Name("Retry-After")!
}

/// Makes every request safe to send again, and sends it again when no usable answer came.
///
/// - A write (POST, PUT, PATCH, DELETE) gets a fresh `Idempotency-Key` for the call, unless
///   the caller set one. Every retry of the call carries the same key, so the server acts
///   once and answers the retry with the first answer. The event push is the exception:
///   each event carries its own id, which the server stores once, so it is safe to send
///   again as it is (a key would only make the server keep every push's answer a day).
/// - A request is sent again after a transport failure (no answer, or an answer lost on
///   the way), a 5xx or a 429, up to the policy's ``RetryPolicy/attempts``, waiting a
///   jittered, doubling time (a 429's or 503's `Retry-After`, when it asks for no more than
///   the policy's ``RetryPolicy/maximum``; a longer one is the caller's to honour).
/// - A try that failed only after more than the policy's ``RetryPolicy/maximum`` (a timeout)
///   is not repeated: whoever waits for the call has waited long enough.
/// - A write is retried only when the server honours its key, that is when the device is
///   signed in (the request carries `Authorization`): a sign-in or a registration whose
///   answer was lost is not sent twice.
/// - A request whose body can be read only once (a stream) is sent once.
struct RetryingMiddleware: ClientMiddleware {
    let policy: RetryPolicy
    /// Waits between tries (tests pass one that records instead of sleeping).
    let sleep: @Sendable (Duration) async throws -> Void
    /// A new key.
    let newKey: @Sendable () -> String

    init(
        policy: RetryPolicy,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        newKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.policy = policy
        self.sleep = sleep
        self.newKey = newKey
    }

    static let writes: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]
    /// Writes that are idempotent by their content: retried without a key.
    static let idempotentByContent: Set<String> = ["pushEvents"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        let write = Self.writes.contains(request.method)
        if write, request.headerFields[.idempotencyKey] == nil, !Self.idempotentByContent.contains(operationID) {
            request.headerFields[.idempotencyKey] = newKey()
        }
        let repeatable =
            (body == nil || body?.iterationBehavior == .multiple)
            && (!write || request.headerFields[.authorization] != nil)
        let attempts = repeatable ? policy.attempts : 1
        var failures = 0
        while true {
            failures += 1
            let last = failures >= attempts
            let wait: Duration
            let started = ContinuousClock.now
            do {
                let (response, answer) = try await next(request, body, baseURL)
                guard !last, let asked = Self.retryWait(response) else { return (response, answer) }
                if let seconds = asked {
                    // A wait longer than the policy's longest is the caller's to honour
                    // (``ClientError/retryAfter``): a call the user waits for does not hang on it.
                    guard .seconds(seconds) <= policy.maximum else { return (response, answer) }
                    wait = max(.seconds(seconds), policy.jitteredDelay(after: failures))
                } else {
                    wait = policy.jitteredDelay(after: failures)
                }
                // The answer is not used: read it to its end (a failure there changes nothing).
                try? await Self.discard(answer)
            } catch {
                if last || Task.isCancelled || error is CancellationError
                    || ContinuousClock.now - started > policy.maximum
                {
                    throw error
                }
                wait = policy.jitteredDelay(after: failures)
            }
            try await sleep(wait)
        }
    }

    /// Whether an answer is worth another try: `nil` for no; `.some(nil)` for yes with
    /// the policy's wait; `.some(seconds)` for yes after the server's `Retry-After`.
    static func retryWait(_ response: HTTPResponse) -> Int?? {
        let code = response.status.code
        guard code == 429 || (500...599).contains(code) else { return nil }
        if let text = response.headerFields[.retryAfter], let seconds = Int(text), seconds >= 0 {
            return .some(seconds)
        }
        return .some(nil)
    }

    /// Reads an answer that will not be used, so that its connection is free again.
    private static func discard(_ body: HTTPBody?) async throws {
        guard let body else { return }
        for try await _ in body {}
    }
}
