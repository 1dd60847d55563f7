/// Draws an ``Illustration`` as SVG: a standalone document for a web page, or the shapes
/// alone for a share card.
///
/// The picture is drawn in a 200 × 200 space with simple filled shapes (circles, ellipses,
/// rounded rectangles and a few Bézier paths): no text, no gradients, filters or ids, so
/// that it reads at small sizes, renders the same everywhere and can be embedded in
/// another SVG. The same illustration and appearance always give byte-identical output.
public enum IllustrationRenderer {
    /// The side of the square the shapes are drawn in.
    public static let canvas = 200.0

    /// The SVG document of an illustration.
    ///
    /// - Parameters:
    ///   - illustration: What to draw.
    ///   - appearance: The colour scheme; ``IllustrationAppearance/adaptive`` writes both,
    ///     with a style sheet that follows `prefers-color-scheme`.
    ///   - size: The document's width and height in pixels.
    ///   - title: A description for screen readers, or `nil` for a decorative picture
    ///     (`aria-hidden`).
    /// - Returns: A complete SVG 1.1 document, starting with its XML declaration.
    public static func svg(
        _ illustration: Illustration, appearance: IllustrationAppearance = .adaptive, size: Int = 200,
        title: String? = nil
    ) -> String {
        var pen = IllustrationPen(
            color: illustration.color,
            colouring: appearance == .adaptive ? .classes : .fixed(dark: appearance == .dark))
        draw(illustration, with: &pen)
        var svg = SVGWriter()
        let side = SVGWriter.number(Double(max(1, size)))
        svg.line(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        var attributes = [
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("width", side), ("height", side),
            ("viewBox", "0 0 200 200"),
        ]
        attributes += title == nil ? [("aria-hidden", "true")] : [("role", "img")]
        svg.open("svg", attributes)
        if let title { svg.element("title", text: title) }
        if appearance == .adaptive { svg.element("style", text: styleSheet(for: pen, color: illustration.color)) }
        for line in pen.svg.output.split(separator: "\n") { svg.line(String(line)) }
        svg.close("svg")
        return svg.output
    }

    /// The shapes of an illustration in its light colours, fitted into a square of a
    /// share card and clipped to the card's photo area.
    ///
    /// - Parameters:
    ///   - illustration: What to draw.
    ///   - rect: The square to fill.
    ///   - clipID: The id of the clip path the picture is cut to.
    ///   - svg: The card's SVG.
    static func draw(_ illustration: Illustration, in rect: ShareCardRect, clipID: String, into svg: inout SVGWriter) {
        var pen = IllustrationPen(color: illustration.color, colouring: .fixed(dark: false))
        draw(illustration, with: &pen)
        let scale = min(rect.width, rect.height) / canvas
        svg.open("g", [("clip-path", "url(#\(clipID))")])
        svg.open(
            "g",
            [
                (
                    "transform",
                    "translate(\(SVGWriter.number(rect.x)) \(SVGWriter.number(rect.y))) "
                        + "scale(\(SVGWriter.number(scale, decimals: 4)))"
                )
            ])
        for line in pen.svg.output.split(separator: "\n") { svg.line(String(line)) }
        svg.close("g")
        svg.close("g")
    }

    /// Draws every part, back to front: the backdrop, the ground and its decorations, the
    /// character with what it wears, then what stands beside it.
    static func draw(_ illustration: Illustration, with pen: inout IllustrationPen) {
        let anchors = Anchors.of(illustration.base)
        var placement = Placement.of(illustration.prop)
        if placement == .neck, anchors.neck == nil { placement = .beside }
        drawBackdrop(illustration.backdrop, with: &pen)
        let shift: Double =
            switch placement {
            case .beside: -18
            case .ground: -12
            case .hat, .neck, .above: 0
            }
        pen.open("translate(\(SVGWriter.number(shift)) 0)")
        pen.ellipse(100, 171, 42, 6, .shadow, opacity: 0.12)
        drawBase(illustration.base, wearsHat: placement == .hat, with: &pen)
        switch placement {
        case .hat:
            let hat = anchors.hat
            pen.open(
                "translate(\(SVGWriter.number(hat.x)) \(SVGWriter.number(hat.y))) "
                    + "rotate(\(SVGWriter.number(hat.rotation))) scale(\(SVGWriter.number(hat.scale)))")
            drawProp(illustration.prop, with: &pen)
            pen.close()
        case .neck:
            if let neck = anchors.neck {
                pen.open("translate(\(SVGWriter.number(neck.x)) \(SVGWriter.number(neck.y)))")
                drawProp(illustration.prop, with: &pen)
                pen.close()
            }
        case .beside, .above, .ground:
            break
        }
        pen.close()
        switch placement {
        case .beside:
            pen.open("translate(152 170)")
            if Placement.of(illustration.prop) == .neck {
                // A medal or stethoscope with no neck to hang on lies beside the character, larger.
                pen.open("translate(0 -48) scale(1.5)")
                drawProp(illustration.prop, with: &pen)
                pen.close()
            } else {
                drawProp(illustration.prop, with: &pen)
            }
            pen.close()
        case .above:
            pen.open("translate(156 56)")
            drawProp(illustration.prop, with: &pen)
            pen.close()
        case .ground:
            drawProp(illustration.prop, with: &pen)
        case .hat, .neck:
            break
        }
    }

    /// The style sheet of an adaptive document: a class per role used, in the light
    /// scheme, then the roles whose colour differs in the dark one.
    private static func styleSheet(for pen: IllustrationPen, color: ShareCardColor) -> String {
        func rules(dark: Bool, onlyChanged: Bool) -> String {
            var text = ""
            for ink in IllustrationInk.allCases {
                let value = ink.color(for: color, dark: dark)
                if onlyChanged, value == ink.color(for: color, dark: false) { continue }
                if pen.fills.contains(ink) { text += ".f-\(ink.rawValue){fill:\(value.hex)}" }
                if pen.strokes.contains(ink) { text += ".s-\(ink.rawValue){stroke:\(value.hex)}" }
            }
            return text
        }
        return rules(dark: false, onlyChanged: false) + "@media (prefers-color-scheme: dark){"
            + rules(dark: true, onlyChanged: true) + "}"
    }

    /// Where a prop goes.
    enum Placement: Equatable {
        /// On the character's head.
        case hat
        /// Around the character's neck.
        case neck
        /// Floating at the top right.
        case above
        /// On the ground, at the right.
        case ground
        /// Standing on the ground beside the character.
        case beside

        static func of(_ prop: IllustrationProp) -> Placement {
            switch prop {
            case .graduationCap, .partyHat: .hat
            case .medal, .stethoscope: .neck
            case .star, .heart: .above
            case .pawPrints: .ground
            case .trophy, .shield, .tent, .cake, .calendar, .coins, .flag, .book, .suitcase, .house, .lotus: .beside
            }
        }
    }

    /// Where a character wears a hat and a medal, in the 200 × 200 space.
    struct Anchors {
        var hat: (x: Double, y: Double, rotation: Double, scale: Double)
        var neck: (x: Double, y: Double)?

        static func of(_ base: IllustrationBase) -> Anchors {
            switch base {
            case .puppy: Anchors(hat: (100, 70, -10, 1), neck: (100, 128))
            case .flame: Anchors(hat: (100, 60, -8, 0.8), neck: nil)
            case .piggyBank: Anchors(hat: (86, 99, -16, 0.8), neck: nil)
            case .sprout: Anchors(hat: (100, 70, -8, 0.75), neck: nil)
            }
        }
    }
}
