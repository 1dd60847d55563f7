import MomentumAPI

// The contract's types the services take and give (`MomentumAPI/openapi.json`, as the
// generator made them): a route decodes its body once, into one of these.

/// What a client sends to register.
public typealias RegisterRequest = Components.Schemas.RegisterRequest

/// A password change: the current password, the new one, and whether to sign out the
/// other devices.
public typealias ChangePasswordRequest = Components.Schemas.ChangePasswordRequest

/// Another app's export to bring in: `POST /v1/imports`.
public typealias HabitImportRequest = Components.Schemas.HabitImportRequest

/// What an import brought in (or would, with `dryRun`).
public typealias HabitImportReport = Components.Schemas.HabitImportReport

/// One habit of an import's report.
public typealias ImportedHabit = Components.Schemas.ImportedHabit

/// What a client sends to sign in.
public typealias SignInRequest = Components.Schemas.SignInRequest

/// A batch of client events.
public typealias PushRequest = Components.Schemas.PushRequest

/// A user's history brought in by an operator: `POST /v1/admin/imports`.
public typealias ImportRequest = Components.Schemas.ImportRequest

/// The start of an app session, which paces celebrations.
public typealias SessionStartRequest = Components.Schemas.SessionStart

/// A change to a memory's note; `null` removes it.
public typealias MemoryPatch = Components.Schemas.MemoryPatch
