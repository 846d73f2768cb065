// Package dbdump writes a lokal database out as text and back, on SQLite and PostgreSQL,
// so that the migration tests can start from the database an earlier release created.
//
// A dump has two readings. [Schema] is the normalized schema (tables, columns, types,
// nullability, defaults, indexes, keys), sorted so that two databases built by different
// routes compare equal when they hold the same schema. [Take] is a restorable copy: the
// release's own DDL and every row as SQL literals, which [Load] replays into an empty
// database and [Rows] reads back for comparison.
//
// Values are SQL literals read by the database itself (quote() on SQLite, ::text on
// PostgreSQL), so a restored row holds exactly the bytes the release stored.
package dbdump
