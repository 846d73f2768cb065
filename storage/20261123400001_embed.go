package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerEmbed(m *migrate.Migrations) { m.MustRegister(migrateEmbed, noDown) }

// migrateEmbed adds what the Embed needs: a workspace's authorized hosts, host limit and
// emergency switch; the newest install ping per project (kept seven days); and visitor demand per language
// and day.
func migrateEmbed(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{
			{"workspaces", "authorized_hosts", "TEXT NOT NULL DEFAULT ''"},
			{"workspaces", "host_limit", "INTEGER NOT NULL DEFAULT 0"},
			{"workspaces", "embed_off", "BOOLEAN NOT NULL DEFAULT FALSE"},
		}); err != nil {
			return err
		}
		for _, model := range []any{(*pingRow)(nil), (*demandRow)(nil)} {
			if _, err := tx.NewCreateTable().Model(model).IfNotExists().
				ForeignKey(`("project_id") REFERENCES "projects" ("id")`).Exec(ctx); err != nil {
				return fmt.Errorf("creating table for %T: %w", model, err)
			}
		}
		if _, err := tx.NewCreateIndex().Model((*pingRow)(nil)).Index("embed_pings_at").
			Column("at").IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating index embed_pings_at: %w", err)
		}
		return nil
	})
}
