import Foundation

/// A stored response to a request sent with an `Idempotency-Key`: a retry with the same
/// key and the same request gets the same response; the same key with a different request
/// is refused.
public struct IdempotencyRecord: Hashable, Sendable, Codable {
    /// The client's key.
    public var key: String
    /// A hash of the request (method, path, body), to detect a key reused for another request.
    public var requestHash: String
    /// The HTTP status of the response.
    public var status: Int
    /// The response body.
    public var response: [UInt8]
    /// When it was stored.
    public var createdAt: Date

    /// Creates a record.
    public init(key: String, requestHash: String, status: Int, response: [UInt8], createdAt: Date) {
        self.key = key
        self.requestHash = requestHash
        self.status = status
        self.response = response
        self.createdAt = createdAt
    }
}

/// A photo file of a memory, held in the database so that every server instance sees it.
public struct StoredPhoto: Hashable, Sendable {
    /// The path under `memories/` that memories refer to.
    public var path: String
    /// The MIME type (`image/jpeg`).
    public var contentType: String
    /// The file's bytes.
    public var bytes: [UInt8]
    /// When it was stored.
    public var createdAt: Date

    /// Creates a photo.
    public init(path: String, contentType: String, bytes: [UInt8], createdAt: Date) {
        self.path = path
        self.contentType = contentType
        self.bytes = bytes
        self.createdAt = createdAt
    }
}
