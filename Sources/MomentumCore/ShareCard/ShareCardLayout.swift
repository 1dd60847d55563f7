/// Where everything on a share card goes: a pure, positioned model of the card.
///
/// The layout is computed from ``ShareCardContent`` and a ``ShareCardFormat`` with no font
/// or graphics library: text widths are estimated with ``ShareCardTextMetrics``, and text
/// that does not fit is wrapped, then shrunk to a minimum size, then truncated with "…",
/// so no line is wider than its box. ``ShareCardRenderer`` turns the layout into SVG; an
/// app can just as well draw it natively, element by element, in the order of the
/// properties below.
///
/// Square and story cards stack the photo above the text, everything centred. Landscape
/// cards put the photo on the left and the text, left-aligned, in a column on the right.
/// In every format the badge sits on the photo's bottom-right corner and the branding in
/// the card's bottom-right corner.
public struct ShareCardLayout: Hashable, Sendable, Codable {
    /// The card's format.
    public let format: ShareCardFormat
    /// A plain-text description of the card, for the image's title and screen readers.
    public let accessibilityLabel: String
    /// The background gradient and its decorative circles.
    public let background: ShareCardBackground
    /// The photo frame, holding the photo, the illustration or the placeholder.
    public let photo: ShareCardPhotoFrame
    /// The achievement badge.
    public let badge: ShareCardBadge
    /// The subject's name and age (`"Ollie · 12 weeks old"`), or `nil` when the content has neither.
    public let subject: ShareCardTextBlock?
    /// The headline, in one or two lines.
    public let title: ShareCardTextBlock
    /// The achievement text, wrapped.
    public let achievement: ShareCardTextBlock
    /// The date, in the layout's language (`"February 27, 2026"`).
    public let date: ShareCardTextBlock
    /// The brand mark in the bottom-right corner.
    public let branding: ShareCardTextBlock

    /// The card's width in pixels.
    public var width: Int { format.width }
    /// The card's height in pixels.
    public var height: Int { format.height }

    /// Every text block except the badge's, in drawing order.
    public var textBlocks: [ShareCardTextBlock] {
        [subject, title, achievement, date, branding].compactMap { $0 }
    }

