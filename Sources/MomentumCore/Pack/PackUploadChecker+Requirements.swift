import Foundation

/// An upload's requirements between rules (``AchievementRule/requires``): each names another
/// rule of the pack, few enough, and none goes round in a cycle, which would hold its rules'
/// unlocks for ever.
extension PackUploadChecker {
    /// The most rules one rule may require.
    static let maximumRequirements = 32

    /// Reports every requirement that names no rule of the pack, the rule itself or a rule
    /// already named, every list longer than ``maximumRequirements``, and every cycle.
    ///
    /// - Parameters:
    ///   - rules: The rules that could be read, each with its index in the document.
    ///   - ids: The ids of every rule of the document, read or not (a requirement naming a
    ///     rule with problems of its own is not a problem too).
    mutating func checkRequirements(of rules: [(index: Int, rule: AchievementRule)], ids: Set<String>) {
        var edges: [String: [(to: String, position: Int)]] = [:]
        var indexOfRule: [String: Int] = [:]
        for (index, rule) in rules {
            guard let requires = rule.requires else { continue }
            let at = "pack.achievements[\(index)].requires"
            indexOfRule[rule.id] = indexOfRule[rule.id] ?? index
            if requires.count > Self.maximumRequirements {
                report(at, "has \(requires.count) rules; at most \(Self.maximumRequirements) are accepted")
            }
            var seen: Set<String> = []
            for (position, required) in requires.enumerated() {
                if required == rule.id {
                    report("\(at)[\(position)]", "a rule cannot require itself: cycle: \(required) → \(required)")
                } else if !ids.contains(required) {
                    report("\(at)[\(position)]", "no rule '\(required)' in this pack")
                } else if !seen.insert(required).inserted {
                    report("\(at)[\(position)]", "'\(required)' is listed twice")
                } else {
                    edges[rule.id, default: []].append((required, position))
                }
            }
        }
        for cycle in Self.cycles(edges, order: rules.map(\.rule.id)) {
            guard let first = cycle.first, let index = indexOfRule[first], cycle.count > 1,
                let position = edges[first]?.first(where: { $0.to == cycle[1] })?.position
            else { continue }
            report(
                "pack.achievements[\(index)].requires[\(position)]",
                "cycle: \((cycle + [first]).joined(separator: " → "))")
        }
    }

    /// The cycles of a graph of requirements, each once, as the ids along it from the one
    /// first in `order`; found by a depth-first search without recursion (a pack may have a
    /// thousand rules).
    static func cycles(_ edges: [String: [(to: String, position: Int)]], order: [String]) -> [[String]] {
        enum Mark { case open, done }
        var marks: [String: Mark] = [:]
        var found: [[String]] = []
        var seen: Set<[String]> = []
        let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for root in order where marks[root] == nil {
            // The path from the root, each node with the next of its edges to follow.
            var path: [(node: String, next: Int)] = [(root, 0)]
            marks[root] = .open
            while let (node, next) = path.last {
                let targets = edges[node] ?? []
                guard next < targets.count else {
                    marks[node] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let target = targets[next].to
                switch marks[target] {
                case nil:
                    marks[target] = .open
                    path.append((target, 0))
                case .open:
                    // Back to a node on the path: the path from it is a cycle.
                    guard let start = path.firstIndex(where: { $0.node == target }) else { continue }
                    let cycle = path[start...].map(\.node)
                    let lead =
                        cycle.indices.min { rank[cycle[$0], default: .max] < rank[cycle[$1], default: .max] } ?? 0
                    let rotated = Array(cycle[lead...] + cycle[..<lead])
                    if seen.insert(rotated).inserted { found.append(rotated) }
                case .done:
                    continue
                }
            }
        }
        return found
    }
}
