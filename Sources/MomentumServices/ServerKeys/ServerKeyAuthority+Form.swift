import Foundation
import MomentumAPI

extension ServerKeyAuthority {
    /// Creates a key from a form's fields (the console's), as ``create(_:)`` does.
    ///
    /// - Parameters:
    ///   - name: The operator's name for it.
    ///   - app: The app whose users it reaches; `default` when empty.
    ///   - scopes: What it may do (``scopes``' names).
    /// - Returns: The key, its secret shown this once.
    /// - Throws: `.invalid` naming the fields at fault: an unknown scope is `scopes`'.
    public func create(name: String, app: String, scopes: [String]) async throws -> CreatedServerKey {
        let known = scopes.compactMap(ServerKeyCreateRequest.ScopesPayloadPayload.init(rawValue:))
        guard known.count == scopes.count, !known.isEmpty else {
            throw ServiceError.invalid(
                "must name at least one of \(Self.scopes.joined(separator: ", "))", field: "scopes")
        }
        let app = app.trimmingCharacters(in: .whitespaces)
        return try await create(ServerKeyCreateRequest(app: app.isEmpty ? nil : app, name: name, scopes: known))
    }
}
