extension ShareCardLayout {
    /// The style of one text element: sizes in pixels, the number of lines it may use.
    struct TextStyle {
        var size: Double
        var minimumSize: Double
        var maxLines: Int
        var lineHeight: Double
        var weight: ShareCardFontWeight
    }

    /// Every measurement of one format. Stacked formats centre the photo above the text;
    /// landscape puts the photo on the left and the text in a column on the right.
    struct Metrics {
        /// Photo left, text right, instead of stacked.
        var isSideBySide: Bool
        var photoSide: Double
        var photoCornerRadius: Double
        var photoBorder: Double
        var badgeRadius: Double
        /// The badge's centre sits this fraction of its radius inside the photo's bottom-right corner.
        var badgeInset: Double
        /// The text column's left edge and width.
        var columnX: Double
        var columnWidth: Double
        /// The band the content is centred in vertically.
        var contentTop: Double
        var contentBottom: Double
        /// Stacked: the gap between the photo and the first line of text. Side by side: the photo's left edge.
        var photoGap: Double
        var subject: TextStyle
        var title: TextStyle
        var body: TextStyle
        var date: TextStyle
        var gapAfterSubject: Double
        var gapAfterTitle: Double
        var gapBeforeDate: Double
        var branding: TextStyle
        var brandingMargin: Double
        var brandingMaxWidth: Double

        static func of(_ format: ShareCardFormat) -> Metrics {
            switch format {
            case .square:
                Metrics(
                    isSideBySide: false, photoSide: 400, photoCornerRadius: 64, photoBorder: 12, badgeRadius: 62,
                    badgeInset: 0.3, columnX: 96, columnWidth: 888, contentTop: 64, contentBottom: 984, photoGap: 60,
                    subject: TextStyle(size: 32, minimumSize: 24, maxLines: 1, lineHeight: 1.3, weight: .semibold),
                    title: TextStyle(size: 64, minimumSize: 40, maxLines: 2, lineHeight: 1.15, weight: .bold),
                    body: TextStyle(size: 44, minimumSize: 30, maxLines: 3, lineHeight: 1.3, weight: .regular),
                    date: TextStyle(size: 30, minimumSize: 22, maxLines: 1, lineHeight: 1.3, weight: .regular),
                    gapAfterSubject: 12, gapAfterTitle: 16, gapBeforeDate: 24,
                    branding: TextStyle(size: 28, minimumSize: 18, maxLines: 1, lineHeight: 1.2, weight: .semibold),
                    brandingMargin: 48, brandingMaxWidth: 360)
            case .story:
                Metrics(
                    isSideBySide: false, photoSide: 640, photoCornerRadius: 96, photoBorder: 16, badgeRadius: 88,
                    badgeInset: 0.3, columnX: 100, columnWidth: 880, contentTop: 200, contentBottom: 1680, photoGap: 88,
                    subject: TextStyle(size: 44, minimumSize: 32, maxLines: 1, lineHeight: 1.3, weight: .semibold),
                    title: TextStyle(size: 88, minimumSize: 52, maxLines: 2, lineHeight: 1.15, weight: .bold),
                    body: TextStyle(size: 56, minimumSize: 38, maxLines: 5, lineHeight: 1.3, weight: .regular),
                    date: TextStyle(size: 40, minimumSize: 30, maxLines: 1, lineHeight: 1.3, weight: .regular),
                    gapAfterSubject: 16, gapAfterTitle: 22, gapBeforeDate: 36,
                    branding: TextStyle(size: 34, minimumSize: 22, maxLines: 1, lineHeight: 1.2, weight: .semibold),
                    brandingMargin: 64, brandingMaxWidth: 440)
            case .landscape:
                Metrics(
                    isSideBySide: true, photoSide: 720, photoCornerRadius: 80, photoBorder: 14, badgeRadius: 80,
                    badgeInset: 0.3, columnX: 970, columnWidth: 830, contentTop: 100, contentBottom: 980, photoGap: 120,
                    subject: TextStyle(size: 38, minimumSize: 28, maxLines: 1, lineHeight: 1.3, weight: .semibold),
                    title: TextStyle(size: 80, minimumSize: 48, maxLines: 2, lineHeight: 1.15, weight: .bold),
                    body: TextStyle(size: 52, minimumSize: 34, maxLines: 4, lineHeight: 1.3, weight: .regular),
                    date: TextStyle(size: 38, minimumSize: 28, maxLines: 1, lineHeight: 1.3, weight: .regular),
                    gapAfterSubject: 14, gapAfterTitle: 22, gapBeforeDate: 32,
                    branding: TextStyle(size: 30, minimumSize: 20, maxLines: 1, lineHeight: 1.2, weight: .semibold),
                    brandingMargin: 56, brandingMaxWidth: 400)
            }
        }
    }
}
