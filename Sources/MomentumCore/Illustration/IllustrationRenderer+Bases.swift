extension IllustrationRenderer {
    /// The character, centred on x = 100, sitting on the ground at y ≈ 170. Every one has
    /// the same face: round eyes with a shine, a smile and pink cheeks.
    ///
    /// - Parameters:
    ///   - base: The character.
    ///   - wearsHat: Whether a hat goes on its head (the piggy bank's coin then stays out
    ///     of the hat's way).
    ///   - pen: The pen.
    static func drawBase(_ base: IllustrationBase, wearsHat: Bool, with pen: inout IllustrationPen) {
        switch base {
        case .puppy: drawPuppy(with: &pen)
        case .flame: drawFlame(with: &pen)
        case .piggyBank: drawPiggyBank(coin: !wearsHat, with: &pen)
        case .sprout: drawSprout(with: &pen)
        }
    }

    /// Round eyes with a shine each.
    private static func eyes(_ xs: [Double], y: Double, r: Double, with pen: inout IllustrationPen) {
        for x in xs {
            pen.circle(x, y, r, .outline)
            pen.circle(x + r * 0.35, y - r * 0.35, r * 0.34, .white)
        }
    }

    private static func drawPuppy(with pen: inout IllustrationPen) {
        pen.path("M124 152 C142 148 148 134 141 121", fill: nil, stroke: .fur, width: 8)
        pen.ellipse(76, 160, 13, 10, .fur)
        pen.ellipse(124, 160, 13, 10, .fur)
        pen.ellipse(100, 146, 30, 27, .fur)
        pen.ellipse(100, 152, 17, 18, .furLight)
        pen.ellipse(87, 170, 9.5, 6, .furLight)
        pen.ellipse(113, 170, 9.5, 6, .furLight)
        pen.circle(100, 98, 31, .fur)
        pen.path("M73 77 C59 80 55 100 59 114 C62 124 72 122 75 112 C78 100 80 87 73 77Z", fill: .furShade)
        pen.path("M127 77 C141 80 145 100 141 114 C138 124 128 122 125 112 C122 100 120 87 127 77Z", fill: .furShade)
        pen.ellipse(112, 92, 9, 9.5, .furShade, opacity: 0.35)
        pen.ellipse(100, 111, 16, 12, .furLight)
        eyes([88, 112], y: 95, r: 4.6, with: &pen)
        pen.path("M96 113.5 Q100 125 104 113.5Z", fill: .tongue)
        pen.path("M92 110 Q96 115 100 110 Q104 115 108 110", fill: nil, stroke: .outline, width: 2)
        pen.ellipse(100, 105, 5.5, 4, .outline)
        pen.ellipse(98.4, 103.8, 1.7, 1, .white, opacity: 0.8)
        pen.ellipse(80, 108, 4.5, 3, .cheek, opacity: 0.7)
        pen.ellipse(120, 108, 4.5, 3, .cheek, opacity: 0.7)
    }

    private static func drawFlame(with pen: inout IllustrationPen) {
        pen.path(
            "M100 46 C110 66 131 80 131 114 C131 148 118 168 100 168 C82 168 68 149 69 123 "
                + "C70 104 78 94 84 84 C86 94 90 99 94 100 C90 84 92 62 100 46Z",
            fill: .flame)
        pen.path(
            "M100 78 C108 94 122 104 122 130 C122 152 112 162 100 162 C88 162 78 152 78 132 "
                + "C78 118 84 110 88 104 C90 112 93 114 96 114 C94 102 95 90 100 78Z",
            fill: .flameMid)
        pen.ellipse(100, 139, 17.5, 21, .flameInner)
        eyes([93, 107], y: 134, r: 3.8, with: &pen)
        pen.path("M93 144 Q100 151 107 144", fill: nil, stroke: .outline, width: 2.2)
        pen.ellipse(86.5, 142, 3.4, 2.3, .cheek, opacity: 0.8)
        pen.ellipse(113.5, 142, 3.4, 2.3, .cheek, opacity: 0.8)
    }

    private static func drawPiggyBank(coin: Bool, with pen: inout IllustrationPen) {
        pen.rect(78, 150, 13, 20, radius: 5, .piggyShade)
        pen.rect(116, 150, 13, 20, radius: 5, .piggyShade)
        pen.path("M142 122 C152 118 154 108 147 108 C140 108 142 119 152 121", fill: nil, stroke: .piggyShade, width: 3)
        pen.path("M94 100 L101 82 L111 98Z", fill: .piggyShade)
        pen.ellipse(102, 128, 42, 32, .piggy)
        pen.path("M78 104 L83 85 L95 100Z", fill: .piggyShade)
        pen.rect(98, 97.5, 24, 5, radius: 2.5, .outline)
        pen.ellipse(61, 128, 9.5, 12, .piggyShade)
        pen.ellipse(58.5, 124, 1.6, 2.6, .outline)
        pen.ellipse(58.5, 132, 1.6, 2.6, .outline)
        eyes([78], y: 117, r: 4.6, with: &pen)
        pen.path("M69 139 Q75 145 82 140", fill: nil, stroke: .outline, width: 2.2)
        pen.ellipse(87, 131, 5, 3.2, .cheek, opacity: 0.8)
        if coin {
            pen.circle(110, 83, 9.5, .gold)
            pen.ring(110, 83, 6, .goldShade, width: 1.6)
        }
    }

    private static func drawSprout(with pen: inout IllustrationPen) {
        pen.path("M100 118 C100 102 98 90 100 74", fill: nil, stroke: .leaf, width: 5)
        pen.path("M99 100 C86 102 70 94 66 78 C82 74 96 84 99 100Z", fill: .leaf)
        pen.path("M101 86 C104 70 118 58 136 60 C134 78 118 88 101 86Z", fill: .leafLight)
        pen.path("M97 97 C88 92 80 87 73 81", fill: nil, stroke: .leafLight, width: 1.6)
        pen.path("M103 84 C112 78 120 72 128 66", fill: nil, stroke: .leaf, width: 1.6)
        pen.circle(100, 72, 4.5, .leafLight)
        pen.path("M70 126 L130 126 L122 170 L78 170Z", fill: .pot)
        pen.rect(64, 116, 72, 14, radius: 5, .potShade)
        eyes([89, 111], y: 143, r: 4.2, with: &pen)
        pen.path("M92 153 Q100 159 108 153", fill: nil, stroke: .outline, width: 2.2)
        pen.ellipse(81, 151, 4.2, 2.7, .cheek, opacity: 0.8)
        pen.ellipse(119, 151, 4.2, 2.7, .cheek, opacity: 0.8)
    }
}
