package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerHeldValues(m *migrate.Migrations) {
	m.MustRegister(migrateHeldValues, noDown)
}

// migrateHeldValues adds what a held-back translation needs: held, why the row's value is
// kept from readers (” while it is served), and served_value, the row's last value that
// passed, which readers get meanwhile (NULL: none, the key is left out). Existing rows stay
// served as they were: an upgrade alone must not change what apps receive; a row is judged
// when it is next written, and the checkup already reports what is wrong with the others.
// The partial index keeps counting held rows cheap, as they are few.
func migrateHeldValues(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{
			{"translations", "held", "VARCHAR NOT NULL DEFAULT ''"},
			{"translations", "served_value", "TEXT"},
		}); err != nil {
			return err
		}
		return execAll(ctx, tx, `CREATE INDEX translations_held ON translations (key_id) WHERE held <> ''`)
	})
}
