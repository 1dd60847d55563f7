import Foundation

/// A user's move from one stage of a method to another — the input record of progression.
///
/// The first advance of a method has no ``fromStageID``: it records where the user started.
/// Every later advance names the stage the user was at, so a history can check that the
/// records agree with each other. Moving to a later stage is an advance (stages in between
/// may be skipped); moving to an earlier one is a regression, which is allowed.
///
/// JSON, in the shape of an event: `{"id": "e7", "at": "2026-03-14T08:30:00Z", "method": "angion",
/// "from": "s1", "to": "s2", "note": "…"}`; `from` and `note` may be left out. Use
/// ``MomentumJSON`` coders for RFC 3339 timestamps.
public struct StageAdvance: Hashable, Sendable, Codable {
    /// The client-generated id of the event that recorded the advance, unique per user.
    public var eventID: String
    /// The id of the method.
    public var methodID: String
    /// The stage the user left, or `nil` when the user starts the method.
    public var fromStageID: String?
    /// The stage the user reached.
    public var toStageID: String
    /// When the user reached the stage.
    public var at: Date
    /// An optional note the user wrote.
    public var note: String?

    /// Creates an advance.
    ///
    /// - Parameters:
    ///   - eventID: The id of the event that recorded it, unique per user.
    ///   - methodID: The id of the method.
    ///   - fromStageID: The stage the user left, or `nil` for the start of the method.
    ///   - toStageID: The stage the user reached.
    ///   - at: When the user reached it.
    ///   - note: An optional note.
    public init(
        eventID: String, methodID: String, from fromStageID: String?, to toStageID: String, at: Date,
        note: String? = nil
    ) {
        self.eventID = eventID
        self.methodID = methodID
        self.fromStageID = fromStageID
        self.toStageID = toStageID
        self.at = at
        self.note = note
    }

    private enum CodingKeys: String, CodingKey {
        case eventID = "id"
        case methodID = "method"
        case fromStageID = "from"
        case toStageID = "to"
        case at, note
    }
}
