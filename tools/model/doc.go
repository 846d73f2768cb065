// Package model is the centre of lokal: the domain types every other package speaks in
// (workspaces, projects, keys, translations, checkups, webhooks), the [Error] type with its
// codes, the [Principal] who is calling, the [ChangeKind]s a write reports, and the ports the
// catalogue needs of a database ([Store] and its [Tx]) and of a rate limiter ([Limiter]).
//
// It holds no operation and talks to nothing: package tools (the catalogue) implements the
// operations on these types, package storage implements the ports on SQLite and PostgreSQL,
// and the transports map [Error] codes to their own statuses. Keeping it free of the
// catalogue and of provider libraries is what lets storage depend on it alone.
//
// The few rules here are those a type owns: [GateValue], the check every stored value
// passes whatever door it came through (storage runs it again on every write), and the
// language a project has on ([Project.RequireLanguage]).
package model
