import Foundation

extension CelebrationPlanner {
    /// The celebration to show now, if any.
    ///
    /// The first moment of the queue with a celebration that is due (see
    /// ``CelebrationPlanner``): its most significant celebration when that one is due, with
    /// the rest of the moment folded into it (``PlannedCelebration/folded``) if it is a card
    /// or a full-screen celebration; otherwise the moment's next most significant one that is
    /// due, alone. An inline acknowledgment is due at once; a card or full-screen celebration
    /// only with Do Not Disturb off, outside an active logging burst,
    /// ``CelebrationPacing/spacing`` after the previous one, and within the session and day
    /// limits. Nothing changes until the caller reports the celebration with
    /// ``markShown(id:at:catalog:)``.
    ///
    /// - Parameters:
    ///   - instant: Now.
    ///   - catalog: The themes and tier presentations the config is built from; its themed
    ///     categories also rank the celebrations of a moment.
    /// - Returns: The celebration with its config, or `nil` when nothing is due.
    public func next(at instant: Date, catalog: CelebrationCatalog = .standard) -> PlannedCelebration? {
        for moment in moments(catalog: catalog) {
            for (rank, index) in moment.enumerated() {
                let entry = pending[index]
                guard let presented = preferences.style.presentedTier(for: entry.unlock.tier),
                    isDue(presented, at: instant),
                    let config = catalog.config(
                        for: entry.unlock, style: preferences.style, accessibility: preferences.accessibility,
                        message: entry.message)
                else { continue }
                let folded =
                    rank == 0 && presented > .acknowledgment ? moment.dropFirst().map { foldedLine(pending[$0]) } : []
                return PlannedCelebration(
                    id: entry.id, unlock: entry.unlock, originalTier: entry.unlock.tier, presentedTier: presented,
                    config: config, retroactive: entry.unlock.retroactive, folded: folded)
            }
        }
        return nil
    }

    /// The earliest instant at which ``next(at:catalog:)`` will return a celebration if no
    /// other input arrives: when to ask again.
    ///
    /// - Parameter instant: Now.
    /// - Returns: `instant` if something is due now; a later instant when the first due
    ///   celebration waits for the end of a burst, for spacing or for the next local day; `nil`
    ///   when nothing will become due by time alone (the queue is empty, the style is off, or
    ///   everything waits for Do Not Disturb to end or a new session).
    public func nextDeliveryDate(at instant: Date) -> Date? {
        pending.compactMap { entry in
            preferences.style.presentedTier(for: entry.unlock.tier).flatMap { earliestDelivery(of: $0, from: instant) }
        }.min()
    }

    /// Records that a celebration was shown: it leaves the queue for the history and counts
    /// against the limits of its presented tier. The celebrations folded into it
    /// (``PlannedCelebration/folded``) leave with it, shown as its lines; they count against
    /// no limit.
    ///
    /// - Parameters:
    ///   - id: The unlock's id.
    ///   - instant: When it was shown.
    ///   - catalog: The catalog ``next(at:catalog:)`` was given, which ranks a moment.
    /// - Returns: Whether the celebration was queued; `false` changes nothing.
    @discardableResult
    public mutating func markShown(id: String, at instant: Date, catalog: CelebrationCatalog = .standard) -> Bool {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
        let foldedIDs = Set(foldedIndices(into: index, catalog: catalog).map { pending[$0].id })
        let entry = pending.remove(at: index)
        let folded = pending.filter { foldedIDs.contains($0.id) }
        pending.removeAll { foldedIDs.contains($0.id) }
        let presented = preferences.style.presentedTier(for: entry.unlock.tier)
        let day = localDay(at: instant)
        switch presented {
        case .notable?:
            notablesShownThisSession += 1
        case .major?:
            if let shownDay = majorDay, shownDay >= day {
                majorsShownOnMajorDay += 1
            } else {
                majorDay = day
                majorsShownOnMajorDay = 1
            }
        case .acknowledgment?, nil:
            break
        }
        if let presented, presented > .acknowledgment {
            lastCardEndedAt = max(lastCardEndedAt ?? instant, instant)
        }
        delivered.append(
            DeliveredCelebration(
                unlockID: id, originalTier: entry.unlock.tier, presentedTier: presented,
                retroactive: entry.unlock.retroactive, sessionID: sessionID, shownAt: instant, shownDay: day,
                dismissedAt: nil))
        delivered += folded.map { line in
            DeliveredCelebration(
                unlockID: line.id, originalTier: line.unlock.tier,
                presentedTier: preferences.style.presentedTier(for: line.unlock.tier),
                retroactive: line.unlock.retroactive, sessionID: sessionID, shownAt: instant, shownDay: day,
                dismissedAt: nil, foldedInto: id)
        }
        return true
    }

