// Package storagetest opens real databases for tests, SQLite and PostgreSQL, fast enough
// to give every test and every scenario its own.
//
// Migrating a database costs about 200 ms, so each test binary migrates once per dialect
// and copies the result per test:
//
//   - SQLite: a template file is migrated (and given the [Fixture]) once, then copied into
//     the test's temporary directory.
//   - PostgreSQL (the server named by LOKAL_TEST_POSTGRES): a template database is
//     migrated and given the fixture once; databases cloned from it with CREATE DATABASE
//     ... TEMPLATE form a pool. A test leases one, which is first brought back to the
//     template's rows (deletes and inserts from a copy kept in the database itself, about
//     10 ms), and hands it back when it ends. Creating and dropping a database per test
//     would cost a checkpoint each (seconds on a busy server).
//
// Names carry the binary's start time (lokal_t_<unix>_<random>_...), so test binaries
// running side by side never share a database. [Main] drops the binary's databases when
// its tests end; databases of a binary that died are dropped by the next binary that
// starts more than an hour later.
//
// [ForEachDialect] is the one loop over the dialects: every package's tests run through it
// (a harness builds its own environment inside), so the subtests are named alike
// ("sqlite", "postgres") everywhere and `-run` picks one the same way. LOKAL_TEST_DIALECTS
// narrows them for a whole run (e.g. "postgres"): make test's race run takes each test
// once, on PostgreSQL; a test that names a dialect itself (DSN(t, "sqlite")) still runs.
//
// [Catalog] builds a catalogue with the write hooks the server registers, so that a test's
// writes refresh caches, queue jobs and fill the webhook outbox as the server's do.
//
// [Main] also makes password hashes cheap for the binary (one argon2id pass over 64 KiB).
//
// [Long] marks the tests that `make test` leaves to `make test-long`.
package storagetest
