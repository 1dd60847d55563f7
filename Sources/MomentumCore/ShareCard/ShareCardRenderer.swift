/// Draws a ``ShareCardLayout`` as a standalone SVG 1.1 document.
///
/// The SVG is sized in pixels (`width`, `height` and `viewBox` equal the format's size),
/// needs no external resources except a photo given as a relative path, and escapes all
/// text. The same layout always gives byte-identical output, so cards can be cached and
/// compared. Convert it to PNG with any SVG renderer (the server uses `rsvg-convert`).
///
/// A photo reference that ``ShareCardContent/isAcceptedPhotoReference(_:)`` refuses, which
/// only a hand-made or decoded layout can carry, is not drawn.
public enum ShareCardRenderer {
    /// The font stack of the card's text: system UI fonts first, DejaVu Sans for bare Linux
    /// renderers, and the generic `sans-serif` last.
    ///
    /// It names no emoji font: a renderer that finds one in the list may draw digits with it
    /// (digits are emoji characters by Unicode's property), and librsvg with Noto Color Emoji
    /// does, spreading "100" over twice its width. Emoji are drawn in their own `tspan`s,
    /// with ``emojiFontFamily``.
    public static let fontFamily =
        "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif"

    /// The font stack of the emoji on the card (those ``ShareCardTextMetrics/isEmoji(_:)``
    /// finds), each run of them in a `tspan` of its own: the colour emoji fonts of Apple,
    /// Windows and Linux, then the generic `sans-serif`.
    public static let emojiFontFamily = "'Apple Color Emoji', 'Segoe UI Emoji', 'Noto Color Emoji', sans-serif"

