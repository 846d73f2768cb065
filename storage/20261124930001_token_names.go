package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerTokenNames(m *migrate.Migrations) { m.MustRegister(migrateTokenNames, noDown) }

// migrateTokenNames adds a name to API keys and personal tokens ("CI deploy"), so that
// people tell them apart by more than their prefix; empty for the keys made before.
func migrateTokenNames(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, []column{{"tokens", "name", "TEXT NOT NULL DEFAULT ''"}})
	})
}
