package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerTrigramDeferred(m *migrate.Migrations) { m.MustRegister(migrateTrigramDeferred, noDown) }

// migrateTrigramDeferred lets the write path maintain translations_trgm in bulk for value
// updates too, as it already does for inserts (migrateBulkTrigram). FTS5 flushes its
// pending trigrams to a new segment at every statement savepoint, and an UPDATE that fires
// a trigger opens one: a sync changing 1,000 values one statement each flushed and merged
// 1,000 tiny segments, most of its time on SQLite. While trigram_deferred holds a row
// (only ever inside the write transaction that inserted it, which removes it before it
// commits), the update trigger does nothing and updateTranslationsSQLite indexes the
// changed rows itself: one 'delete' of the old texts and one insert of the new.
func migrateTrigramDeferred(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.SQLite {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx,
			`CREATE TABLE IF NOT EXISTS trigram_deferred (id INTEGER PRIMARY KEY)`,
			`DROP TRIGGER IF EXISTS translations_trgm_update`,
			`CREATE TRIGGER translations_trgm_update AFTER UPDATE OF value ON translations
WHEN old.value <> new.value AND NOT EXISTS (SELECT 1 FROM trigram_deferred) BEGIN
  INSERT INTO translations_trgm (translations_trgm, rowid, value) SELECT 'delete', old.id, old.value WHERE length(old.value) >= 3;
  INSERT INTO translations_trgm (rowid, value) SELECT new.id, new.value WHERE length(new.value) >= 3;
END`,
		)
	})
}
