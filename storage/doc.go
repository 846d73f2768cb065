// Package storage is lokal's database: bun models, migrations and queries for SQLite (the
// embedded default) and PostgreSQL, and the in-memory cache of serialized translation files.
//
// # Transactions
//
// [DB.Update] and [DB.View] run a function over a [tools.Tx] in one transaction. Tx.Touch
// (called by the catalogue's cache hook on every write) bumps a database-wide revision
// counter and stores it on the project; every process polls the counter and drops the
// cached files of projects whose revision moved, so a change made by the admin CLI or
// another server instance reaches this one within one poll interval.
//
// Files follow the aggregates of the tools.Tx port: tokens, workspaces, projects, keys,
// translations, comments, terminology, checkups, jobs; bulk_sqlite.go and bulk_postgres.go
// hold each dialect's fast inserts, limiter.go the rate budgets shared through PostgreSQL.
//
// # Dialects
//
// One model set serves both databases. SQLite runs in WAL mode with a busy timeout and
// foreign keys on; writes go through a single connection that takes the write lock at
// BEGIN, reads through a pool of their own.
//
// # Migrations
//
// Each migration is a Go file named VERSION_name.go. One changes data as well as schema:
// 20261124500001 seals the deploy hook URLs older versions stored in plain text, with
// [Options.Secrets]; without a key it stops the upgrade and names LOKAL_SECRET_KEY.
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
// since the last checkup, in the transaction of the write.
package storage
