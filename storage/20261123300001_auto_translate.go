package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerAutoTranslate(m *migrate.Migrations) { m.MustRegister(migrateAutoTranslate, noDown) }

// migrateAutoTranslate gives jobs a list of items (the keys of one translation batch), and
// adds the AI usage ledger and the strings automatic translation could not translate.
func migrateAutoTranslate(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, []column{
			{"jobs", "items", "TEXT NOT NULL DEFAULT '[]'"},
			{"jobs", "item_count", "INTEGER NOT NULL DEFAULT 0"},
		}); err != nil {
			return err
		}
		if _, err := tx.NewCreateTable().Model((*usageRow)(nil)).IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating ai_usage: %w", err)
		}
		if _, err := tx.NewCreateTable().Model((*aiFailureRow)(nil)).IfNotExists().Exec(ctx); err != nil {
			return fmt.Errorf("creating ai_failures: %w", err)
		}
		if err := createIndexes(ctx, tx, []index{
			{(*usageRow)(nil), "ai_usage_project_created", []string{"project_id", "created_at"}},
			{(*aiFailureRow)(nil), "ai_failures_project", []string{"project_id", "language"}},
		}); err != nil {
			return err
		}
		return nil
	})
}
