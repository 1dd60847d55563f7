import MomentumAPI

// The request bodies the contract (`MomentumAPI/openapi.json`) defines, as the generator
// made them: each route decodes its body once, into one of these or a `MomentumAPI`
// type (`EventRequest`, `FreezeDecisionRequest`, `ProfilePatch`), refusing a field the
// type does not know (`JSONIO`).

/// What a client sends to register.
typealias RegisterRequest = Components.Schemas.RegisterRequest
/// A password change: the current password, the new one, and whether to sign out the
/// other devices.
typealias ChangePasswordRequest = Components.Schemas.ChangePasswordRequest
/// Another app's export to bring in: `POST /v1/imports`.
typealias HabitImportRequest = Components.Schemas.HabitImportRequest
/// What an import brought in (or would, with `dryRun`).
typealias HabitImportReport = Components.Schemas.HabitImportReport
/// One habit of an import's report.
typealias ImportedHabit = Components.Schemas.ImportedHabit
/// What a client sends to sign in.
typealias SignInRequest = Components.Schemas.SignInRequest
/// A batch of client events.
typealias PushRequest = Components.Schemas.PushRequest
/// A user's history brought in by an operator: `POST /v1/admin/imports`.
typealias ImportRequest = Components.Schemas.ImportRequest
/// The start of an app session, which paces celebrations.
typealias SessionStartRequest = Components.Schemas.SessionStart
/// A change to a memory's note; `null` removes it.
typealias MemoryPatch = Components.Schemas.MemoryPatch
