/// The versions of the rules that computed a state: the engine's and those of the packs the
/// account uses.
///
/// The server's answers that carry state (`GET /v1/today`, a push's and a pull's answers,
/// the change stream) carry it as `"versions": {"engine": "1.0.0", "packs": {"habits":
/// "1.0.0"}}`, and a device compares it with its own (``comparison(to:)``): a device whose
/// rules are older shows the server's state rather than computing another one.
public struct RuleVersions: Codable, Hashable, Sendable {
    /// The engine's version (``MomentumUser/engineVersion`` of the build that computed).
    public var engine: String
    /// Each pack's version (``RulePack/version``), by pack name: the members of a
    /// combination each under its own name.
    public var packs: [String: String]

    /// Versions as given.
    public init(engine: String, packs: [String: String]) {
        self.engine = engine
        self.packs = packs
    }

    /// This build's versions for `pack`: this engine's and its members'.
    public init(_ pack: RulePack) {
        self.init(engine: MomentumUser.engineVersion, packs: pack.memberVersions)
    }

    /// This build's versions for the packs named (`["habits", "ollie"]`); a name this build
    /// does not bundle is left out.
    public init(packs names: [String]) {
        var packs: [String: String] = [:]
        for name in names { packs[name] = RulePack.bundled[name]?.version }
        self.init(engine: MomentumUser.engineVersion, packs: packs)
    }

    /// How these versions stand to `other`'s.
    public enum Comparison: Hashable, Sendable {
        /// The same engine and the same version of every pack.
        case same
        /// The engine or one of the packs is newer here (whatever else is older): these
        /// rules may compute what `other`'s cannot.
        case newer
        /// Nothing is newer here, and the engine or a pack is older.
        case older
    }

    /// How these versions (a server's, say) stand to `other` (a device's), for the engine
    /// and for each pack of ``packs``.
    ///
    /// A pack `other` does not list counts as newer here (the other side does not have it);
    /// two versions of which one is not a semantic version count as newer here when they
    /// differ (nothing says which is older, and the side that sent them has the rules).
    public func comparison(to other: RuleVersions) -> Comparison {
        var newer = false
        var older = false
        func weigh(_ mine: String, _ theirs: String?) {
            guard let theirs else {
                newer = true
                return
            }
            guard mine != theirs else { return }
            guard let a = SemanticVersion(mine), let b = SemanticVersion(theirs) else {
                newer = true
                return
            }
            if a > b { newer = true } else if a < b { older = true }
        }
        weigh(engine, other.engine)
        for (name, version) in packs { weigh(version, other.packs[name]) }
        return newer ? .newer : older ? .older : .same
    }
}
