import Foundation
import HTTPTypes
import Hummingbird
import MomentumServices
import Mustache

/// The web app's session cookie and the header that marks its writes.
public enum WebSession {
    /// The cookie holding the browser's device token (HttpOnly, SameSite=Strict).
    public static let cookieName = "momentum_session"
    /// Writes authenticated by the cookie must carry this header with ``clientHeaderValue``;
    /// a cross-site form cannot set it, so a cookie alone never changes data.
    public static let clientHeader = HTTPField.Name("X-Momentum-Client")!
    /// The header's value.
    public static let clientHeaderValue = "web"
}

/// The web app's templates and static files, read once from the module's resources.
final class WebAssets: Sendable {
    /// A static file and its content type.
    struct File: Sendable {
        var contentType: String
        var bytes: [UInt8]
    }

    let library: MustacheLibrary
    let files: [String: File]

    static let shared: WebAssets = {
        do {
            return try WebAssets()
        } catch {
            fatalError("the web app's bundled templates could not be loaded: \(error)")
        }
    }()

    private init() throws {
        guard let root = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        var templates: [String: MustacheTemplate] = [:]
        let templateDirectory = root.appending(path: "templates")
        for name in try FileManager.default.contentsOfDirectory(atPath: templateDirectory.path)
        where name.hasSuffix(".mustache") {
            let text = try String(contentsOf: templateDirectory.appending(path: name), encoding: .utf8)
            templates[String(name.dropLast(".mustache".count))] = try MustacheTemplate(string: text)
        }
        library = MustacheLibrary(templates: templates)
        var files: [String: File] = [:]
        let staticDirectory = root.appending(path: "static")
        for name in try FileManager.default.contentsOfDirectory(atPath: staticDirectory.path) {
            let data = try Data(contentsOf: staticDirectory.appending(path: name))
            files[name] = File(contentType: Self.contentType(of: name), bytes: Array(data))
        }
        self.files = files
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    /// Renders a page's typed model, in the layout's ``Chrome`` when signed in.
    func page<Model: TemplateModel>(_ model: Model, chrome: Chrome?, status: HTTPResponse.Status = .ok) -> Response {
        render(Model.template, RenderContext(strings: Self.strings(), page: model, chrome: chrome), status: status)
    }

    private static func strings() -> [String: Any] {
        let strings = Wording.current
        return ["t": strings.tree, "lang": strings.language, "strings": strings.script]
    }

    private func render(_ template: String, _ context: RenderContext, status: HTTPResponse.Status) -> Response {
        let html = library.render(context, withTemplate: template) ?? "template \(template) is missing"
        return Response(status: status, headers: Self.htmlHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static let htmlHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .cacheControl: "no-store",
        HTTPField.Name("Content-Security-Policy")!:
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
    ]
}