    /// Records that a celebration was dismissed.
    ///
    /// A shown card or full-screen celebration ends, with the lines folded into it: the
    /// spacing before the next one counts from now. A celebration still queued leaves the
    /// queue unseen, for the history, without counting against any limit; the rest of its
    /// moment stays queued.
    ///
    /// - Parameters:
    ///   - id: The unlock's id.
    ///   - instant: When it was dismissed.
    /// - Returns: Whether there was a queued, or shown and not yet dismissed, celebration with
    ///   that id; `false` changes nothing.
    @discardableResult
    public mutating func dismiss(id: String, at instant: Date) -> Bool {
        if let index = pending.firstIndex(where: { $0.id == id }) {
            let entry = pending.remove(at: index)
            delivered.append(
                DeliveredCelebration(
                    unlockID: id, originalTier: entry.unlock.tier,
                    presentedTier: preferences.style.presentedTier(for: entry.unlock.tier),
                    retroactive: entry.unlock.retroactive, sessionID: sessionID, shownAt: nil, shownDay: nil,
                    dismissedAt: instant))
            return true
        }
        guard
            let index = delivered.lastIndex(where: {
                $0.unlockID == id && $0.wasShown && $0.dismissedAt == nil && $0.foldedInto == nil
            })
        else { return false }
        delivered[index].dismissedAt = instant
        for line in delivered.indices where delivered[line].foldedInto == id && delivered[line].dismissedAt == nil {
            delivered[line].dismissedAt = instant
        }
        if let presented = delivered[index].presentedTier, presented > .acknowledgment {
            lastCardEndedAt = max(lastCardEndedAt ?? instant, instant)
        }
        return true
    }

    /// Whether a celebration presented as `tier` may be shown at `instant`.
    func isDue(_ tier: CelebrationTier, at instant: Date) -> Bool {
        earliestDelivery(of: tier, from: instant) == instant
    }

    /// The earliest instant from `instant` on at which a celebration presented as `tier` may be
    /// shown if nothing else happens, or `nil` if time alone will not make it due.
    func earliestDelivery(of tier: CelebrationTier, from instant: Date) -> Date? {
        guard tier > .acknowledgment else { return instant }
        guard !preferences.doNotDisturb else { return nil }
        var earliest = instant
        if let lastActivityAt { earliest = max(earliest, lastActivityAt + pacing.burstGap) }
        if let lastCardEndedAt { earliest = max(earliest, lastCardEndedAt + pacing.spacing) }
        switch tier {
        case .acknowledgment:
            break
        case .notable:
            guard notablesShownThisSession < pacing.notablePerSession else { return nil }
        case .major:
            guard pacing.majorPerDay > 0 else { return nil }
            // A day already past its limit, or later than the day at `earliest` (the user moved
            // west), waits until the day after it begins.
            if let majorDay, majorsShownOnMajorDay >= pacing.majorPerDay, majorDay >= localDay(at: earliest) {
                earliest = max(earliest, dayClockStart(of: majorDay.advanced(by: 1)))
            }
        }
        return earliest
    }

    /// The first instant of a local day for this user.
    private func dayClockStart(of day: LocalDay) -> Date {
        Date(timeIntervalSince1970: Double(clock.start(of: day, in: zone)))
    }
}
