import Foundation

/// Why a ``MomentumClient`` call failed.
///
/// Match it with its static members: `catch let error as ClientError where error == .offline`.
/// ``code`` and ``message`` say the same for people and logs.
public struct ClientError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case notSignedIn, signedOut, offline, busy, refused, server, corruptDatabase, pendingEvents,
            unreadableAnswer
    }

    private let kind: Kind
    /// A stable code: the server's error code for refusals, else the kind of failure.
    public let code: String
    /// What went wrong, for people.
    public let message: String
    /// The field at fault, when the server or the engine named one.
    public let field: String?
    /// Seconds the server asked the client to wait before trying again, when it said.
    public let retryAfter: Int?

    private init(
        _ kind: Kind, code: String, _ message: String, field: String? = nil, retryAfter: Int? = nil
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    /// No account is signed in on this device.
    public static let notSignedIn = ClientError(.notSignedIn, code: "not_signed_in", "no account is signed in")
    /// The server no longer accepts this device's session (signed out elsewhere, or expired).
    public static let signedOut = ClientError(
        .signedOut, code: "signed_out", "the server ended this device's session: sign in again")
    /// The server could not be reached; what was recorded stays in the outbox.
    public static let offline = ClientError(.offline, code: "offline", "the server cannot be reached")
    /// The server asked the client to slow down or was briefly unavailable.
    public static let busy = ClientError(.busy, code: "busy", "the server is busy")
    /// The server answered, but this SDK cannot read the answer.
    ///
    /// Answers of `/v1` only grow in ways this SDK reads (docs/api-versioning.md), so this is
    /// a server that broke that promise, or something between the app and the server (a
    /// proxy's page instead of JSON). It is not transient: the same request gets the same
    /// answer, so ``MomentumClient/keepInSync(retry:onSync:)`` reports it instead of retrying
    /// forever, and the outbox keeps its events. Update the app, or look at what answers
    /// for the server.
    public static let unreadableAnswer = ClientError(
        .unreadableAnswer, code: "unreadable_answer", "the server's answer cannot be read by this version of the SDK")
    /// Signing out, or signing another account in, would drop events not yet pushed.
    public static let pendingEvents = ClientError(
        .pendingEvents, code: "pending_events", "events recorded on this device have not reached the server yet")

    /// Kinds compare equal whatever their details, so `error == .offline` matches any
    /// offline error.
    public static func == (lhs: ClientError, rhs: ClientError) -> Bool {
        lhs.kind == rhs.kind && (lhs.kind != .refused || lhs.code == rhs.code)
    }

    /// Hashes the kind (and the code of a refusal), consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if kind == .refused { hasher.combine(code) }
    }

    static func offline(_ detail: String) -> ClientError {
        ClientError(.offline, code: "offline", "the server cannot be reached: \(detail)")
    }

    static func unreadableAnswer(_ detail: String) -> ClientError {
        ClientError(
            .unreadableAnswer, code: "unreadable_answer",
            "the server's answer cannot be read by this version of the SDK: \(detail)")
    }

    static func busy(_ message: String, retryAfter: Int?) -> ClientError {
        ClientError(.busy, code: "busy", message, retryAfter: retryAfter)
    }

    /// The engine or the server refused what was asked, with its code (`unknown_habit`,
    /// `insufficient_diamonds`, `invalid_input`, …).
    public static func refused(_ code: String, _ message: String, field: String? = nil) -> ClientError {
        ClientError(.refused, code: code, message, field: field)
    }

    static func server(_ message: String) -> ClientError { ClientError(.server, code: "server_error", message) }

    static func corruptDatabase(_ message: String) -> ClientError {
        ClientError(.corruptDatabase, code: "corrupt_database", "the device's database is unreadable: \(message)")
    }

    /// Whether the call may succeed later without any change (offline, busy).
    public var isTransient: Bool { kind == .offline || kind == .busy }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
