/// The colour scheme an illustration is drawn in.
public enum IllustrationAppearance: String, Hashable, Sendable, Codable, CaseIterable {
    /// Light backgrounds: share cards, and pages in a light scheme.
    case light
    /// Dark backgrounds.
    case dark
    /// Both, chosen by the viewer's `prefers-color-scheme` through a style sheet in the
    /// SVG: for web pages (a browser shows an SVG image in the page's scheme).
    case adaptive
}
