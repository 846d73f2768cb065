package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerSearchIndex(m *migrate.Migrations) { m.MustRegister(migrateSearchIndex, noDown) }

// migrateSearchIndex indexes substrings of values and keys so that search_translations
// finds a rare word without reading every row, and orders rows of one status by key so
// that a status filter walks only its own rows:
//
//   - PostgreSQL: pg_trgm and a trigram GIN index on LOWER(value) and on LOWER(key), the
//     expressions the search compares. Creating the extension needs a role allowed to
//     (superuser, or a trusted extension for the database owner on PostgreSQL 13+); where
//     it cannot be created the migration leaves both indexes out and search keeps working
//     by scanning, as before. An operator may create the extension later and the indexes
//     by hand with the statements below.
//   - SQLite: FTS5 tables with the trigram tokenizer over the rows' own text (external
//     content: translations_trgm, translation_keys_trgm, rowid = the row's id), filled
//     from the existing rows and kept in step by triggers, so that every write path, bulk
//     inserts and staged rollbacks included, maintains them without knowing they exist;
//     'rebuild' regenerates one from its table.
//   - both: translations_status_key (status, key_id, language).
func migrateSearchIndex(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := createIndexes(ctx, tx, []index{
			{"translations", "translations_status_key", false, []string{"status", "key_id", "language"}},
		}); err != nil {
			return err
		}
		if db.Dialect().Name() == dialect.PG {
			return pgTrigramIndexes(ctx, tx)
		}
		return execAll(ctx, tx,
			`CREATE VIRTUAL TABLE IF NOT EXISTS translations_trgm USING fts5(value, tokenize = 'trigram', content = 'translations', content_rowid = 'id')`,
			`CREATE VIRTUAL TABLE IF NOT EXISTS translation_keys_trgm USING fts5(key, tokenize = 'trigram', content = 'translation_keys', content_rowid = 'id')`,
			// Filled from the rows there are; 'rebuild' starts over, so running again is safe.
			`INSERT INTO translations_trgm (translations_trgm) VALUES ('rebuild')`,
			`INSERT INTO translation_keys_trgm (translation_keys_trgm) VALUES ('rebuild')`,
			`CREATE TRIGGER IF NOT EXISTS translations_trgm_insert AFTER INSERT ON translations BEGIN
  INSERT INTO translations_trgm (rowid, value) VALUES (new.id, new.value);
END`,
			// Most updates change a status or a flag: the index is touched only when the text
			// changes.
			`CREATE TRIGGER IF NOT EXISTS translations_trgm_update AFTER UPDATE OF value ON translations WHEN old.value <> new.value BEGIN
  INSERT INTO translations_trgm (translations_trgm, rowid, value) VALUES ('delete', old.id, old.value);
  INSERT INTO translations_trgm (rowid, value) VALUES (new.id, new.value);
END`,
			`CREATE TRIGGER IF NOT EXISTS translations_trgm_delete AFTER DELETE ON translations BEGIN
  INSERT INTO translations_trgm (translations_trgm, rowid, value) VALUES ('delete', old.id, old.value);
END`,
			`CREATE TRIGGER IF NOT EXISTS translation_keys_trgm_insert AFTER INSERT ON translation_keys BEGIN
  INSERT INTO translation_keys_trgm (rowid, key) VALUES (new.id, new.key);
END`,
			`CREATE TRIGGER IF NOT EXISTS translation_keys_trgm_update AFTER UPDATE OF key ON translation_keys WHEN old.key <> new.key BEGIN
  INSERT INTO translation_keys_trgm (translation_keys_trgm, rowid, key) VALUES ('delete', old.id, old.key);
  INSERT INTO translation_keys_trgm (rowid, key) VALUES (new.id, new.key);
END`,
			`CREATE TRIGGER IF NOT EXISTS translation_keys_trgm_delete AFTER DELETE ON translation_keys BEGIN
  INSERT INTO translation_keys_trgm (translation_keys_trgm, rowid, key) VALUES ('delete', old.id, old.key);
END`,
		)
	})
}

// pgTrigramIndexes creates pg_trgm where it may and the two trigram indexes where it
// exists. The operator class is named with the extension's schema: the extension may live
// in a schema that is not on this connection's search_path.
func pgTrigramIndexes(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT lokal_trgm`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `CREATE EXTENSION IF NOT EXISTS pg_trgm`); err != nil {
		// Not allowed, or not installed on the server: search scans instead.
		_, rerr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT lokal_trgm`)
		return rerr
	}
	var schema string
	if err := tx.NewRaw(`SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`).
		Scan(ctx, &schema); err != nil {
		return err
	}
	ops := bun.Ident(schema)
	if _, err := tx.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS translations_value_trgm ON translations USING gin (LOWER(value) ?.gin_trgm_ops)`, ops); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS keys_key_trgm ON translation_keys USING gin (LOWER(key) ?.gin_trgm_ops)`, ops)
	return err
}
