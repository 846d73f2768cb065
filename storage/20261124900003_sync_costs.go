package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerSyncCosts(m *migrate.Migrations) { m.MustRegister(migrateSyncCosts, noDown) }

// migrateSyncCosts cuts two costs a full sync of a big namespace profiled with:
//
//   - keys_namespace_visible, the visible keys of a namespace by id: VisibleKeysExcept
//     counts them from the index alone instead of reading every key row for its hidden
//     flag;
//   - on SQLite, the trigram tables merge their segments 16 at a time instead of 4: a
//     write that changes values flushes a segment, and FTS5's merges of them were most of
//     the cost of a sync of 1,000 changed values (the index of each value is rewritten
//     about half as often; a search reads at most 15 segments a level instead of 3).
func migrateSyncCosts(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		stmts := []string{`CREATE INDEX IF NOT EXISTS keys_namespace_visible ON translation_keys (namespace_id, id) WHERE NOT hidden`}
		if db.Dialect().Name() == dialect.SQLite {
			stmts = append(stmts,
				`INSERT INTO translations_trgm (translations_trgm, rank) VALUES ('automerge', 16)`,
				`INSERT INTO translation_keys_trgm (translation_keys_trgm, rank) VALUES ('automerge', 16)`)
		}
		return execAll(ctx, tx, stmts...)
	})
}
