import Foundation

extension Translation {
    /// This language with more texts: an uploaded pack's translations, which win over the
    /// bundled ones for the same key. Blank texts are left out (they would be English).
    ///
    /// - Parameter extra: The texts by key.
    /// - Returns: The translation with them.
    public func including(_ extra: [String: String]) -> Translation {
        let added = extra.filter { !$0.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        guard !added.isEmpty else { return self }
        return Translation(
            language: language, name: name, groupingSeparator: groupingSeparator, decimalSeparator: decimalSeparator,
            texts: texts.merging(added) { _, new in new }, plurals: plurals)
    }
}
