import Foundation
import MomentumCore
import MomentumServices

/// The console's packs: each pack name with the version in force and every uploaded version
/// (who uploaded and activated it, when), an upload form (a refused upload lists every
/// problem with its JSON path), and buttons to activate a version or roll back, for
/// operators who may manage packs. Each version links to its what-if page.
extension ConsoleRoutes {
    func addPackPages(services: Services) {
        let packs = services.packs
        page("packs", .viewPacks, section: .packs) { request in
            .page(
                ConsolePage(
                    title: "Packs",
                    body: ConsolePackViews.list(
                        try await packs.list(), canManage: request.actor.role.allows(.managePacks),
                        csrf: request.csrfField)))
        }
        form("packs/upload", .managePacks, section: .packs, action: "pack.uploaded") { request in
            let document = Data((request.form["document"] ?? "").utf8)
            let result = try await packs.upload(document, by: request.actor)
            let notice =
                result.created
                ? "Uploaded \(result.name) \(result.version). It is not in force until it is activated."
                : "\(result.name) \(result.version) was already uploaded with the same document."
            return .redirect(to: ConsoleSection.packs.path, notice: notice)
        }
        form("packs/:name/versions/:version/activate", .managePacks, section: .packs, action: "pack.activated") {
            request in
            let name = try request.parameter("name")
            let version = try request.parameter("version")
            let summary = try await packs.activate(name, version: version, by: request.actor)
            return .redirect(
                to: ConsoleSection.packs.path,
                notice: "\(name) \(summary.activeVersion)\(summary.bundled ? " (compiled in)" : "") is now in force.")
        }
    }
}

/// The HTML of the packs section.
enum ConsolePackViews {
    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))) ?? ""
    }

    static func list(_ listing: PackListing, canManage: Bool, csrf: ConsoleHTML) -> ConsoleHTML {
        let sections = listing.packs.map { pack(in: $0, canManage: canManage, csrf: csrf) }
        let upload: ConsoleHTML =
            canManage
            ? """
            <section aria-labelledby="upload-title"><h2 id="upload-title">Upload a version</h2>
            <p>The pack's JSON document and its translations: <code>{"pack": {…}, "translations": {"pt-BR": {…}}}</code>.
            Every problem is listed if it is refused; nothing is stored then.</p>
            <form method="post" action="/console/packs/upload">\(csrf)
            <label for="pack-document">Upload document</label>
            <textarea id="pack-document" name="document" rows="16" cols="80" required></textarea>
            <button type="submit">Upload</button></form></section>
            """
            : ""
        return """
            <h1>Packs</h1>
            <p>The rule packs in force: the compiled-in ones and those uploaded. A version is in force once activated, on every instance within seconds and on every device at its next sync.</p>
            \(ConsoleHTML(joining: sections))\(upload)
            """
    }

    static func pack(in pack: PackSummary, canManage: Bool, csrf: ConsoleHTML) -> ConsoleHTML {
        let name = escaped(pack.name)
        func button(_ version: String, _ label: String) -> ConsoleHTML {
            guard canManage else { return "" }
            return """
                <form method="post" action="/console/packs/\(name)/versions/\(escaped(version))/activate">\(csrf)<button type="submit">\(label)</button></form>
                """
        }
        let rows = pack.versions.map { version -> ConsoleHTML in
            let activated =
                version.activatedAt.map { "\($0.ISO8601Format()) by \(version.activatedBy ?? "")" } ?? "never"
            return """
                <tr><td>\(version.version)\(raw: version.active ? " <strong>(in force)</strong>" : "")</td>
                <td>\(version.uploadedBy)</td><td>\(version.uploadedAt.ISO8601Format())</td><td>\(activated)</td>
                <td><a href="/console/packs/\(name)/versions/\(escaped(version.version))/what-if">What if</a></td>
                <td>\(version.active ? "" : button(version.version, "Activate"))</td></tr>
                """
        }
        let inForce = pack.bundled ? "\(pack.activeVersion) (compiled in)" : pack.activeVersion
        let rollBack =
            pack.bundledVersion != nil && !pack.bundled
            ? button(Packs.bundledVersion, "Roll back to the compiled-in \(pack.bundledVersion ?? "")") : ""
        let table: ConsoleHTML =
            rows.isEmpty
            ? "<p>No version uploaded.</p>"
            : """
            <table><thead><tr><th scope="col">Version</th><th scope="col">Uploaded by</th><th scope="col">Uploaded</th>
            <th scope="col">Last activated</th><th scope="col">Preview</th><th scope="col">Action</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table>
            """
        return """
            <section aria-labelledby="pack-\(name)"><h2 id="pack-\(name)">\(pack.name)</h2>
            <p>In force: \(inForce)</p>\(table)\(rollBack)</section>
            """
    }
}