    /// The SVG document of a card.
    ///
    /// - Parameter layout: The card, laid out.
    /// - Returns: A complete SVG 1.1 document, starting with its XML declaration.
    public static func svg(_ layout: ShareCardLayout) -> String {
        var svg = SVGWriter()
        let w = Double(layout.width)
        let h = Double(layout.height)
        svg.line(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        svg.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("xmlns:xlink", "http://www.w3.org/1999/xlink"),
                ("version", "1.1"), ("width", SVGWriter.number(w)), ("height", SVGWriter.number(h)),
                ("viewBox", "0 0 \(SVGWriter.number(w)) \(SVGWriter.number(h))"), ("font-family", fontFamily),
            ])
        svg.element("title", text: layout.accessibilityLabel)
        definitions(layout, into: &svg)
        backgroundLayer(layout, into: &svg)
        photoLayer(layout.photo, into: &svg)
        badgeLayer(layout.badge, into: &svg)
        for block in layout.textBlocks { text(block, into: &svg) }
        svg.close("svg")
        return svg.output
    }

    private static let gradientID = "momentum-card-background"
    private static let clipID = "momentum-card-photo-clip"
    private static let shadowID = "momentum-card-shadow"

    private static func definitions(_ layout: ShareCardLayout, into svg: inout SVGWriter) {
        svg.open("defs")
        svg.open("linearGradient", [("id", gradientID), ("x1", "0"), ("y1", "0"), ("x2", "0.35"), ("y2", "1")])
        svg.empty("stop", [("offset", "0"), ("stop-color", layout.background.topColor.hex)])
        svg.empty("stop", [("offset", "1"), ("stop-color", layout.background.bottomColor.hex)])
        svg.close("linearGradient")
        svg.open("clipPath", [("id", clipID)])
        svg.empty("rect", rectAttributes(layout.photo.imageRect, radius: layout.photo.imageCornerRadius))
        svg.close("clipPath")
        let blur = SVGWriter.number((Double(min(layout.width, layout.height)) / 60).rounded())
        let offset = SVGWriter.number((Double(min(layout.width, layout.height)) / 80).rounded())
        svg.open(
            "filter", [("id", shadowID), ("x", "-20%"), ("y", "-20%"), ("width", "140%"), ("height", "140%")])
        svg.empty("feGaussianBlur", [("in", "SourceAlpha"), ("stdDeviation", blur)])
        svg.empty("feOffset", [("dy", offset), ("result", "blur")])
        svg.empty("feFlood", [("flood-color", "#1F2430"), ("flood-opacity", "0.16")])
        svg.empty("feComposite", [("in2", "blur"), ("operator", "in")])
        svg.open("feMerge")
        svg.empty("feMergeNode")
        svg.empty("feMergeNode", [("in", "SourceGraphic")])
        svg.close("feMerge")
        svg.close("filter")
        svg.close("defs")
    }

    private static func backgroundLayer(_ layout: ShareCardLayout, into svg: inout SVGWriter) {
        svg.empty(
            "rect",
            [
                ("width", SVGWriter.number(Double(layout.width))), ("height", SVGWriter.number(Double(layout.height))),
                ("fill", "url(#\(gradientID))"),
            ])
        for accent in layout.background.accents {
            svg.empty(
                "circle",
                circleAttributes(accent.circle) + [
                    ("fill", accent.color.hex), ("fill-opacity", SVGWriter.number(accent.opacity)),
                ])
        }
    }

    private static func photoLayer(_ photo: ShareCardPhotoFrame, into svg: inout SVGWriter) {
        svg.empty(
            "rect",
            rectAttributes(photo.frame, radius: photo.cornerRadius) + [
                ("fill", photo.borderColor.hex), ("filter", "url(#\(shadowID))"),
            ])
        switch photo.content {
        case .photo(let href) where ShareCardContent.isAcceptedPhotoReference(href):
            svg.empty(
                "image",
                rectAttributes(photo.imageRect, radius: nil) + [
                    ("preserveAspectRatio", "xMidYMid slice"), ("clip-path", "url(#\(clipID))"),
                    ("xlink:href", href),
                ])
        case .photo:
            // A decoded layout may carry any reference; one a card would not accept is not drawn.
            svg.empty("rect", rectAttributes(photo.imageRect, radius: photo.imageCornerRadius) + [("fill", "#FFFFFF")])
        case .illustration(let illustration):
            IllustrationRenderer.draw(illustration, in: photo.imageRect, clipID: clipID, into: &svg)
        case .placeholder(let placeholder):
            svg.empty(
                "rect",
                rectAttributes(photo.imageRect, radius: photo.imageCornerRadius) + [("fill", placeholder.fill.hex)])
            svg.empty(
                "circle",
                circleAttributes(placeholder.circle) + [
                    ("fill", placeholder.circleColor.hex),
                    ("fill-opacity", SVGWriter.number(placeholder.circleOpacity)),
                ])
            paw(in: placeholder.circle, color: placeholder.pawColor, into: &svg)
        }
    }

    /// A paw print inside a circle: one main pad and four toes, all ellipses.
    private static func paw(in circle: ShareCardCircle, color: ShareCardColor, into svg: inout SVGWriter) {
        let r = circle.radius
        // (x, y, rx, ry, rotation in degrees), in units of the circle's radius from its centre.
        let pads: [(Double, Double, Double, Double, Double)] = [
            (0, 0.2, 0.36, 0.29, 0),
            (-0.47, -0.16, 0.13, 0.17, -25),
            (-0.17, -0.42, 0.14, 0.18, -8),
            (0.17, -0.42, 0.14, 0.18, 8),
            (0.47, -0.16, 0.13, 0.17, 25),
        ]
        svg.open("g", [("fill", color.hex)])
        for (x, y, rx, ry, rotation) in pads {
            let cx = SVGWriter.number(circle.centerX + x * r)
            let cy = SVGWriter.number(circle.centerY + y * r)
            var attributes = [
                ("cx", cx), ("cy", cy), ("rx", SVGWriter.number(rx * r)), ("ry", SVGWriter.number(ry * r)),
            ]
            if rotation != 0 {
                attributes.append(("transform", "rotate(\(SVGWriter.number(rotation)) \(cx) \(cy))"))
            }
            svg.empty("ellipse", attributes)
        }
        svg.close("g")
    }

    private static func badgeLayer(_ badge: ShareCardBadge, into svg: inout SVGWriter) {
        svg.empty(
            "circle", circleAttributes(badge.circle) + [("fill", badge.ringColor.hex), ("filter", "url(#\(shadowID))")])
        var inner = badge.circle
        inner.radius = max(0, inner.radius - badge.ringWidth)
        svg.empty("circle", circleAttributes(inner) + [("fill", badge.fill.hex)])
        text(badge.label, into: &svg)
    }

    private static func text(_ block: ShareCardTextBlock, into svg: inout SVGWriter) {
        let anchor =
            switch block.alignment {
            case .leading: "start"
            case .center: "middle"
            case .trailing: "end"
            }
        for line in block.lines {
            var attributes = [
                ("x", SVGWriter.number(line.x)), ("y", SVGWriter.number(line.baselineY)),
                ("font-size", SVGWriter.number(block.fontSize)), ("font-weight", String(block.weight.rawValue)),
                ("fill", block.color.hex),
            ]
            if block.opacity < 1 { attributes.append(("fill-opacity", SVGWriter.number(block.opacity))) }
            attributes.append(("text-anchor", anchor))
            let runs = emojiRuns(line.text)
            if runs.count == 1, !runs[0].isEmoji {
                svg.element("text", attributes, text: line.text)
            } else {
                svg.mixedText(
                    attributes,
                    runs: runs.map { ($0.text, $0.isEmoji ? [("font-family", emojiFontFamily)] : []) })
            }
        }
    }

    /// A line cut into runs of emoji and of other text, in order.
    static func emojiRuns(_ text: String) -> [(text: String, isEmoji: Bool)] {
        var runs: [(text: String, isEmoji: Bool)] = []
        for character in text {
            let isEmoji = ShareCardTextMetrics.isEmoji(character)
            if let last = runs.last, last.isEmoji == isEmoji {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((String(character), isEmoji))
            }
        }
        return runs.isEmpty ? [("", false)] : runs
    }

    private static func rectAttributes(_ rect: ShareCardRect, radius: Double?) -> [(String, String)] {
        var attributes = [
            ("x", SVGWriter.number(rect.x)), ("y", SVGWriter.number(rect.y)),
            ("width", SVGWriter.number(rect.width)), ("height", SVGWriter.number(rect.height)),
        ]
        if let radius { attributes += [("rx", SVGWriter.number(radius)), ("ry", SVGWriter.number(radius))] }
        return attributes
    }

    private static func circleAttributes(_ circle: ShareCardCircle) -> [(String, String)] {
        [
            ("cx", SVGWriter.number(circle.centerX)), ("cy", SVGWriter.number(circle.centerY)),
            ("r", SVGWriter.number(circle.radius)),
        ]
    }
}
