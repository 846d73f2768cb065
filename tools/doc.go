// Package tools is lokal's catalogue: every operation of the service, its typed input and
// output, and its rules. MCP, REST, the public Embed routes, the editor and the command
// line are adapters around it; none decides who may do what or what a value may be.
//
// # Operations
//
// [Operations] (tools.go) is the whole service on one screen: each operation with the
// doors it is offered through, who may call it, the right it needs and the budgets it
// spends; [SystemOperations] are the operator's and the service's own. Names are the
// typed constants of tools/model (a test refuses string literals), and every operation
// passes its row's gate (gate.go) before anything else. Each is a
// [Catalog] method func(ctx, In) (Out, error); the MCP adapter binds the tool rows to
// their methods with the go-sdk's typed mcp.AddTool, and the other doors call the methods
// directly. Files are named by the subject of their operations.
//
// # The write path
//
// Every write goes through Catalog.write: it passes the operation's gate, validates, spends
// the row's budgets through the [model.Limiter] port, runs the operation in one transaction under the
// write time budget, and hands the typed [model.Change]s it reports to every [WriteHook]
// inside that transaction (the keys a write creates as batch changes, [model.KeyBatch],
// which hooks read one key at a time through [model.WriteEvent.All]). Every side effect of a write is a hook the wiring registers
// ([Options].Hooks; cmd/lokal lists them in order, tests take [DefaultHooks]): refreshing
// caches, keeping the status counters, recording AI usage, scheduling checkups, queueing
// the automatic translation of new keys, and the webhook outbox, each in a hook_*.go file.
// One more step is no hook, since it is right only if every write runs it: keepSyntax
// moves the project's stored syntax detection (syntax.go) by the source values written,
// so that no read detects from every value; a write that may have taken a syntax away
// keeps the wider detection and, once it committed, has every value read again in the
// background (syntax_recount.go). A dry run (an import's preview, write.dry) passes the same
// gate and budgets and runs the same apply in a read transaction whose writes are dropped
// (dryTx, dry_run.go): it holds no writer, runs no hook and stores nothing.
// The operations know none of them, and no code of the package opens a transaction
// elsewhere (a test keeps it so).
//
// # AI translation
//
// aiTranslate is the one AI operation behind endpoint 6, ai_translate_keys and the
// automatic translation jobs: read the keys and rules, call the model outside any
// transaction (package ai masks placeholders and verifies answers), store what passed
// through the write path as needs_review drafts credited to ai:<model>, unless the source
// moved meanwhile, and report every call's usage to the usage hook.
// The prompt for a key says where the key is shown on the site, when it was seen there.
//
// # Review in context
//
// page_context.go keeps what the panel beside a site in edit mode reports: where each key
// is seen (page, role, neighbouring text, width against its box), on the workspace's sites
// only and within bounds; the editor's rows show it and flag a value that would overflow
// ([OverflowOf], visible length by tools/message), the AI's prompt carries it, and a
// page's keys are listed in their order there.
//
// # Limits
//
// Every budget (per project, token, client address, address and email) and every per-call
// size cap is in one table ([Budgets], budgets.go), overridden one way (Options.Budgets).
// [model.Limiter] is the one rate-limit port: [MemoryLimiter] for one process, storage's
// database-backed one for several servers on PostgreSQL. A refusal is CodeRateLimited with
// RetryAfter ([RetryAfterSeconds] is the one rounding) and reaches Options.OnRefused, so
// every door's refusals are counted alike.
//
// # Who is calling
//
// Transports authenticate and put a [model.Principal] in the context
// ([model.WithPrincipal]) and mark their door ([WithDoor]); every operation passes the gate
// of its row against both (gate.go: the caller's kind, the door, an OAuth grant, the
// project, a read-only credential, the right, the budgets), and writes are attributed to
// [model.Principal.Actor] in the history. A user signed in to the browser app
// calls the same operations as the API and the command line: the operations on a project
// admit a member of its workspace themselves, so no screen has a wrapper of its own.
// What a user may do is their roles' rights, read in one place (rightsOn, rights.go): an
// operation asks its row's right in Operations, or, where the input decides, the right
// its input needs (an import: reading for a dry run, the source right for a source-language
// file, editing a language, and approving it when imported approved). Pages read the same
// rights through [Catalog.MyRoleOn] to show only what is allowed. An archived project is
// read-only for everyone (archived, archive.go, applied by the one write path); a disabled
// user's tokens and sessions hold no right (users_admin.go). The operator names projects
// and users by id, title or email through one resolver (resolve.go).
//
// # Rules
//
// Sync semantics (created, hidden, unhidden, source_value_changed, filled), staleness
// (isStale), the status default (statusOrDefault), text fields (checkText), flags and value
// safety ([model.GateValue] over package valuecheck) live here or in the model, each in one
// function, with no HTTP or SQL in sight; text is read only through package message. The
// rules are tested here, on both databases, against the storage test fixture.
//
// Addresses users configure (webhooks, deploy hooks, workspace AI providers) are checked
// when they are set; package workflows makes the outbound calls through package outbound's
// guarded client (webhook deliveries, a redeploy's dispatch handed to [Catalog.Redeploy]).
//
// # Files
//
// Every door that reads a translation file (the import endpoint, import_translations, the
// editor's upload, push) goes through importFile, and every door that writes one (endpoint
// 1 with format=, get_translations, the editor's download, pull) through fileEntry, each
// through the format's codec (package formats). What a file says beyond lokal's fields
// (its entries' and its own Meta) is kept per format and language, within size caps, and
// handed back to the codec on export (filemeta.go); tools reads none of its keys. An import
// warns of what it could not keep. An export is encoded from the namespace's keys in each
// language, cached and patched by the keys a write touched as endpoint 1 is
// (export_cache.go); a file the cache lacks is filled through one queue (export_queue.go):
// coalesced per file, one at a time per project and format, a bounded number at once across
// the server, and 503 with Retry-After past the queue's bound.
//
// # Errors and storage
//
// Operations return [*model.Error] with a code; package rest/httpx maps codes to HTTP
// statuses and the MCP adapter turns them into tool errors. [model.Store] and [model.Tx]
// are the database as the catalogue needs it; package storage implements them on SQLite
// and PostgreSQL.
package tools
