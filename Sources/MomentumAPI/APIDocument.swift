import Foundation

/// Momentum's HTTP contract as a document: the OpenAPI 3.1 `openapi.json` that the code
/// in this module was generated from, and that the server serves at `/openapi.json`.
public enum APIDocument {
    /// The document's bytes, exactly as committed.
    ///
    /// The document is a resource of this module (`Sources/MomentumAPI/openapi.json`); it is
    /// read once, on first use.
    public static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            // The file is copied into the module's bundle by the package manager: a build
            // without it is broken, and an empty document says so to every client.
            return Data()
        }
        return data
    }()
}
