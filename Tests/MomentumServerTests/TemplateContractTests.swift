import Foundation
import Testing

@testable import MomentumWeb

/// Every key a template reads resolves to a property of its page's typed model (or of
/// the layout's ``Chrome``), walked as swift-mustache walks it: sections of a list read
/// its element, other sections their value, a key not found climbs to the enclosing
/// context, a partial is read in the context that includes it.
@Suite struct TemplateContractTests {
    /// The pages with a typed model, and whether they are shown signed in (in the
    /// layout's ``Chrome``) or signed out (the page's model alone).
    static var pages: [(model: any TemplateModel.Type, signedIn: Bool)] {
        [
            (SignInPage.self, false), (SignUpPage.self, false), (MissingPage.self, true), (RecoveryPage.self, false),
            (NotificationsPage.self, true), (InvitationPage.self, true), (SharePage.self, true),
            (MemoriesPage.self, true), (FriendsPage.self, true), (FriendPage.self, true), (FeedPage.self, true),
            (ProfilePage.self, true), (FamilyPage.self, true), (JourneyPage.self, true),
            (HabitPage.self, true), (TodayPage.self, true), (PackPage.self, true),
        ]
    }

    /// The templates whose pages still build a `[String: Any]` context: none since issue 46
    /// (item 3); a template added without a typed model fails ``everyTemplateIsTypedOrListed()``.
    static let untyped: Set<String> = []

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Sources/MomentumWeb/Resources/templates").standardized

    @Test func layoutReadsOnlyTheChrome() throws {
        let chrome = try Sample.of(Chrome.self)
        var checker = Checker()
        try checker.check("layout", stack: [chrome])
        #expect(checker.missing == [], "layout.mustache reads keys its model lacks")
    }

    @Test(arguments: pages.map { "\($0.model.template)" })
    func pageReadsOnlyItsModel(template: String) throws {
        let entry = try #require(Self.pages.first { $0.model.template == template })
        let page = try Sample.of(entry.model)
        let stack: [Any] = entry.signedIn ? [try Sample.of(Chrome.self), page] : [page]
        var checker = Checker()
        try checker.check(template, stack: stack)
        #expect(checker.missing == [], "\(template).mustache reads keys its model \(entry.model) lacks")
    }

    /// Every template is a typed page's, the layout, a partial of a typed page, or listed
    /// as still untyped; a converted page leaves the list.
    @Test func everyTemplateIsTypedOrListed() throws {
        var covered: Set<String> = ["layout"]
        for entry in Self.pages {
            var checker = Checker()
            let page = try Sample.of(entry.model)
            try checker.check(entry.model.template, stack: [try Sample.of(Chrome.self), page])
            covered.formUnion(checker.visited)
        }
        let all = Set(
            try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
                .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) })
        #expect(all.subtracting(covered) == Self.untyped)
        #expect(covered.isDisjoint(with: Self.untyped))
    }
}

/// Reads a template's tags and resolves each key against a stack of sample values.
struct Checker {
    /// "template: key" for each key that resolves to nothing.
    var missing: [String] = []
    /// The templates read, the partials too.
    var visited: Set<String> = []

    mutating func check(_ template: String, stack: [Any]) throws {
        visited.insert(template)
        let url = TemplateContractTests.directory.appending(path: "\(template).mustache")
        let text = try String(contentsOf: url, encoding: .utf8)
        var stack = stack
        // Each open section, and whether it pushed a value onto `stack`.
        var sections: [Bool] = []
        for tag in Self.tags(in: text) {
            let kind = tag.first ?? " "
            let name = String(tag.dropFirst(["#", "^", "/", ">", "<", "$", "!", "&", "{"].contains(kind) ? 1 : 0))
                .trimmingCharacters(in: .whitespaces)
            switch kind {
            case "!": continue
            case "/":
                if sections.popLast() == true { stack.removeLast() }
            case "<", "$": sections.append(false)
            case ">":
                if !visited.contains(name) { try check(name, stack: stack) }
            case "#":
                guard let value = resolve(name, template, stack) else {
                    sections.append(false)
                    continue
                }
                switch value {
                case let list as [Any]:
                    guard let first = list.first else {
                        missing.append("\(template): \(name) (an empty sample list)")
                        sections.append(false)
                        continue
                    }
                    stack.append(first)
                    sections.append(true)
                case is Bool: sections.append(false)
                default:
                    stack.append(value)
                    sections.append(true)
                }
            case "^":
                _ = resolve(name, template, stack)
                sections.append(false)
            default:
                _ = resolve(name, template, stack)
            }
        }
    }

    /// Resolves a dotted key as the renderer does; records it when it resolves to nothing.
    private mutating func resolve(_ name: String, _ template: String, _ stack: [Any]) -> Any? {
        if name == "." { return stack.last }
        let parts = name.split(separator: ".").map(String.init)
        guard let head = parts.first else { return nil }
        if ["t", "lang", "strings"].contains(head) { return nil }
        var value: Any? = stack.reversed().lazy.compactMap { RenderContext.property(head, of: $0) }.first
        for part in parts.dropFirst() { value = value.flatMap { RenderContext.property(part, of: $0) } }
        if value == nil { missing.append("\(template): \(name)") }
        return value
    }

    /// The tags' contents: `#name`, `^name`, `/name`, `>partial`, `{raw`, `name`…
    static func tags(in text: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            if rest.hasPrefix("{") {
                guard let close = rest.range(of: "}}}") else { break }
                tags.append("{" + rest[rest.index(after: rest.startIndex)..<close.lowerBound])
                rest = rest[close.upperBound...]
            } else {
                guard let close = rest.range(of: "}}") else { break }
                tags.append(String(rest[..<close.lowerBound]))
                rest = rest[close.upperBound...]
            }
        }
        return tags
    }
}

/// A sample of a model: every optional present, every list of one element, every string
/// "x", number 1 and Boolean true, so that walking it reaches every property.
enum Sample {
    static func of(_ type: any Decodable.Type) throws -> Any {
        try type.init(from: SampleDecoder())
    }
}

private struct SampleDecoder: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>())
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single() }

    static func value<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return "x" as! T
        case is Bool.Type: return true as! T
        case is Int.Type: return 1 as! T
        case is Double.Type: return 1.0 as! T
        default: return try T(from: SampleDecoder())
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try SampleDecoder.value(type) }
        func nestedContainer<Nested: CodingKey>(
            keyedBy type: Nested.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<Nested> { KeyedDecodingContainer(Keyed<Nested>()) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { Unkeyed() }
        func superDecoder() throws -> any Decoder { SampleDecoder() }
        func superDecoder(forKey key: Key) throws -> any Decoder { SampleDecoder() }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] = []
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= 1 }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try SampleDecoder.value(type)
        }
        mutating func nestedContainer<Nested: CodingKey>(
            keyedBy type: Nested.Type
        ) throws -> KeyedDecodingContainer<Nested> {
            currentIndex += 1
            return KeyedDecodingContainer(Keyed<Nested>())
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return Unkeyed()
        }
        mutating func superDecoder() throws -> any Decoder { SampleDecoder() }
    }

    struct Single: SingleValueDecodingContainer {
        var codingPath: [any CodingKey] = []
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try SampleDecoder.value(type) }
    }
}
