import Crypto
import Foundation
import Hummingbird
import MomentumServices
import MomentumStore
import NIOCore

/// Stripe's idempotency semantics for writes that carry an `Idempotency-Key` header.
///
/// - The first request with a key runs; its response (unless a 5xx or 429, which may be
///   retried) is stored with a hash of the method, path and body.
/// - A retry with the same key and the same request gets the stored response again, with
///   `Idempotent-Replayed: true`.
/// - The same key with a different request is a 409 (`idempotency_conflict`); so is a
///   retry that arrives while the first is still running.
/// - Keys are per user and kept for 24 hours.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = MomentumContext
    /// The records kept by key.
    let idempotency: Idempotency
    /// The most bytes a request body may hold (the larger of the body and photo limits).
    let maxBodyBytes: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let key = request.headers[.idempotencyKey], [.post, .put, .patch, .delete].contains(request.method),
            let caller = context.caller
        else { return try await next(request, context) }
        guard (1...255).contains(key.count) else {
            throw APIError.invalid("Idempotency-Key must have 1 to 255 characters", field: "Idempotency-Key")
        }
        let body = try await request.body.collect(upTo: maxBodyBytes)
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        hasher.update(data: Data(buffer: body))
        let requestHash = hasher.finalize().map { String(format: "%02x", $0) }.joined()

        if let record = try await idempotency.record(of: caller.user, key: key) {
            return try replay(record, requestHash: requestHash)
        }
        guard idempotency.begin(key, of: caller.user) else {
            throw APIError(
                .conflict, "idempotency_conflict", "a request with this Idempotency-Key is still being processed")
        }
        defer { idempotency.end(key, of: caller.user) }
        // Checked again now that this request holds the key: a twin may have just finished.
        if let record = try await idempotency.record(of: caller.user, key: key) {
            return try replay(record, requestHash: requestHash)
        }

        var forwarded = request
        forwarded.body = .init(buffer: body)
        var response: Response
        do {
            response = try await next(forwarded, context)
        } catch {
            response = APIError.from(error).response()
        }
        let status = response.status.code
        guard status < 500, status != 429 else { return response }
        let collected = Collector.Bytes()
        try await response.body.write(Collector(storage: collected))
        let stored = try await idempotency.save(
            key: key, requestHash: requestHash, status: status, response: collected.bytes, for: caller.user)
        var replayed = Response(
            status: response.status, headers: response.headers,
            body: .init(byteBuffer: ByteBuffer(bytes: stored.response)))
        replayed.headers[.contentLength] = String(stored.response.count)
        return replayed
    }

    private func replay(_ record: IdempotencyRecord, requestHash: String) throws -> Response {
        guard record.requestHash == requestHash else {
            throw APIError(
                .conflict, "idempotency_conflict",
                "this Idempotency-Key was used for a different request; use a new key for a new request")
        }
        return Response(
            status: HTTPResponse.Status(code: record.status),
            headers: [.contentType: "application/json; charset=utf-8", .idempotentReplayed: "true"],
            body: .init(byteBuffer: ByteBuffer(bytes: record.response)))
    }

    /// Collects a response body.
    struct Collector: ResponseBodyWriter {
        final class Bytes {
            var bytes: [UInt8] = []
        }
        let storage: Bytes

        mutating func write(_ buffer: ByteBuffer) async throws {
            storage.bytes.append(contentsOf: buffer.readableBytesView)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
