package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerBulkTrigram(m *migrate.Migrations) { m.MustRegister(migrateBulkTrigram, noDown) }

// migrateBulkTrigram changes how SQLite keeps its trigram tables (translations_trgm,
// translation_keys_trgm) in step, so that big writes maintain them in bulk:
//
//   - inserts, most of a big sync's rows, are indexed by the write path itself, one
//     statement per batch of rows it inserted (insertKeysSQLite, insertTranslationsSQLite),
//     instead of a trigger run per row;
//   - text shorter than three characters is not indexed: no trigram matches it, and a
//     search of one or two characters never asks the index. A maximal sync of one-letter
//     values then adds nothing to translations_trgm.
//
// Updates and deletes keep their triggers, with the same rule; the tables are filled
// again under it.
func migrateBulkTrigram(ctx context.Context, db *bun.DB) error {
	if db.Dialect().Name() != dialect.SQLite {
		return nil
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return execAll(ctx, tx,
			`DROP TRIGGER IF EXISTS translations_trgm_insert`,
			`DROP TRIGGER IF EXISTS translations_trgm_update`,
			`DROP TRIGGER IF EXISTS translations_trgm_delete`,
			`DROP TRIGGER IF EXISTS translation_keys_trgm_insert`,
			`DROP TRIGGER IF EXISTS translation_keys_trgm_update`,
			`DROP TRIGGER IF EXISTS translation_keys_trgm_delete`,
			`INSERT INTO translations_trgm (translations_trgm) VALUES ('delete-all')`,
			`INSERT INTO translation_keys_trgm (translation_keys_trgm) VALUES ('delete-all')`,
			`INSERT INTO translations_trgm (rowid, value) SELECT id, value FROM translations WHERE length(value) >= 3`,
			`INSERT INTO translation_keys_trgm (rowid, key) SELECT id, key FROM translation_keys WHERE length(key) >= 3`,
			`CREATE TRIGGER translations_trgm_update AFTER UPDATE OF value ON translations WHEN old.value <> new.value BEGIN
  INSERT INTO translations_trgm (translations_trgm, rowid, value) SELECT 'delete', old.id, old.value WHERE length(old.value) >= 3;
  INSERT INTO translations_trgm (rowid, value) SELECT new.id, new.value WHERE length(new.value) >= 3;
END`,
			`CREATE TRIGGER translations_trgm_delete AFTER DELETE ON translations WHEN length(old.value) >= 3 BEGIN
  INSERT INTO translations_trgm (translations_trgm, rowid, value) VALUES ('delete', old.id, old.value);
END`,
			`CREATE TRIGGER translation_keys_trgm_update AFTER UPDATE OF key ON translation_keys WHEN old.key <> new.key BEGIN
  INSERT INTO translation_keys_trgm (translation_keys_trgm, rowid, key) SELECT 'delete', old.id, old.key WHERE length(old.key) >= 3;
  INSERT INTO translation_keys_trgm (rowid, key) SELECT new.id, new.key WHERE length(new.key) >= 3;
END`,
			`CREATE TRIGGER translation_keys_trgm_delete AFTER DELETE ON translation_keys WHEN length(old.key) >= 3 BEGIN
  INSERT INTO translation_keys_trgm (translation_keys_trgm, rowid, key) VALUES ('delete', old.id, old.key);
END`,
		)
	})
}
