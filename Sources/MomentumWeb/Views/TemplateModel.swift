import Foundation
import Mustache

/// A template's typed context: the stored properties are the keys its template reads,
/// so a misspelt key fails to compile here, and `TemplateContractTests` fails naming the
/// template and the key when a template reads a key its model lacks.
///
/// The models are `Codable` so the tests can build a sample of each with every optional
/// present and every array holding one element, and walk it as the renderer does.
/// swift-mustache reads a struct's stored properties through `Mirror`: a `nil` optional
/// is an absent key (a section not shown, a lookup that climbs to the enclosing context).
protocol TemplateModel: Codable {
    /// The template this model renders (its file name without `.mustache`).
    static var template: String { get }
}

/// What the layout reads around every signed-in page: the top bar's counters, the bell,
/// the navigation, the store and the celebration settings.
struct Chrome: Codable {
    /// One link of the navigation.
    struct Link: Codable {
        var href: String
        var label: String
        var current: Bool
    }

    /// The freeze store's offers.
    struct Store: Codable {
        /// One pack of freezes for sale.
        struct Item: Codable {
            var id: String
            var freezes: Int
            var diamonds: Int
            var label: String
        }

        var items: [Item]
        var price: Int
        var maximum: Int
    }

    var title: String
    var signedIn = true
    var displayName: String
    var diamonds: Int
    var freezes: Int
    var diamondsLabel: String
    var freezesLabel: String
    var reduceMotion: Bool
    var celebrationStyle: String
    var timeZone: String
    var nav: [Link]
    var store: Store
    /// The bell: set when the page is rendered, as it counts the unread notifications then.
    var unread = 0
    var hasUnread = false
    var bellLabel = ""
}

/// The one place a page's context is assembled for the renderer: the translations
/// (`t`, `lang`, `strings`), then the page's model, then the layout's ``Chrome``; a key
/// the page does not hold (or holds as `nil`) is looked up in the next.
struct RenderContext: MustacheParent {
    let strings: [String: Any]
    let page: Any
    let chrome: Chrome?

    func child(named name: String) -> Any? {
        if let value = strings[name] { return value }
        if let value = Self.property(name, of: page) { return value }
        return chrome.flatMap { Self.property(name, of: $0) }
    }

    /// A stored property's value as swift-mustache reads it: `nil` when absent or `nil`.
    static func property(_ name: String, of object: Any) -> Any? {
        if let parent = object as? MustacheParent { return parent.child(named: name) }
        guard let value = Mirror(reflecting: object).children.first(where: { $0.label == name })?.value else {
            return nil
        }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
