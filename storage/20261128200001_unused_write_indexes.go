package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerUnusedWriteIndexes(m *migrate.Migrations) {
	m.MustRegister(migrateUnusedWriteIndexes, noDown)
}

// migrateUnusedWriteIndexes drops two indexes no query reads, which every written row paid
// for: translations_updated (updated_at) and history_created (created_at). Rows are read by
// key, language, status or id, never by time; a partial sync chunk of 5,000 new keys wrote
// 10,000 entries into them (and an overwrite one per row), at a million keys part of the
// chunk's time.
func migrateUnusedWriteIndexes(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx, `DROP INDEX IF EXISTS translations_updated`, `DROP INDEX IF EXISTS history_created`)
	})
}
