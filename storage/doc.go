// Package storage is lokal's database: bun models, migrations and queries for SQLite (the
// embedded default) and PostgreSQL, and the in-memory cache of serialized translation files.
//
// # Transactions
//
// [DB.Update] and [DB.View] run a function over a [tools.Tx] in one transaction. Tx.Touch
// and TouchKeys (called by the catalogue's cache hook on every write) bump a database-wide
// revision counter, store it on the project and journal in cache_changes what the revision
// changed: keys of namespaces, whole namespaces, or the whole project. The bump happens
// when the function has returned, just before the commit: every write queues on the
// counter's row, so a big write holds it for its commit only. This process applies
// the change to its cache before Update returns; every other process polls the counter and
// applies the journal, so a change made by the admin CLI or another server instance reaches
// this one within one poll interval. A cached namespace file learns the keys a change named
// and re-reads only those on its next read (DB.CachedPatch): a 1-key write to a 50,000-key
// namespace costs the next reader a few milliseconds, not a rebuild; a state kept the same
// way (DB.CachedState: the keys the exports are encoded from) is patched alike. A process
// that finds the journal trimmed past its last poll drops the changed projects whole.
//
// Files follow the aggregates of the tools.Tx port: tokens, workspaces, projects, keys,
// translations, comments, terminology, checkups, jobs; bulk_sqlite.go and bulk_postgres.go
// hold each dialect's fast inserts, limiter.go the rate budgets shared through PostgreSQL.
// file_meta.go keeps what translation files say beyond lokal's fields (entry_meta per key,
// format and language; file_meta per namespace, format and language), as tools encodes it.
// page_contexts.go keeps where keys were seen on a site's pages (review in context), one
// row per key and page URL, bounded per key and per page.
// operator.go archives and deletes projects (projectScoped lists every table that holds a
// project's rows) and disables and deletes users.
// stats.go keeps the status counters, per project and per namespace, from each key's and
// row's recorded mark (current rows marked by review state: approved, to review, AI
// draft); syntax.go the project's detected
// syntax evidence (project_syntax), with a generation that keeps a detection from landing
// over a write it did not see.
//
// # Dialects
//
// One model set serves both databases. SQLite runs in WAL mode with a busy timeout and
// foreign keys on; writes go through a single connection that takes the write lock at
// BEGIN, reads through a pool of their own, opened query_only so that a read transaction
// can never write (a dry-run import relies on it). The WAL is checkpointed in the background from
// a reader after writes (checkpoint.go), never inside the writer's commits, and the FTS5
// trigram tables are kept by the write path in bulk, one statement per batch of inserted
// or changed rows (bulk_sqlite.go), since FTS5 flushes a segment at every statement
// savepoint; their segments are merged in the background after writes commit, not inside
// them (trigram_pending.go). On PostgreSQL a key's namespace and a translation's key are
// checked once per statement by triggers, not per row by foreign keys
// (20261214010001_statement_key_checks.go): writes to a project take turns, so the row
// locks a foreign key takes guarded nothing there. PostgreSQL's trigram indexes are on
// side tables a background pass fills after writes commit; writes only record the ids
// they touched, and searches read those rows directly until then (trigram_pending.go).
//
// # Migrations
//
// Each schema change is one migration, a Go file named VERSION_name.go that states exactly
// what it changes on both dialects: the tables it creates come from row structs frozen in
// that file as the release that shipped it had them, never from the live rows, so a fresh
// database and one upgraded from any earlier release end with the same schema. A change
// to a row struct therefore needs a new migration. testdata/releases holds the database
// each landed release created and filled (make-fixture.sh builds the release and dumps it
// with internal/dbdump); the tests upgrade every one and compare its schema with a fresh
// database's and its rows with the release's.
//
// Some migrations change data as well: 20261123100002 renames old history labels,
// 20261124103001 drops the old checkup reports and queues a checkup instead, and
// 20261124500001 seals the deploy hook URLs older versions stored in plain text, with
// [Options.Secrets]; without a key it stops the upgrade and names LOKAL_SECRET_KEY.
// 20261124700001 evens out the three columns that differed by the release that created
// the database, rebuilding two tables on SQLite.
//
// # Errors
//
// Missing rows come back as tools.CodeNotFound and unique violations as tools.CodeConflict,
// on both dialects.
//
// # Checkups
//
// A checkup report holds counts; its findings are rows of checkup_findings, each in the
// reports whose sequence number is in [first_seq, last_seq), so a finding that did not
// change is one row for every report that shows it. checkup_queue lists the keys written
// since the last checkup, in the transaction of the write; a row of key_id 0 queues the
// whole project (a write of many keys), which the next checkup reads as a full pass.
package storage
