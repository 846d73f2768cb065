package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

func registerDriftMarks(m *migrate.Migrations) { m.MustRegister(migrateDriftMarks, noDown) }

// migrateDriftMarks moves the marks of the rows behind their source or without a version
// (counted 2 to 5, see rowShare) out of translations, into translation_drift: one narrow
// row per (language, key) holding the mark, which then overrides translations.counted. A
// source change marked each of its translations behind by rewriting the row: with the
// mark in translations_drifted's predicate, and the seeded pages full, PostgreSQL could not
// do it in place (HOT) and wrote each row again into every index of the table, the trigram
// index among them (a sync of 1,000 changed source values: 1,600 rows at 1,000,000 keys,
// most of its time). Now it inserts 1,600 narrow rows. translations and translation_keys
// also leave a tenth of each new page free on PostgreSQL, so that the updates that still
// come (a mark back to current after the row's own rewrite, a key's source version) can be
// made in place; existing pages are not rewritten (minutes at a million keys).
//
// The rows moved keep their old counted, which their entry overrides: rewriting them is
// what this avoids. The table holds no foreign key: the write path keeps it (markRows),
// and the one delete of translations (RemoveStagedKeys) removes their entries first.
func migrateDriftMarks(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		stmts := []string{
			`CREATE TABLE IF NOT EXISTS translation_drift (language VARCHAR NOT NULL, key_id BIGINT NOT NULL, mark SMALLINT NOT NULL,
  PRIMARY KEY (language, key_id))`,
			`INSERT INTO translation_drift (language, key_id, mark) SELECT language, key_id, counted FROM translations WHERE counted >= 2`,
			`DROP INDEX IF EXISTS translations_drifted`,
		}
		if db.Dialect().Name() == dialect.PG {
			stmts = append(stmts, `ALTER TABLE translations SET (fillfactor = 90)`, `ALTER TABLE translation_keys SET (fillfactor = 90)`)
		}
		return execAll(ctx, tx, stmts...)
	})
}
