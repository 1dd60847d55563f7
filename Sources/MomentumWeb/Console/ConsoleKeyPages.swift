import Foundation
import MomentumServices

/// The console's keys: the server keys of apps' backends (name, app, scopes, created, last
/// used, revoked), created (`server_key.created`; the secret shown on the answer page
/// only, never again) and revoked (`server_key.revoked`), and the identity providers as
/// configured, with what this instance holds of their keys. Providers are settings: the
/// console only reads them.
extension ConsoleRoutes {
    func addKeyPages(services: Services) {
        let keys = services.serverKeys
        let identities = services.identitySignIns
        page("keys", .viewKeys, section: .keys) { request in
            .page(
                ConsolePage(
                    title: "Keys",
                    body: ConsoleKeyViews.page(
                        try await keys.list(), providers: await identities.configuredProviders(),
                        canManage: request.actor.role.allows(.manageKeys), csrf: request.csrfField)))
        }
        form("keys/create", .manageKeys, section: .keys, action: "server_key.created") { request in
            let scopes = ServerKeyAuthority.scopes.filter { request.form["scope.\($0)"] != nil }
            let created = try await keys.create(
                name: request.form["name"] ?? "", app: request.form["app"] ?? "", scopes: scopes)
            return .page(ConsolePage(title: "New server key", body: ConsoleKeyViews.created(created)))
        }
        form("keys/:key/revoke", .manageKeys, section: .keys, action: "server_key.revoked") { request in
            let revoked = try await keys.revoke(try request.parameter("key"))
            return .redirect(to: "/console/keys", notice: "Revoked \(revoked.name): every instance refuses it now.")
        }
    }
}

/// The HTML of the keys section.
enum ConsoleKeyViews {
    static func when(_ date: Date?) -> ConsoleHTML { ConsoleWebhookViews.when(date) }

    static func page(
        _ keys: [ServerKeyView], providers: [(provider: IdentityProvider, keys: IdentityKeySetStatus?)],
        canManage: Bool, csrf: ConsoleHTML
    ) -> ConsoleHTML {
        let rows = keys.map { key -> ConsoleHTML in
            let revoke: ConsoleHTML =
                canManage && key.revokedAt == nil
                ? """
                <form method="post" action="/console/keys/\(key.id)/revoke">\(csrf)<button type="submit" class="small danger">Revoke</button></form>
                """
                : ""
            let status: ConsoleHTML =
                key.revokedAt == nil
                ? "<span class=\"badge active\">active</span>"
                : "<span class=\"badge disabled\">revoked</span> \(when(key.revokedAt))"
            return """
                <tr><th scope="row">\(key.name)<br><code class="muted">\(key.id)</code></th><td>\(key.app)</td>
                <td>\(key.scopes.joined(separator: ", "))</td><td>\(when(key.createdAt))</td><td>\(when(key.lastUsedAt))</td>
                <td>\(status)</td><td>\(revoke)</td></tr>
                """
        }
        let table: ConsoleHTML =
            keys.isEmpty
            ? "<p class=\"empty\">No server key yet.</p>"
            : """
            <div class="table-wrap"><table><caption class="visually-hidden">Server keys</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">App</th><th scope="col">Scopes</th>
            <th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
        let scopes = ServerKeyAuthority.scopes.map { scope -> ConsoleHTML in
            "<label class=\"check\"><input type=\"checkbox\" name=\"scope.\(scope)\"> \(scope)</label>"
        }
        let create: ConsoleHTML =
            canManage
            ? """
            <h2>Create a key</h2>
            <form method="post" action="/console/keys/create" class="stack">\(csrf)
            <label>Name <input type="text" name="name" maxlength="200" required></label>
            <label>App <input type="text" name="app" maxlength="64" placeholder="default"></label>
            <fieldset><legend>Scopes</legend>\(ConsoleHTML(joining: scopes))</fieldset>
            <button type="submit" class="primary">Create the key</button></form>
            """
            : ""
        return """
            <h1>Keys</h1>
            <h2>Server keys</h2>
            <p class="lead">The keys apps' backends authenticate with. A key's secret is shown once, when it is made.</p>
            \(table)
            \(create)
            <h2>Identity providers</h2>
            \(providerTable(providers))
            """
    }

    static func providerTable(_ providers: [(provider: IdentityProvider, keys: IdentityKeySetStatus?)]) -> ConsoleHTML {
        guard !providers.isEmpty else {
            return
                "<p class=\"empty\">No identity provider is configured (the <code>identity-providers</code> setting).</p>"
        }
        let rows = providers.map { entry -> ConsoleHTML in
            let failure: ConsoleHTML =
                entry.keys?.lastFailureAt == nil
                ? when(nil)
                : "\(when(entry.keys?.lastFailureAt))<br><span class=\"muted\">\(entry.keys?.lastFailure ?? "")</span>"
            return """
                <tr><th scope="row">\(entry.provider.name)</th><td><code>\(entry.provider.issuer)</code></td>
                <td>\(entry.provider.audiences.joined(separator: ", "))</td><td><code>\(entry.provider.jwksURL)</code></td>
                <td class="number">\(entry.keys?.keys ?? 0)</td><td>\(when(entry.keys?.fetchedAt))</td><td>\(failure)</td></tr>
                """
        }
        return """
            <p class="lead">As configured (settings, read-only), with what this instance holds of their keys.</p>
            <div class="table-wrap"><table><caption class="visually-hidden">Identity providers</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Issuer</th><th scope="col">Audience</th>
            <th scope="col">JWKS URL</th><th scope="col" class="number">Keys cached</th><th scope="col">Last refresh</th>
            <th scope="col">Last failure</th></tr></thead>
            <tbody>\(ConsoleHTML(joining: rows))</tbody></table></div>
            """
    }

    static func created(_ created: CreatedServerKey) -> ConsoleHTML {
        """
        <h1>New server key: \(created.serverKey.name)</h1>
        <p class="notice">Copy the key now: it is shown this once, never again.</p>
        <div class="panel"><p><code class="secret">\(created.key)</code></p>
        <p>App <code>\(created.serverKey.app)</code>, scopes \(created.serverKey.scopes.joined(separator: ", ")).</p></div>
        <p><a href="/console/keys">Back to the keys</a></p>
        """
    }
}
