package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerKeyDescriptions(m *migrate.Migrations) { m.MustRegister(migrateKeyDescriptions, noDown) }

// migrateKeyDescriptions adds a key's description: the note for translators a translation
// file carried when it made the key (a PO "#." comment, an ARB description), written back
// on export; empty when none.
func migrateKeyDescriptions(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, []column{{"translation_keys", "description", "TEXT NOT NULL DEFAULT ''"}})
	})
}
