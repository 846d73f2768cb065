// Package tools is lokal's catalogue: every operation of the service, its typed input and
// output, and its rules. MCP, REST and the public routes are adapters around it.
//
// # Operations
//
// Each operation is a [Catalog] method func(ctx, In) (Out, error). The MCP tools are listed
// once by [Catalog.Tools], which the rest package registers on the go-sdk server; the REST
// handlers call the same methods directly.
//
// # Who is calling
//
// Transports authenticate and put a [Principal] in the context ([WithPrincipal]); every
// operation authorizes itself against it. Writes are attributed to [Principal.Actor] in the
// history.
//
// # Rules
//
// Sync semantics (created, hidden, unhidden, source_value_changed), staleness (a row made
// against an older source version), statuses, flags and value safety (package valuecheck)
// live here, with no HTTP or SQL in sight.
//
// # Errors
//
// Operations return [*Error] with a Code constant; rest maps codes to HTTP statuses and
// the MCP adapter turns them into tool errors.
//
// # Storage
//
// [Store] and [Tx] are the database as the catalogue needs it; package storage implements
// them on SQLite and PostgreSQL.
package tools
