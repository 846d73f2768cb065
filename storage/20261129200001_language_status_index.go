package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerLanguageStatusIndex(m *migrate.Migrations) {
	m.MustRegister(migrateLanguageStatusIndex, noDown)
}

// migrateLanguageStatusIndex orders the rows of each language and status by key, so that a
// search of one language (with or without a status) reads only that language's rows: in
// translations_key_language it read every row of the project to learn that a language had
// none (sv enabled and empty at 1,000,000 keys: 0.35-1 s). On SQLite the index is analysed
// at once where the other indexes have statistics: without its own the planner would take
// it for a selective one in other queries of a language until the next pass.
//
// On PostgreSQL the key comes before the status: with (language, status, key_id) the
// planner, its statistics from before a language filled, took the index for the lateral
// lookup of one key's row in a language and read every row of the language for each key
// (0.5 ms a key: a 5,000-key overwrite ran past its 25 s budget while seeding a million
// keys). In key order a language's rows are walked as they are; SQLite, which always
// prefers the unique (key_id, language) for such a lookup, walks each status instead.
func migrateLanguageStatusIndex(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		cols := []string{"language", "status", "key_id"}
		if db.Dialect().Name() == dialect.PG {
			cols = []string{"language", "key_id", "status"}
		}
		if err := createIndexes(ctx, tx, []index{{"translations", "translations_language_status", false, cols}}); err != nil {
			return err
		}
		if db.Dialect().Name() == dialect.PG {
			return nil
		}
		var stats int
		if err := tx.NewRaw(`SELECT COUNT(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'`).Scan(ctx, &stats); err != nil || stats == 0 {
			return err
		}
		return execAll(ctx, tx, `PRAGMA analysis_limit = 1000`, `ANALYZE translations_language_status`)
	})
}
