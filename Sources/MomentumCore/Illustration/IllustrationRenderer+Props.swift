extension IllustrationRenderer {
    /// A prop, around its anchor at (0, 0): a hat's brim, a medal's ribbon knot, the
    /// middle of what floats above, the middle of the ground of what stands beside; paw
    /// prints are drawn where they go on the ground.
    static func drawProp(_ prop: IllustrationProp, with pen: inout IllustrationPen) {
        switch prop {
        case .graduationCap: graduationCap(&pen)
        case .partyHat: partyHat(&pen)
        case .trophy: trophy(&pen)
        case .medal: medal(&pen)
        case .star:
            pen.star(0, 0, 21, .gold, stroke: .goldShade)
            pen.sparkle(25, -15, 5.5, .goldLight)
            pen.sparkle(-23, 15, 4.5, .goldLight)
        case .stethoscope: stethoscope(&pen)
        case .shield: shield(&pen)
        case .pawPrints: pawPrints(&pen)
        case .tent: tent(&pen)
        case .cake: cake(&pen)
        case .heart:
            pen.path(
                "M0 15 C-19 3 -23 -8 -17 -15 C-11 -22 -2 -19 0 -11 C2 -19 11 -22 17 -15 C23 -8 19 3 0 15Z",
                fill: .heart)
            pen.ellipse(-9, -10, 3.4, 2, .white, opacity: 0.6, rotation: -35)
            pen.sparkle(24, -17, 4.5, .goldLight)
        case .calendar: calendar(&pen)
        case .coins: coins(&pen)
        case .flag: flag(&pen)
        case .book: book(&pen)
        case .suitcase: suitcase(&pen)
        case .house: house(&pen)
        case .lotus: lotus(&pen)
        }
    }

    private static func graduationCap(_ pen: inout IllustrationPen) {
        pen.path("M-17 2 L-15 -11 L15 -11 L17 2 Q0 7 -17 2Z", fill: .capDark)
        pen.path("M0 -25 L37 -12 L0 1 L-37 -12Z", fill: .accentDark)
        pen.path("M0 -21 L27 -12 L0 -3 L-27 -12Z", fill: .accent, opacity: 0.55)
        pen.path("M0 -12 L27 -6 L28 8", fill: nil, stroke: .gold, width: 2.2)
        pen.path("M25 6 L31 6 L32.5 17 L23.5 17Z", fill: .gold)
        pen.circle(0, -12, 2.6, .gold)
    }

    private static func partyHat(_ pen: inout IllustrationPen) {
        pen.path("M-15 2 L0 -36 L15 2Z", fill: .accent)
        pen.path("M-10.3 -10 L10.3 -10 L7.9 -16 L-7.9 -16Z", fill: .goldLight)
        pen.path("M-5.5 -22 L5.5 -22 L3.6 -27 L-3.6 -27Z", fill: .goldLight)
        pen.ellipse(0, 2, 16, 3.5, .accentDark)
        pen.circle(0, -37, 4.8, .gold)
    }

    private static func trophy(_ pen: inout IllustrationPen) {
        pen.rect(-16, -9, 32, 9, radius: 2, .accentDark)
        pen.rect(-8, -7, 16, 4.5, radius: 1, .goldLight)
        pen.path("M-4 -9 L4 -9 L3 -23 L-3 -23Z", fill: .goldShade)
        pen.ellipse(0, -23, 7, 3, .gold)
        pen.path("M-17 -52 C-31 -52 -31 -33 -12 -31", fill: nil, stroke: .goldShade, width: 4)
        pen.path("M17 -52 C31 -52 31 -33 12 -31", fill: nil, stroke: .goldShade, width: 4)
        pen.path("M-19 -56 L19 -56 C19 -36 11 -25 0 -25 C-11 -25 -19 -36 -19 -56Z", fill: .gold)
        pen.ellipse(0, -56, 19, 4, .goldLight)
        pen.star(0, -42, 6.5, .goldLight)
        pen.path("M-13 -50 C-13 -41 -10 -35 -6 -31", fill: nil, stroke: .goldLight, width: 2.5, opacity: 0.8)
    }

    private static func medal(_ pen: inout IllustrationPen) {
        pen.path("M-12 -4 L-4 -4 L3 14 L-5 14Z", fill: .accent)
        pen.path("M12 -4 L4 -4 L-3 14 L5 14Z", fill: .accentDark)
        pen.circle(0, 22, 11, .gold)
        pen.ring(0, 22, 8, .goldShade, width: 1.6)
        pen.star(0, 22, 5, .goldLight)
    }

    private static func stethoscope(_ pen: inout IllustrationPen) {
        pen.path("M-19 -8 C-21 12 -8 20 0 20 C8 20 21 12 19 -8", fill: nil, stroke: .metalDark, width: 3)
        pen.circle(-19, -9, 2.6, .metal)
        pen.circle(19, -9, 2.6, .metal)
        pen.path("M0 20 C0 28 6 32 12 32", fill: nil, stroke: .metalDark, width: 3)
        pen.circle(15, 34, 6.8, .metal)
        pen.circle(15, 34, 3.8, .paperShade)
    }

    private static func shield(_ pen: inout IllustrationPen) {
        pen.path("M0 -62 L27 -52 L27 -31 C27 -15 15 -4 0 0 C-15 -4 -27 -15 -27 -31 L-27 -52Z", fill: .accentDark)
        pen.path("M0 -56 L21 -48 L21 -31 C21 -18 12 -9 0 -6 C-12 -9 -21 -18 -21 -31 L-21 -48Z", fill: .accent)
        pen.path("M-10 -32 L-3 -24 L11 -41", fill: nil, stroke: .paper, width: 5)
    }

    /// Three paw prints on the ground at the right, in the category's dark colour.
    private static func pawPrints(_ pen: inout IllustrationPen) {
        for (x, y, rotation, scale) in [(146.0, 187.0, -18.0, 1.0), (166, 175, 12, 0.9), (186, 188, -8, 0.85)] {
            pen.open(
                "translate(\(SVGWriter.number(x)) \(SVGWriter.number(y))) rotate(\(SVGWriter.number(rotation))) "
                    + "scale(\(SVGWriter.number(scale)))")
            pen.ellipse(0, 3, 5.5, 4.4, .accentDark, opacity: 0.85)
            for (toeX, toeY) in [(-5.6, -3.4), (-2, -6.4), (2, -6.4), (5.6, -3.4)] {
                pen.circle(toeX, toeY, 2.1, .accentDark, opacity: 0.85)
            }
            pen.close()
        }
    }

    private static func tent(_ pen: inout IllustrationPen) {
        pen.path("M0 -52 L0 -60", fill: nil, stroke: .metalDark, width: 2)
        pen.path("M0 -60 L11 -57 L0 -54Z", fill: .gold)
        pen.path("M-33 0 L0 -52 L33 0Z", fill: .accent)
        pen.path("M0 -52 L33 0 L13 0Z", fill: .accentDark, opacity: 0.45)
        pen.path("M-11 0 L0 -27 L11 0Z", fill: .capDark)
    }

    private static func cake(_ pen: inout IllustrationPen) {
        pen.ellipse(0, -2, 31, 4.5, .paperShade)
        pen.rect(-24, -31, 48, 29, radius: 4, .furLight)
        pen.path(
            "M-24 -24 L-24 -30 Q-24 -35 -19 -35 L19 -35 Q24 -35 24 -30 L24 -24 Q20 -19 16 -24 Q12 -19 8 -24 "
                + "Q4 -19 0 -24 Q-4 -19 -8 -24 Q-12 -19 -16 -24 Q-20 -19 -24 -24Z",
            fill: .accent)
        pen.circle(-13, -12, 1.8, .gold)
        pen.circle(3, -9, 1.8, .confettiBlue)
        pen.circle(14, -15, 1.8, .confettiPink)
        pen.circle(-3, -15, 1.8, .confettiGreen)
        pen.rect(-2.6, -51, 5.2, 16, radius: 1.5, .accentLight)
        pen.ellipse(0, -56, 3.4, 5.2, .flameMid)
        pen.ellipse(0, -55, 1.7, 2.7, .flameInner)
    }

    private static func calendar(_ pen: inout IllustrationPen) {
        pen.rect(-25, -56, 50, 56, radius: 6, .paper)
        pen.path("M-25 -43 L-25 -50 Q-25 -56 -19 -56 L19 -56 Q25 -56 25 -50 L25 -43Z", fill: .accent)
        pen.rect(-14, -61, 4.5, 10, radius: 2.2, .metalDark)
        pen.rect(9.5, -61, 4.5, 10, radius: 2.2, .metalDark)
        for y in [-33.0, -22, -11] {
            for x in [-13.0, 0, 13] { pen.circle(x, y, 2.5, .paperShade) }
        }
        pen.ring(0, -22, 7.5, .accent, width: 2.4)
    }

    private static func coins(_ pen: inout IllustrationPen) {
        for base in [-5.0, -14, -23] {
            pen.rect(-30, base - 8, 40, 8, .goldShade)
            pen.ellipse(-10, base, 20, 5, .goldShade)
            pen.ellipse(-10, base - 8, 20, 5, .gold)
        }
        pen.ellipse(-10, -31, 13, 3, .goldLight, opacity: 0.7)
        pen.circle(20, -16, 15, .gold)
        pen.ring(20, -16, 10.5, .goldShade, width: 2)
        pen.star(20, -16, 5.5, .goldLight)
    }

    private static func flag(_ pen: inout IllustrationPen) {
        pen.ellipse(0, 0, 14, 4, .groundShade)
        pen.rect(-2, -64, 4, 64, radius: 2, .metalDark)
        pen.circle(0, -66, 3.4, .gold)
        pen.path("M2 -62 C14 -66 22 -58 36 -62 L36 -40 C22 -36 14 -44 2 -40Z", fill: .accent)
        pen.star(19, -51, 5, .paper)
    }

    private static func book(_ pen: inout IllustrationPen) {
        pen.path("M-39 -6 L-39 -43 L0 -39 L39 -43 L39 -6 L0 -2Z", fill: .accent)
        pen.path("M0 -8 C-10 -14 -24 -15 -36 -10 L-36 -45 C-24 -50 -10 -49 0 -43Z", fill: .paper)
        pen.path("M0 -8 C10 -14 24 -15 36 -10 L36 -45 C24 -50 10 -49 0 -43Z", fill: .paper)
        pen.path("M0 -43 L0 -8", fill: nil, stroke: .paperShade, width: 1.6)
        for y in [-36.0, -28, -20] {
            pen.path(
                "M-30 \(SVGWriter.number(y)) C-22 \(SVGWriter.number(y - 3)) -12 \(SVGWriter.number(y - 3)) -6 "
                    + SVGWriter.number(y + 1),
                fill: nil, stroke: .accentLight, width: 1.8)
            pen.path(
                "M6 \(SVGWriter.number(y + 1)) C12 \(SVGWriter.number(y - 3)) 22 \(SVGWriter.number(y - 3)) 30 "
                    + SVGWriter.number(y),
                fill: nil, stroke: .accentLight, width: 1.8)
        }
    }

    private static func suitcase(_ pen: inout IllustrationPen) {
        pen.path("M-9 -44 L-9 -52 Q-9 -57 -4 -57 L4 -57 Q9 -57 9 -52 L9 -44", fill: nil, stroke: .accentDark, width: 4)
        pen.rect(-29, -47, 58, 44, radius: 7, .accent)
        pen.rect(-17, -47, 5, 44, .accentDark)
        pen.rect(12, -47, 5, 44, .accentDark)
        pen.circle(0, -26, 7, .gold)
        pen.star(0, -26, 4, .goldLight)
        pen.circle(-19, -1.5, 3, .capDark)
        pen.circle(19, -1.5, 3, .capDark)
    }

    private static func house(_ pen: inout IllustrationPen) {
        pen.rect(11, -58, 8, 16, .accentDark)
        pen.rect(-23, -37, 46, 37, .paper)
        pen.path("M-31 -33 L0 -60 L31 -33Z", fill: .accent, stroke: .accent, width: 2)
        pen.rect(-6, -21, 12, 21, radius: 2, .accentDark)
        pen.circle(3, -10, 1.2, .gold)
        pen.rect(-19, -30, 9, 9, radius: 1.5, .goldLight)
        pen.rect(10, -30, 9, 9, radius: 1.5, .goldLight)
    }

    private static func lotus(_ pen: inout IllustrationPen) {
        pen.ellipse(0, -3, 32, 5.5, .leaf)
        pen.path("M0 -9 C-14 -14 -29 -26 -32 -36 C-17 -35 -5 -24 0 -9Z", fill: .accentLight)
        pen.path("M0 -9 C14 -14 29 -26 32 -36 C17 -35 5 -24 0 -9Z", fill: .accentLight)
        pen.path("M0 -7 C-10 -18 -15 -33 -11 -45 C-2 -37 4 -22 0 -7Z", fill: .accent)
        pen.path("M0 -7 C10 -18 15 -33 11 -45 C2 -37 -4 -22 0 -7Z", fill: .accent)
        pen.path("M0 -5 C-8 -18 -8 -36 0 -52 C8 -36 8 -18 0 -5Z", fill: .accentDark, opacity: 0.85)
    }
}
