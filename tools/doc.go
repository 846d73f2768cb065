// Package tools is lokal's catalogue: every operation of the service, its typed input and
// output, and its rules. MCP, REST and the public routes are adapters around it.
//
// # Operations
//
// Each operation is a [Catalog] method func(ctx, In) (Out, error). The MCP tools are listed
// once by [Catalog.Tools], which the rest package registers on the go-sdk server; the REST
// handlers call the same methods directly.
//
// Files are named by subject: read.go (endpoint 1), sync.go, missing.go, overwrite.go,
// stale.go, pagestrings.go, keys.go, rows.go (one row's value), status.go, review.go
// (comments and flags), terminology.go, projects.go, translations.go (the read tools),
// checkups.go, ai.go (AI translation on request), ai_config.go (where a project's provider
// comes from), autotranslate.go (automatic translation of new keys), usage.go (the AI usage
// ledger), embed.go, dictionary.go and harvest.go (the Embed's public operations),
// sitehost.go (how a site's host is bound, authorized and matched), syntax.go (which
// message syntaxes a project's values are read in: [Catalog.ProjectSyntax]), and the admin
// operations in admin.go, projects_admin.go, tokens.go.
//
// # The write path
//
// Every write goes through Catalog.write (write.go): it authorizes, validates, spends the
// write budget through the [model.Limiter] port, runs the operation in one transaction under the
// write time budget, and hands the typed [model.Change]s it reports to every [WriteHook] inside
// that transaction. Every side effect of a write is a hook the wiring registers
// ([Options].Hooks; cmd/lokal lists them, tests take [DefaultHooks]): refreshing caches,
// recording AI usage, scheduling checkups, queueing the automatic translation of new keys,
// and the webhook outbox. The operations know none of them.
//
// # AI translation
//
// aiTranslate is the one AI operation behind endpoint 6, ai_translate_keys and the
// automatic translation jobs: read the keys and rules, call the model outside any
// transaction (package ai masks placeholders and verifies answers), store what passed through
// the write path as needs_review drafts credited to ai:<model>, unless the source moved
// meanwhile, and write every call to the usage ledger.
//
// # Limits
//
// [model.Limiter] is the one rate-limit port for every transport: [MemoryLimiter] for one
// process, storage's database-backed one for several servers on PostgreSQL. A refusal is
// CodeRateLimited with RetryAfter; [RetryAfterSeconds] is the one rounding. Every budget (per
// project, token, client address) and every per-call size cap is in one table ([Budgets]),
// overridden one way (Options.Budgets), and every refusal reaches Options.OnRefused.
//
// # Who is calling
//
// Transports authenticate and put a [model.Principal] in the context ([model.WithPrincipal]); every
// operation authorizes itself against it. Writes are attributed to [model.Principal.Actor] in the
// history. A user signed in to the browser app ([KindSession]) calls the same operations
// as the API and the command line: the admin operations on a project (keys, AI and Embed
// settings, the user's own tokens) admit a member of its workspace themselves, so no
// screen has a wrapper of its own.
//
// # Rules
//
// Sync semantics (created, hidden, unhidden, source_value_changed, filled), staleness
// (isStale), the status default (statusOrDefault), text fields (checkText), flags and value
// safety (GateValue over package valuecheck) live here, each in one function, with no HTTP
// or SQL in sight. Package outbound is the guarded HTTP client for calls to addresses users
// configure; the catalogue checks those addresses when they are set, and package workflows
// makes the calls (webhook deliveries, a redeploy's dispatch handed to [Catalog.Redeploy]).
//
// # Errors
//
// Operations return [*model.Error] with a Code constant; rest maps codes to HTTP statuses and
// the MCP adapter turns them into tool errors.
//
// # Storage
//
// [model.Store] and [model.Tx] are the database as the catalogue needs it; package storage implements
// them on SQLite and PostgreSQL.
package tools
