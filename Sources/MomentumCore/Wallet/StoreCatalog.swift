/// The freeze store: fixed packs and a custom price per day (seed 003).
public struct StoreCatalog: Hashable, Sendable, Codable {
    /// A pack of freezes for a price.
    public struct Item: Hashable, Sendable, Codable {
        /// The id a purchase names (`"freeze-5"`).
        public var id: String
        /// How many freeze days the pack adds to the pool.
        public var freezes: Int
        /// What it costs.
        public var diamonds: Int

        private enum CodingKeys: String, CodingKey, CaseIterable { case id, freezes, diamonds }

        /// The fields of its JSON object, for an upload's check of unknown fields.
        static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

        /// Creates a store item.
        public init(id: String, freezes: Int, diamonds: Int) {
            self.id = id
            self.freezes = freezes
            self.diamonds = diamonds
        }
    }

    /// The packs on sale, in display order.
    public var items: [Item]
    /// Diamonds per freeze day bought in a custom amount.
    public var customPricePerFreeze: Int
    /// The largest custom amount one purchase may buy.
    public var customMaximum: Int

    private enum CodingKeys: String, CodingKey, CaseIterable { case items, customPricePerFreeze, customMaximum }

    /// The fields of its JSON object, for an upload's check of unknown fields.
    static var fieldNames: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Creates a catalog.
    public init(items: [Item], customPricePerFreeze: Int, customMaximum: Int = 365) {
        self.items = items
        self.customPricePerFreeze = customPricePerFreeze
        self.customMaximum = customMaximum
    }

    /// Seed 003's catalog: 5/50, 10/100, 20/200, 30/300, 50/500 and custom days at 10 each.
    public static let standard = StoreCatalog(
        items: [5, 10, 20, 30, 50].map { Item(id: "freeze-\($0)", freezes: $0, diamonds: $0 * 10) },
        customPricePerFreeze: 10)

    /// What a purchase adds and costs.
    ///
    /// - Parameters:
    ///   - item: A catalog item id, or `nil` for a custom amount.
    ///   - days: The custom number of freeze days, when `item` is `nil`.
    /// - Returns: The freezes bought and their price in diamonds.
    /// - Throws: ``MomentumError/Code-swift.struct/unknownStoreItem`` for an unknown item or a
    ///   custom amount outside 1…``customMaximum``.
    public func quote(item: String?, days: Int?) throws(MomentumError) -> (freezes: Int, diamonds: Int) {
        if let item {
            guard let found = items.first(where: { $0.id == item }) else {
                throw MomentumError(
                    .unknownStoreItem,
                    "the store has no item '\(item)' (\(items.map(\.id).joined(separator: ", ")), or custom days)",
                    field: "item")
            }
            return (found.freezes, found.diamonds)
        }
        let days = days ?? 0
        guard (1...customMaximum).contains(days) else {
            throw MomentumError(
                .unknownStoreItem, "a custom purchase buys 1…\(customMaximum) freeze days, not \(days)", field: "days")
        }
        return (days, days * customPricePerFreeze)
    }
}
