package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerKeyOrder(m *migrate.Migrations) { m.MustRegister(migrateKeyOrder, noDown) }

// migrateKeyOrder adds keys_namespace_key, the keys of a namespace in byte order of their
// names: the review queue pages through a namespace in it (reviewOrder). On PostgreSQL the
// index holds the first 200 characters only, since a key may be 20,000 bytes and a btree
// entry at most about 2,700 (prefixes in "C" collation sort as the keys do bytewise; equal
// prefixes are sorted by the whole key after the index).
func migrateKeyOrder(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if db.Dialect().Name() == dialect.PG {
			return execAll(ctx, tx, `CREATE INDEX IF NOT EXISTS keys_namespace_key ON translation_keys (namespace_id, (substr(key, 1, 200)) COLLATE "C")`)
		}
		return execAll(ctx, tx, `CREATE INDEX IF NOT EXISTS keys_namespace_key ON translation_keys (namespace_id, key)`)
	})
}