    /// Lays out a card.
    ///
    /// - Parameters:
    ///   - content: What the card says.
    ///   - format: The card's shape and size.
    ///   - translation: The language the date is written in; English by default (the
    ///     other texts are the content's, as given).
    public init(content: ShareCardContent, format: ShareCardFormat, translation: Translation = .english) {
        let metrics = Metrics.of(format)
        let formattedDate = content.formattedDate(translation: translation)
        let palette = Palette(category: content.categoryColor)
        let width = Double(format.width)
        let height = Double(format.height)
        let alignment: ShareCardTextBlock.Alignment = metrics.isSideBySide ? .leading : .center
        self.format = format

        // Text is fitted first: its height decides where the photo and the text go.
        func fit(_ text: String, _ style: TextStyle, width: Double) -> ShareCardTextMetrics.Fitted {
            ShareCardTextMetrics.fit(
                text, maxWidth: width, maxLines: style.maxLines, preferredSize: style.size,
                minimumSize: style.minimumSize, weight: style.weight)
        }
        let column = metrics.columnWidth
        let stack: [StackItem] = [
            StackItem(
                role: .subject, fitted: content.subjectLine.map { fit($0, metrics.subject, width: column) },
                style: metrics.subject, color: palette.secondary, gapBefore: 0),
            StackItem(
                role: .title, fitted: fit(content.title, metrics.title, width: column), style: metrics.title,
                color: palette.title, gapBefore: metrics.gapAfterSubject),
            StackItem(
                role: .achievement, fitted: fit(content.achievementText, metrics.body, width: column),
                style: metrics.body, color: palette.body, gapBefore: metrics.gapAfterTitle),
            StackItem(
                role: .date, fitted: fit(formattedDate, metrics.date, width: column), style: metrics.date,
                color: palette.secondary, gapBefore: metrics.gapBeforeDate),
        ]
        let stackHeight = Self.height(of: stack)

        let side = metrics.photoSide
        let photoOrigin: (x: Double, y: Double)
        var textTop: Double
        let band = metrics.contentBottom - metrics.contentTop
        if metrics.isSideBySide {
            photoOrigin = (metrics.photoGap, ((height - side) / 2).rounded())
            textTop = metrics.contentTop + max(0, (band - stackHeight) / 2)
        } else {
            let group = side + metrics.photoGap + stackHeight
            let top = (metrics.contentTop + max(0, (band - group) / 2)).rounded()
            photoOrigin = (((width - side) / 2).rounded(), top)
            textTop = top + side + metrics.photoGap
        }

        var blocks: [StackItem.Role: ShareCardTextBlock] = [:]
        var placedAny = false
        for item in stack {
            guard let fitted = item.fitted else { continue }
            if placedAny, !fitted.lines.isEmpty { textTop += item.gapBefore }
            let block = Self.block(
                fitted, style: item.style, top: textTop, x: metrics.columnX, width: column, alignment: alignment,
                color: item.color)
            blocks[item.role] = block
            textTop += block.box.height
            placedAny = placedAny || !fitted.lines.isEmpty
        }
        subject = blocks[.subject]
        title = blocks[.title]!
        achievement = blocks[.achievement]!
        date = blocks[.date]!

        let photoRect = ShareCardRect(x: photoOrigin.x, y: photoOrigin.y, width: side, height: side)
        let inner = photoRect.insetBy(metrics.photoBorder)
        let photoContent: ShareCardPhotoFrame.Content
        if let href = content.acceptedPhoto {
            photoContent = .photo(href: href)
        } else if let illustration = content.illustration {
            photoContent = .illustration(illustration)
        } else {
            photoContent = .placeholder(
                ShareCardPhotoFrame.Placeholder(
                    fill: palette.placeholderFill,
                    circle: ShareCardCircle(centerX: inner.midX, centerY: inner.midY, radius: inner.width * 0.34),
                    circleColor: palette.category, circleOpacity: 0.16, pawColor: palette.paw))
        }
        photo = ShareCardPhotoFrame(
            frame: photoRect, cornerRadius: metrics.photoCornerRadius, borderWidth: metrics.photoBorder,
            borderColor: .white, content: photoContent)

        let radius = metrics.badgeRadius
        let badgeCircle = ShareCardCircle(
            centerX: photoRect.maxX - radius * metrics.badgeInset,
            centerY: photoRect.maxY - radius * metrics.badgeInset,
            radius: radius)
        let labelStyle = TextStyle(
            size: (radius * 0.9).rounded(), minimumSize: (radius * 0.4).rounded(), maxLines: 1, lineHeight: 1,
            weight: .bold)
        let labelFitted = fit(content.badge, labelStyle, width: radius * 1.3)
        let labelHeight = labelFitted.fontSize * labelStyle.lineHeight
        badge = ShareCardBadge(
            circle: badgeCircle, fill: palette.badgeFill, ringColor: .white, ringWidth: (radius * 0.1).rounded(),
            label: Self.block(
                labelFitted, style: labelStyle, top: badgeCircle.centerY - labelHeight / 2,
                x: badgeCircle.centerX - radius * 0.65, width: radius * 1.3, alignment: .center, color: .white))

        let brandingStyle = metrics.branding
        let brandingFitted = fit(content.branding, brandingStyle, width: metrics.brandingMaxWidth)
        let brandingLine = brandingFitted.fontSize * brandingStyle.lineHeight
        branding = Self.block(
            brandingFitted, style: brandingStyle,
            top: height - metrics.brandingMargin - brandingLine / 2 - brandingFitted.fontSize * Self.baselineShift,
            x: width - metrics.brandingMargin - metrics.brandingMaxWidth, width: metrics.brandingMaxWidth,
            alignment: .trailing, color: palette.title, opacity: 0.55)

        let short = min(width, height)
        background = ShareCardBackground(
            topColor: palette.backgroundTop, bottomColor: palette.backgroundBottom,
            accents: [
                .init(
                    circle: ShareCardCircle(centerX: width * 0.06, centerY: height * 0.04, radius: short * 0.42),
                    color: .white, opacity: 0.45),
                .init(
                    circle: ShareCardCircle(centerX: width * 0.98, centerY: height * 0.97, radius: short * 0.5),
                    color: palette.category, opacity: 0.08),
                .init(
                    circle: ShareCardCircle(centerX: width * 0.9, centerY: height * 0.1, radius: short * 0.035),
                    color: palette.category, opacity: 0.22),
                .init(
                    circle: ShareCardCircle(centerX: width * 0.08, centerY: height * 0.9, radius: short * 0.022),
                    color: palette.category, opacity: 0.22),
            ])

        let sanitized = ShareCardTextMetrics.sanitized
        accessibilityLabel = [content.title, content.achievementText, content.subjectLine ?? "", formattedDate]
            .map { sanitized($0).split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
            .joined(separator: " — ")
    }

    /// Where a baseline sits below the middle of its line, as a fraction of the font size:
    /// half the cap height of common sans-serif fonts, so capitals look centred in their line.
    static let baselineShift = 0.35

    private struct StackItem {
        enum Role: Hashable { case subject, title, achievement, date }
        var role: Role
        var fitted: ShareCardTextMetrics.Fitted?
        var style: TextStyle
        var color: ShareCardColor
        var gapBefore: Double
    }

    private static func height(of stack: [StackItem]) -> Double {
        var total = 0.0
        var placedAny = false
        for item in stack {
            guard let fitted = item.fitted, !fitted.lines.isEmpty else { continue }
            if placedAny { total += item.gapBefore }
            total += Double(fitted.lines.count) * fitted.fontSize * item.style.lineHeight
            placedAny = true
        }
        return total
    }

    private static func block(
        _ fitted: ShareCardTextMetrics.Fitted, style: TextStyle, top: Double, x: Double, width: Double,
        alignment: ShareCardTextBlock.Alignment, color: ShareCardColor, opacity: Double = 1
    ) -> ShareCardTextBlock {
        let lineHeight = fitted.fontSize * style.lineHeight
        let anchorX: Double
        switch alignment {
        case .leading: anchorX = x
        case .center: anchorX = x + width / 2
        case .trailing: anchorX = x + width
        }
        let lines = fitted.lines.enumerated().map { index, text in
            ShareCardTextBlock.Line(
                text: text, x: anchorX,
                baselineY: top + Double(index) * lineHeight + lineHeight / 2 + fitted.fontSize * baselineShift)
        }
        return ShareCardTextBlock(
            lines: lines,
            box: ShareCardRect(x: x, y: top, width: width, height: Double(fitted.lines.count) * lineHeight),
            fontSize: fitted.fontSize, lineHeight: lineHeight, weight: style.weight, alignment: alignment,
            color: color, opacity: opacity, isTruncated: fitted.isTruncated)
    }
}
