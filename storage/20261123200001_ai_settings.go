package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerAISettings(m *migrate.Migrations) { m.MustRegister(migrateAISettings, noDown) }

// migrateAISettings adds a workspace's own AI provider (base URL, model, the sealed key)
// and a project's instructions; a project's model reuses projects.ai_model.
func migrateAISettings(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, []column{
			{"workspaces", "ai_base_url", "VARCHAR NOT NULL DEFAULT ''"},
			{"workspaces", "ai_model", "VARCHAR NOT NULL DEFAULT ''"},
			{"workspaces", "ai_key_enc", "VARCHAR NOT NULL DEFAULT ''"},
			{"projects", "ai_instructions", "TEXT NOT NULL DEFAULT ''"},
		})
	})
}
