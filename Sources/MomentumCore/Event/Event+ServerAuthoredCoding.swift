import Foundation

extension Event.Payload {
    /// Decodes the payload of a server-written event (`grant`, `rewards.kept`, `amnesty`,
    /// `amnesty.lifted`), each checked against its bounds with an error naming the field.
    static func serverAuthored(type: String, in c: KeyedDecodingContainer<Event.Key>) throws -> Self {
        typealias Key = Event.Key
        func refuse(_ field: String, _ reason: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: Key(field), in: c, debugDescription: reason)
        }
        func instant(_ text: String, _ field: String) throws -> Date {
            switch Event.instant(text) {
            case .success(let date): return date
            case .failure(let problem): throw refuse(field, problem.message)
            }
        }
        switch type {
        case "grant":
            let grant = Grant(
                diamonds: try c.decodeIfPresent(Int.self, forKey: Key("diamonds")) ?? 0,
                freezes: try c.decodeIfPresent(Int.self, forKey: Key("freezes")) ?? 0,
                reason: try c.decode(String.self, forKey: Key("reason")),
                operatorID: try c.decodeIfPresent(String.self, forKey: Key("operator")))
            if let problem = grant.problem { throw refuse(problem.field, problem.reason) }
            return .grant(grant)
        case "rewards.kept":
            var list = try c.nestedUnkeyedContainer(forKey: Key("unlocks"))
            var unlocks: [KeptRewards.KeptUnlock] = []
            while !list.isAtEnd {
                guard unlocks.count < KeptRewards.maximumUnlocks else {
                    throw refuse("unlocks", "at most \(KeptRewards.maximumUnlocks) unlocks are kept at once")
                }
                let item = try list.nestedContainer(keyedBy: Key.self)
                unlocks.append(
                    KeptRewards.KeptUnlock(
                        rule: try item.decode(String.self, forKey: Key("rule")),
                        key: try item.decode(String.self, forKey: Key("key")),
                        title: try item.decode(String.self, forKey: Key("title")),
                        at: try instant(item.decode(String.self, forKey: Key("at")), "unlocks")))
            }
            let kept = KeptRewards(
                pack: try c.decode(String.self, forKey: Key("pack")),
                version: try c.decode(String.self, forKey: Key("version")), unlocks: unlocks,
                diamondsEarned: try c.decodeIfPresent(Int.self, forKey: Key("diamondsEarned")) ?? 0,
                freezesEarned: try c.decodeIfPresent(Int.self, forKey: Key("freezesEarned")) ?? 0)
            if let problem = kept.problem { throw refuse(problem.field, problem.reason) }
            return .rewardsKept(kept)
        case "amnesty":
            let amnesty = Amnesty(
                id: try c.decode(String.self, forKey: Key("amnesty")),
                start: try instant(c.decode(String.self, forKey: Key("start")), "start"),
                end: try instant(c.decode(String.self, forKey: Key("end")), "end"),
                reason: try c.decode(String.self, forKey: Key("reason")))
            if let problem = amnesty.problem { throw refuse(problem.field, problem.reason) }
            return .amnesty(amnesty)
        default:
            let id = try c.decode(String.self, forKey: Key("amnesty"))
            if let problem = Event.idProblem(id) { throw refuse("amnesty", "amnesty " + problem) }
            return .amnestyLifted(id: id)
        }
    }
}
