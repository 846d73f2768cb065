package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerSyncCosts(m *migrate.Migrations) { m.MustRegister(migrateSyncCosts, noDown) }

// migrateSyncCosts cuts a cost a full sync of a big namespace profiled with:
// keys_namespace_visible, the visible keys of a namespace by id, from which
// VisibleKeysExcept counts them alone instead of reading every key row for its hidden
// flag. (FTS5 merging 16 segments at a time instead of 4 also saved a sync of 1,000
// changed values about 90 ms on SQLite, but made a rare key search read more segments:
// left at 4.)
func migrateSyncCosts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx, `CREATE INDEX IF NOT EXISTS keys_namespace_visible ON translation_keys (namespace_id, id) WHERE NOT hidden`)
	})
}
