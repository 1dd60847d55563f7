extension IllustrationRenderer {
    /// The backdrop: the sky, the halo behind the character, what is far away, the ground
    /// and the decorations in front of the sky.
    static func drawBackdrop(_ backdrop: IllustrationBackdrop, with pen: inout IllustrationPen) {
        let night = backdrop == .night
        pen.rect(0, 0, 200, 200, night ? .nightSky : .sky)
        pen.circle(100, 104, 72, .halo, opacity: night ? 0.3 : 1)
        switch backdrop {
        case .outdoors:
            pen.circle(36, 36, 21, .sun, opacity: 0.3)
            pen.circle(36, 36, 15, .sun)
            pen.ellipse(150, 30, 17, 7.5, .cloud)
            pen.circle(143, 26, 7.5, .cloud)
            pen.circle(155, 23, 9.5, .cloud)
        case .night:
            pen.circle(38, 40, 15, .nightStar)
            pen.circle(45, 34, 13, .nightSky)
            for (x, y, r) in [(170.0, 30.0, 5.0), (138, 16, 3), (82, 22, 3.5), (186, 82, 3), (20, 96, 3.5)] {
                pen.sparkle(x, y, r, .nightStar)
            }
            for (x, y) in [(44.0, 58.0), (88, 12), (140, 70), (178, 116), (14, 140)] {
                pen.circle(x, y, 1.4, .nightStar)
            }
        case .peaks:
            pen.circle(30, 34, 12, .sun)
            pen.path("M-10 168 L52 80 L114 168Z", fill: .mountain)
            pen.path("M52 80 L40 97 L48 94 L53 101 L59 94 L65 98Z", fill: .snow)
            pen.path("M84 168 L150 66 L214 168Z", fill: .groundShade)
            pen.path("M150 66 L137 86 L145 83 L151 90 L157 83 L164 87Z", fill: .snow)
        case .sparkles, .confetti:
            break
        }
        let outdoors = backdrop == .outdoors || backdrop == .peaks
        pen.path(
            "M0 164 C40 156 76 158 100 161 C132 165 168 156 200 160 L200 200 L0 200Z",
            fill: outdoors ? .grass : night ? .groundShade : .ground)
        switch backdrop {
        case .outdoors, .peaks:
            for (x, y) in [(22.0, 176.0), (60, 190), (182, 180)] {
                func p(_ dx: Double, _ dy: Double) -> String {
                    SVGWriter.number(x + dx) + " " + SVGWriter.number(y + dy)
                }
                pen.path(
                    "M\(p(-6, 0)) Q\(p(-5, -8)) \(p(-2, -10)) Q\(p(-1, -4)) \(p(0, -12)) "
                        + "Q\(p(2, -4)) \(p(5, -9)) Q\(p(6, -4)) \(p(6, 0))Z",
                    fill: .grassShade)
            }
        case .sparkles:
            for (x, y, r) in [(30.0, 42.0, 10.0), (170, 60, 8), (148, 26, 5), (36, 124, 5.5), (178, 124, 6)] {
                pen.sparkle(x, y, r, .sparkle)
            }
            for (x, y, r) in [(58.0, 24.0, 2.6), (184, 92, 2.4), (20, 84, 2.2), (126, 18, 2)] {
                pen.circle(x, y, r, .sparkle, opacity: 0.8)
            }
        case .confetti:
            let pieces: [(Double, Double, Double, IllustrationInk)] = [
                (22, 30, 20, .accent), (46, 16, -30, .gold), (74, 28, 45, .confettiPink), (124, 14, -15, .confettiBlue),
                (150, 32, 30, .confettiGreen), (178, 18, -40, .accent), (186, 56, 15, .gold),
                (16, 64, -20, .confettiBlue),
                (30, 96, 35, .confettiPink), (176, 96, -25, .confettiPink), (188, 134, 40, .accent),
                (14, 132, 10, .gold), (100, 8, 60, .gold),
            ]
            for (x, y, rotation, ink) in pieces {
                pen.rect(x - 3.5, y - 1.8, 7, 3.6, radius: 1, ink, rotation: rotation)
            }
            for (x, y, ink) in [(60.0, 46.0, IllustrationInk.confettiGreen), (140, 48, .accent), (164, 150, .gold)] {
                pen.circle(x, y, 2.4, ink)
            }
        case .night:
            break
        }
    }
}
