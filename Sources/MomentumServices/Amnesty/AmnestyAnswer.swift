import Foundation
import MomentumAPI
import MomentumStore

/// An amnesty's window and reason as the API takes them: `POST /v1/admin/amnesties`.
public typealias AmnestyDeclareRequest = Components.Schemas.AmnestyDeclareRequest

/// An amnesty as the API answers it, with its job's progress.
public typealias AmnestyAnswer = Components.Schemas.Amnesty

/// The latest amnesties as the API answers them: `GET /v1/admin/amnesties`.
public typealias AmnestyListAnswer = Components.Schemas.AmnestyList

extension Components.Schemas.Amnesty {
    /// The answer for a stored amnesty.
    public init(_ record: AmnestyRecord) {
        self.init(
            declaredAt: record.declaredAt, declaredBy: record.declaredBy, end: record.end, id: record.id,
            liftedAt: record.liftedAt, liftedBy: record.liftedBy, reason: record.reason, start: record.start,
            status: record.status.rawValue, usersDone: record.usersDone, usersTotal: record.usersTotal)
    }
}
