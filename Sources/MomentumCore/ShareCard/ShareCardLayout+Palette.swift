extension ShareCardLayout {
    /// The colours of a card, all derived from the category colour so that every category
    /// looks like itself while text keeps WCAG AA contrast on the lightest background tint.
    struct Palette {
        var backgroundTop: ShareCardColor
        var backgroundBottom: ShareCardColor
        var title: ShareCardColor
        var body: ShareCardColor
        var secondary: ShareCardColor
        var badgeFill: ShareCardColor
        var placeholderFill: ShareCardColor
        var paw: ShareCardColor
        var category: ShareCardColor

        static let ink = ShareCardColor(red: 0x1F, green: 0x24, blue: 0x30)
        static let slate = ShareCardColor(red: 0x55, green: 0x5D, blue: 0x6E)

        init(category: ShareCardColor) {
            self.category = category
            backgroundTop = category.mixed(with: .white, fraction: 0.92)
            backgroundBottom = category.mixed(with: .white, fraction: 0.76)
            title = category.darkened(toContrast: 4.5, against: backgroundBottom)
            body = Self.ink
            secondary = Self.slate.darkened(toContrast: 4.5, against: backgroundBottom)
            badgeFill = category.darkened(toContrast: 3, against: .white)
            placeholderFill = category.mixed(with: .white, fraction: 0.84)
            paw = category.darkened(toContrast: 1.8, against: placeholderFill)
        }
    }
}
