import Foundation

/// Draws the shapes of an illustration into an SVG writer, in a 200 × 200 space, colouring
/// each by its role: with the colours of one scheme, or with classes that a style sheet
/// colours (``IllustrationAppearance/adaptive``).
struct IllustrationPen {
    /// How shapes are coloured.
    enum Colouring {
        /// With `fill` and `stroke` colours, in the dark scheme or the light one.
        case fixed(dark: Bool)
        /// With classes (`f-fur`, `s-outline`) that a style sheet colours.
        case classes
    }

    private(set) var svg = SVGWriter()
    let color: ShareCardColor
    let colouring: Colouring
    /// The roles used as fills and as strokes, for the style sheet.
    private(set) var fills: Set<IllustrationInk> = []
    private(set) var strokes: Set<IllustrationInk> = []

    init(color: ShareCardColor, colouring: Colouring) {
        self.color = color
        self.colouring = colouring
    }

    /// A shape element with its geometry, fill, stroke and opacity.
    mutating func shape(
        _ name: String, _ geometry: [(String, String)], fill: IllustrationInk?, stroke: IllustrationInk? = nil,
        width: Double = 0, opacity: Double = 1, transform: String? = nil
    ) {
        var attributes = geometry
        var classes: [String] = []
        switch colouring {
        case .fixed(let dark):
            attributes.append(("fill", fill.map { $0.color(for: color, dark: dark).hex } ?? "none"))
            if let stroke { attributes.append(("stroke", stroke.color(for: color, dark: dark).hex)) }
        case .classes:
            if let fill {
                classes.append("f-" + fill.rawValue)
                fills.insert(fill)
            } else {
                attributes.append(("fill", "none"))
            }
            if let stroke {
                classes.append("s-" + stroke.rawValue)
                strokes.insert(stroke)
            }
        }
        if !classes.isEmpty { attributes.append(("class", classes.joined(separator: " "))) }
        if stroke != nil {
            attributes += [
                ("stroke-width", SVGWriter.number(width)), ("stroke-linecap", "round"), ("stroke-linejoin", "round"),
            ]
        }
        if opacity < 1 { attributes.append(("opacity", SVGWriter.number(opacity))) }
        if let transform { attributes.append(("transform", transform)) }
        svg.empty(name, attributes)
    }

    mutating func circle(_ x: Double, _ y: Double, _ r: Double, _ fill: IllustrationInk, opacity: Double = 1) {
        shape("circle", [("cx", n(x)), ("cy", n(y)), ("r", n(r))], fill: fill, opacity: opacity)
    }

    mutating func ring(_ x: Double, _ y: Double, _ r: Double, _ stroke: IllustrationInk, width: Double) {
        shape("circle", [("cx", n(x)), ("cy", n(y)), ("r", n(r))], fill: nil, stroke: stroke, width: width)
    }

    mutating func ellipse(
        _ x: Double, _ y: Double, _ rx: Double, _ ry: Double, _ fill: IllustrationInk, opacity: Double = 1,
        rotation: Double = 0
    ) {
        shape(
            "ellipse", [("cx", n(x)), ("cy", n(y)), ("rx", n(rx)), ("ry", n(ry))], fill: fill, opacity: opacity,
            transform: rotation == 0 ? nil : "rotate(\(n(rotation)) \(n(x)) \(n(y)))")
    }

    mutating func rect(
        _ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double = 0, _ fill: IllustrationInk,
        opacity: Double = 1, rotation: Double = 0
    ) {
        var geometry = [("x", n(x)), ("y", n(y)), ("width", n(w)), ("height", n(h))]
        if radius > 0 { geometry.append(("rx", n(radius))) }
        let transform = rotation == 0 ? nil : "rotate(\(n(rotation)) \(n(x + w / 2)) \(n(y + h / 2)))"
        shape("rect", geometry, fill: fill, opacity: opacity, transform: transform)
    }

    mutating func path(
        _ d: String, fill: IllustrationInk?, stroke: IllustrationInk? = nil, width: Double = 0, opacity: Double = 1
    ) {
        shape("path", [("d", d)], fill: fill, stroke: stroke, width: width, opacity: opacity)
    }

    /// A five-pointed star around a centre.
    mutating func star(_ x: Double, _ y: Double, _ r: Double, _ fill: IllustrationInk, stroke: IllustrationInk? = nil) {
        var d = ""
        for point in 0..<10 {
            let radius = point % 2 == 0 ? r : r * 0.46
            let angle = Double(point) * Double.pi / 5 - Double.pi / 2
            d += (point == 0 ? "M" : "L") + n(x + radius * cos(angle)) + " " + n(y + radius * sin(angle)) + " "
        }
        path(d + "Z", fill: fill, stroke: stroke, width: stroke == nil ? 0 : r * 0.1)
    }

    /// A four-pointed sparkle with curved sides.
    mutating func sparkle(_ x: Double, _ y: Double, _ r: Double, _ fill: IllustrationInk, opacity: Double = 1) {
        let (cx, cy) = (n(x), n(y))
        let d =
            "M\(cx) \(n(y - r)) Q\(cx) \(cy) \(n(x + r)) \(cy) Q\(cx) \(cy) \(cx) \(n(y + r)) "
            + "Q\(cx) \(cy) \(n(x - r)) \(cy) Q\(cx) \(cy) \(cx) \(n(y - r))Z"
        path(d, fill: fill, opacity: opacity)
    }

    /// Opens a group moved, scaled and turned as `transform` says.
    mutating func open(_ transform: String) { svg.open("g", [("transform", transform)]) }

    mutating func close() { svg.close("g") }

    private func n(_ value: Double) -> String { SVGWriter.number(value) }
}
