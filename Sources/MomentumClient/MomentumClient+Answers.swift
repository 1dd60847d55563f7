import Foundation
import MomentumAPI
import OpenAPIRuntime

// How every online operation reads the server's answer: one function, so that the same
// answer means the same ``ClientError`` whichever method asked.

extension MomentumClient {
    /// What an answer other than a success means, where an operation differs from the rest.
    struct AnswerRules: OptionSet, Sendable {
        let rawValue: Int

        /// A 401 means the server ended this device's session (``ClientError/signedOut``),
        /// not a refusal: the sync's own requests, which only a signed-in device makes.
        static let unauthorizedEndsSession = AnswerRules(rawValue: 1 << 0)
        /// An undocumented 5xx (a proxy's 502, say) is ``ClientError/busy``, worth retrying.
        static let serverErrorsAreBusy = AnswerRules(rawValue: 1 << 1)
    }

    /// Sends one request of the generated client and reads its answer.
    ///
    /// - Parameters:
    ///   - what: The request in words, for the error of an undocumented answer
    ///     (`"listing friends"` gives `listing friends answered 418`).
    ///   - rules: Where this request reads an answer unlike the others.
    ///   - send: The generated client's call.
    ///   - success: Reads the value from a documented success (`ok`, `created`,
    ///     `noContent`); it is called for nothing else.
    /// - Returns: What `success` read.
    /// - Throws: ``ClientError/offline`` when no answer came, ``ClientError/unreadableAnswer``
    ///   when one came that this SDK cannot read, else what ``failure(of:what:rules:)``
    ///   makes of the answer, or what `success` throws.
    func perform<Output: Sendable, Value>(
        _ what: String, rules: AnswerRules = [], _ send: () async throws -> Output,
        success: (Output) async throws -> Value
    ) async throws -> Value {
        let output: Output
        do { output = try await send() } catch { throw Self.unreachable(error) }
        if let failure = Self.failure(of: output, what: what, rules: rules) { throw failure }
        return try await success(output)
    }

    /// The error a generated operation's answer means, or `nil` for a success.
    ///
    /// The generated outputs (`Operations.<Operation>.Output`) share no protocol, and the
    /// generated code is not ours to edit; what they share is their shape, which the
    /// contract fixes: every error answer is a case named after its status carrying
    /// `Components.Responses.APIError`, and an unknown status is
    /// `undocumented(statusCode:_:)`. So one function reads any of them by that shape:
    /// - `tooManyRequests` (429) and `serviceUnavailable` (503): ``ClientError/busy``, with
    ///   the body's message and the `Retry-After` seconds;
    /// - every other error answer (400, 401, 403, 404, 409, 413, 415, 422): a refusal with
    ///   the body's code, message and first field
    ///   (``ClientError/refused(_:_:field:)``);
    /// - an undocumented status: a server error saying which request answered it;
    /// - anything else (`ok`, `created`, `noContent`): `nil`, a success.
    ///
    /// - Parameters:
    ///   - output: The generated client's answer.
    ///   - what: The request in words, for an undocumented answer's message.
    ///   - rules: Where this request reads an answer unlike the others.
    /// - Returns: The error, or `nil` when the answer is a success.
    static func failure(of output: some Sendable, what: String, rules: AnswerRules = []) -> ClientError? {
        guard let answer = Mirror(reflecting: output).children.first, let status = answer.label else { return nil }
        if let error = answer.value as? Components.Responses.APIError {
            switch status {
            case "tooManyRequests", "serviceUnavailable": return busy(error)
            case "unauthorized" where rules.contains(.unauthorizedEndsSession): return ClientError.signedOut
            default: return refusal(error)
            }
        }
        guard status == "undocumented", let code = Mirror(reflecting: answer.value).children.first?.value as? Int
        else { return nil }
        if code >= 500, rules.contains(.serverErrorsAreBusy) {
            return ClientError.busy("the server answered \(code)", retryAfter: nil)
        }
        return ClientError.server("\(what) answered \(code)")
    }

    /// The error of a request that the generated client could not complete:
    /// ``ClientError/offline`` when no answer came, with the cause, and
    /// ``ClientError/unreadableAnswer`` when an answer came that it could not read (a body
    /// that does not decode, a content type the document does not list).
    ///
    /// The two must differ: an app retries the first when the network is back, and would
    /// retry the second forever.
    static func unreachable(_ error: any Error) -> ClientError {
        if let error = error as? ClientError { return error }
        guard let failure = error as? OpenAPIRuntime.ClientError else {
            return ClientError.offline(String(describing: error))
        }
        // The runtime sets the response once one has arrived: what fails after that is the
        // reading of the answer, not the network.
        if let response = failure.response {
            return ClientError.unreadableAnswer(
                "\(failure.operationID) answered \(response.status.code): \(String(describing: failure.underlyingError))"
            )
        }
        return ClientError.offline(String(describing: failure.underlyingError))
    }

    /// A refusal with the error body's code, message and first field.
    static func refusal(_ answer: Components.Responses.APIError) -> ClientError {
        guard case .json(let body) = answer.body else { return ClientError.server("an error without a body") }
        let detail = body.error.details.first
        return ClientError.refused(body.error.code, body.error.message, field: detail?.field)
    }

    /// ``ClientError/busy`` with the error body's message and the `Retry-After` seconds.
    static func busy(_ answer: Components.Responses.APIError) -> ClientError {
        let message = (try? answer.body.json.error.message) ?? "the server is busy"
        return ClientError.busy(message, retryAfter: answer.headers.retryAfter)
    }
}
