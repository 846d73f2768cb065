package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerHistoryKinds(m *migrate.Migrations) { m.MustRegister(migrateHistoryKinds, noDown) }

// migrateHistoryKinds renames the change labels of history rows written before the change
// kinds became constants (tools.ChangeKind), so the history speaks one vocabulary.
func migrateHistoryKinds(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for old, kind := range map[string]string{"created": "value_created", "value": "value_updated",
			"status": "status_changed", "flag": "flag_changed", "refresh": "value_refreshed"} {
			if _, err := tx.ExecContext(ctx, `UPDATE translation_history SET change = ? WHERE change = ?`, kind, old); err != nil {
				return fmt.Errorf("renaming history change %q: %w", old, err)
			}
		}
		return nil
	})
}
