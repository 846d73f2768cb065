package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerSQLiteKeyIndex(m *migrate.Migrations) { m.MustRegister(migrateSQLiteKeyIndex, noDown) }

// migrateSQLiteKeyIndex makes keys_namespace_key, (namespace_id, key), the unique index of
// a namespace's keys on SQLite and drops keys_namespace_hash, (namespace_id, key_hash),
// which held the same uniqueness through a hash because PostgreSQL's btree entries are
// bounded (SQLite's are not). Every new key was written into both, one of them out of
// order whatever the order of the inserts: the out-of-order one split pages all over and
// put each page it touched into its statement's journal (issue 34: a third of a 50,000-key
// sync's key inserts). Keys are looked up by name on SQLite instead (keyColumn).
func migrateSQLiteKeyIndex(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.SQLite {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx,
			`DROP INDEX IF EXISTS keys_namespace_key`,
			`CREATE UNIQUE INDEX keys_namespace_key ON translation_keys (namespace_id, key)`,
			`DROP INDEX IF EXISTS keys_namespace_hash`)
	})
}
