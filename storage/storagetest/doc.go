// Package storagetest opens real databases for tests, SQLite and PostgreSQL, fast enough
// to give every test and every scenario its own.
//
// Migrating a database costs seconds on a busy machine, so templates are migrated once per
// version of the code (the hash of the module's non-test Go files, go.mod and go.sum) and
// copied per test:
//
//   - SQLite: a template file is migrated (and given the [Fixture]) once per version of
//     the code, by the first binary that needs it (in the system's temporary directory,
//     lokal-storagetest-tpl-<hash>, renamed into place when complete), then copied into
//     the test's temporary directory.
//   - PostgreSQL (the server named by LOKAL_TEST_POSTGRES): one template database per
//     version of the code (lokal_tpl_<hash>), migrated and given the fixture by the first
//     binary that needs it, under an advisory lock that makes the others wait and then
//     reuse it, in this run and the next. Databases cloned from it (lokal_p_<hash>_<n>)
//     form a pool shared the same way: a binary claims one with an advisory lock held
//     until it ends, and leases it to one test at a time, first bringing it back to the
//     template's rows (deletes and inserts from a copy kept in the database itself, about
//     10 ms). A pool database whose schema a test changed is cloned again when claimed.
//     Nothing is dropped when a binary ends (a DROP DATABASE waits for a checkpoint,
//     seconds on a busy server).
//
// Another code's templates and pools are dropped when no binary holds them and none
// started on them for an hour.
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
